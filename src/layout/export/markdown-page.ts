/**
@module A transcript as Markdown for pasting into an issue (`cardterm export --md`): the same rows as
the terminal's, as plain text — each card a `<details>` block whose summary is its header row and
whose body is fenced (the fence longer than any backtick run inside, so no text can close it), the
person's and the model's messages as text.
*/
import {pushAll} from '../text/push-all.js';
import type {StyledLine} from '../text/styled-line.js';
import {escapeHtml, type PageEntry, type PageHead} from './html-page.js';

const rowText = (row: StyledLine): string => row.spans.map(span => span.text).join('');

function fenced(text: string): string {
	let longest = 2;
	for (const match of text.matchAll(/`+/g)) {
		longest = Math.max(longest, match[0].length);
	}

	const fence = '`'.repeat(longest + 1);
	return `${fence}text\n${text}\n${fence}`;
}

function entryMarkdown(entry: PageEntry): string {
	const lines = entry.rows.map(row => rowText(row));
	if (entry.kind === 'card' && lines.length > 0) {
		const [header, ...body] = lines;
		return `<details><summary>${escapeHtml(header!)}</summary>\n\n${body.length === 0 ? '' : `${fenced(body.join('\n'))}\n`}\n</details>\n`;
	}

	return `${fenced(lines.join('\n'))}\n`;
}

/** Text from a log as Markdown that only says itself: no link, image or markup of its own. */
function literal(text: string): string {
	return escapeHtml(text.replaceAll('\n', ' ')).replace(/[\\`*_[\]()!|]/g, '\\$&');
}

/** The whole document. */
export function markdownPage(head: PageHead, entries: Iterable<PageEntry>): string {
	const parts = [`## ${literal(head.title)}`, '', ...head.facts.map(fact => `- ${literal(fact)}`), `- ${literal(head.tally)}`];
	if (head.redactions === undefined) {
		parts.push('', '**REDACTION IS OFF: this text may hold keys, tokens and passwords from the session.**');
	} else if (head.redactions.length > 0) {
		parts.push('', 'Redacted (each replaced by `[REDACTED:KIND]`):');
		pushAll(parts, head.redactions.map(line => `- ${literal(line)}`));
	}

	parts.push('');
	for (const entry of entries) {
		parts.push(entryMarkdown(entry));
	}

	return `${parts.join('\n')}\n`;
}
