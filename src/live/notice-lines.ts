import {pushAll} from '../layout/text/push-all.js';
import {wrapSpans} from '../layout/text/spans.js';
import {displayWidth, wrapWords} from '../layout/text/text-width.js';
import type {Span, Style, StyledLine} from '../layout/text/styled-line.js';
import {sanitizeInline, sanitizeLines} from '../layout/text/sanitize.js';

/** A one-line message for the scrollback: info is recessed, errors red. Control characters are shown, never sent. */
export function noticeLines(message: string, tone: 'info' | 'error'): StyledLine[] {
	const style = tone === 'error' ? {fg: 'red' as const} : {dim: true};
	return sanitizeLines(message).map(text => ({spans: [{text, style}]}));
}

/** Columns a description needs beside its command before the table goes to two rows per command. */
const MIN_DESCRIPTION = 24;

/**
The `/help` table laid out for `width`: each command (`rows`: its form and what it does) on one row,
the description wrapped under itself; too narrow for that, the command on its row and the description
indented below; then `notes`. Nothing is cut and no row is wider than `width`. An ACP agent names its
own commands: every text is shown sanitized.
*/
export function helpLines(rows: ReadonlyArray<readonly [string, string]>, notes: readonly string[], width = 100): StyledLine[] {
	const table = rows.map(([form, what]) => [sanitizeInline(form), sanitizeInline(what)] as const);
	let formWidth = 0;
	for (const [form] of table) {
		formWidth = Math.max(formWidth, displayWidth(form));
	}

	const besides = width >= 2 + formWidth + 2 + MIN_DESCRIPTION;
	const dim = {dim: true};
	const lines: StyledLine[] = [{spans: [{text: 'Commands', style: {bold: true}}]}];
	for (const [form, what] of table) {
		if (besides) {
			hanging(lines, [{text: `  ${form}${' '.repeat(formWidth - displayWidth(form))}  `}], what, dim, width);
		} else {
			hanging(lines, [{text: '  '}], form, {}, width);
			hanging(lines, [{text: '      '}], what, dim, width);
		}
	}

	for (const text of notes) {
		hanging(lines, [], sanitizeInline(text), dim, width);
	}

	return lines;
}

/** `lead` then `text` wrapped into the columns after it, continuation rows indented as far. */
function hanging(rows: StyledLine[], lead: readonly Span[], text: string, style: Style, width: number): void {
	const indent = lead.reduce((sum, item) => sum + displayWidth(item.text), 0);
	const room = width - indent;
	if (room < 8) {
		pushAll(rows, wrapSpans([...lead, {text, style}], width));
		return;
	}

	wrapWords(text, room).forEach((row, index) => {
		rows.push({spans: [...(index === 0 ? lead : [{text: ' '.repeat(indent)}]), {text: row, style}]});
	});
}
