import {sanitizeInline, sanitizeText} from '../../src/layout/text/sanitize.js';
import type {Expansion} from '../../src/layout/text/layout-options.js';
import {layoutCard} from '../../src/layout/cards/layout-card.js';
import {markdownCopyText} from '../../src/layout/markdown/markdown-layout.js';
import {lineText} from '../../src/layout/text/spans.js';
import {monochromeTheme} from '../../src/layout/text/theme.js';
import {emulateTerminalOutput, rawOutputLines} from '../../src/layout/terminal/terminal-output.js';
import {assertNever} from '../../src/presentation/assert-never.js';
import type {Card} from '../../src/presentation/card.js';
import {isNotOk} from '../../src/presentation/card-outcome.js';
import {compactionPlainText} from '../../src/presentation/compaction-text.js';
import type {TranscriptEntry} from '../../src/presentation/entry.js';
import type {ContentBlock} from '../../src/tools/content.js';

/** Whether an entry is a failure `e`/`E` jump to: a card settled not `ok` (`card-outcome.ts`), or a turn that ended in an error. */
export function isFailedEntry(entry: TranscriptEntry): boolean {
	return entry.entry === 'card' ? isNotOk(entry.card.outcome) : (entry.entry === 'turn' && entry.outcome.failed);
}

/** The text `/` searches in an entry. */
export function entrySearchText(entry: TranscriptEntry): string {
	switch (entry.entry) {
		case 'card': {
			return searchableText(entry.card);
		}

		case 'user': {
			return entry.text;
		}

		case 'assistant': {
			return `${entry.reasoning}\n${entry.text}`;
		}

		case 'turn': {
			return entry.outcome.advice === undefined ? entry.outcome.text : `${entry.outcome.text}\n${entry.outcome.advice}`;
		}

		case 'notice': {
			return `${entry.source}\n${entry.summary}\n${entry.detail ?? ''}`;
		}

		case 'todo': {
			return entry.items.map(item => item.content).join('\n');
		}

		case 'compaction': {
			return compactionPlainText(entry);
		}

		default: {
			return assertNever(entry, 'entrySearchText');
		}
	}
}

/** An entry's text for copying at its expansion: a card as `copyableText`; a message as its text, paragraphs whole. */
function entryCopyText(entry: TranscriptEntry, expansion: Expansion = 'bounded'): string {
	switch (entry.entry) {
		case 'card': {
			return copyableText(entry.card, expansion);
		}

		case 'user': {
			return sanitizeText(entry.text);
		}

		case 'assistant': {
			return markdownCopyText(entry.text);
		}

		case 'todo': {
			return sanitizeText(entry.items.map(item => `${item.status === 'completed' ? '[x]' : '[ ]'} ${item.content}`).join('\n'));
		}

		default: {
			return sanitizeText(entrySearchText(entry).trim());
		}
	}
}

/** The text search looks in: tool name, titles, arguments and the result's text. */
function searchableText(card: Card): string {
	const parts = [card.name, card.callView.title, card.resultView?.title ?? '', card.argsRaw, contentText(card.result?.content ?? [])];
	if (card.resultView?.card === 'terminal') {
		parts.push(card.resultView.output ?? '');
	}

	for (const child of card.children) {
		parts.push(searchableText(child));
	}

	return parts.join('\n');
}

/**
A card's text for copying, as the card shows it at `expansion`: the call on one row, then the
result, without styling or gutters. Command output is the emulated screen text (colours applied,
`\r` overwrites resolved) — or, when that hides text and the card is shown `full`, the raw output
the card then shows; a read card gives the file's lines it shows (not the model-facing
`<path>…<content>` text); any other card gives its body rows as laid out in full. Whatever the card
shows escaped is copied escaped: no control character but `\n` and `\t` reaches the clipboard or
the terminal.
*/
export function copyableText(card: Card, expansion: Expansion = 'bounded'): string {
	const call = sanitizeInline(card.callView.card === 'terminal' ? `$ ${card.callView.title}` : `${card.name}: ${card.callView.title}`);
	const body = copiedBody(card, expansion);
	return body === '' ? call : `${call}\n${body}`;
}

/** The body part of `copyableText`. */
function copiedBody(card: Card, expansion: Expansion): string {
	const view = card.resultView;
	if (view?.card === 'terminal') {
		return outputText(view.output ?? '', expansion);
	}

	if (view?.card === 'read') {
		return sanitizeText(view.lines.map(line => line.text).join('\n'));
	}

	if (card.result === null) {
		return '';
	}

	// The body rows as the card draws them in full, one logical line per row (no wrapping), no header.
	const rows = layoutCard(card, {width: COPY_WIDTH, theme: monochromeTheme, now: 0, expansion: 'full'});
	return rows.slice(1).map(row => lineText(row).trimEnd()).join('\n');
}

/** Wide enough that no body row of a copied card wraps. */
const COPY_WIDTH = 100_000;

/** What `y` copies of an entry, and how the status line names it. */
export function entryCopy(entry: TranscriptEntry, expansion: Expansion = 'bounded'): {readonly text: string; readonly what: string} {
	const text = entryCopyText(entry, expansion);
	const lines = text === '' ? 0 : text.split('\n').length;
	const count = `${lines} line${lines === 1 ? '' : 's'}`;
	if (entry.entry !== 'card') {
		return {text, what: `the ${entry.entry === 'user' ? 'message' : (entry.entry === 'assistant' ? 'answer' : entry.entry)} (${count})`};
	}

	const view = entry.card.resultView;
	if (view?.card === 'read') {
		const first = view.lines[0]?.number;
		const last = view.lines.at(-1)?.number;
		const range = first === undefined || last === undefined ? 'no lines' : `lines ${first}–${last}`;
		return {text, what: `${sanitizeInline(view.path)} ${range} as shown`};
	}

	if (view?.card === 'terminal' || entry.card.callView.card === 'terminal') {
		return {text, what: `the command and its output as shown (${count})`};
	}

	return {text, what: `the ${sanitizeInline(entry.card.name)} card as shown (${count})`};
}

/** Command output as the card shows it (terminal-card.ts `outputRows`), as text. */
function outputText(output: string, expansion: Expansion): string {
	const screen = emulateTerminalOutput(output);
	if (screen.hidesText && expansion === 'full') {
		return rawOutputLines(output).join('\n');
	}

	return screen.lines.map(line => line.map(span => span.text).join('')).join('\n');
}

function contentText(content: readonly ContentBlock[]): string {
	return content.map(block => (block.type === 'text' || block.type === 'reasoning' ? block.text : `[${block.type}]`)).join('\n');
}

/** Where the card points in a file, for "open in $EDITOR": the first location, read path or diff path. */
export function cardLocation(card: Card): {readonly path: string; readonly line?: number} | undefined {
	const view = card.resultView;
	if (view?.card === 'read') {
		return {path: view.path, line: view.lines[0]?.number ?? view.offset};
	}

	if (view?.card === 'search' && view.shape === 'matches' && view.files[0] !== undefined) {
		return {path: view.files[0].path, line: view.files[0].matches[0]?.lineNumber};
	}

	if (view?.card === 'search' && view.shape === 'paths' && view.paths[0] !== undefined) {
		return {path: view.paths[0]};
	}

	if (view?.card === 'diff' && view.diffs[0] !== undefined) {
		return {path: view.diffs[0].path};
	}

	const call = card.callView;
	if (call.card === 'diff') {
		return call.locations?.[0] ?? (call.diffs[0] === undefined ? undefined : {path: call.diffs[0].path});
	}

	return call.card === 'generic' ? call.locations?.[0] : undefined;
}
