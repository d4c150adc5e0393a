/**
@module The `@` picker's rows above the prompt: one row per pick (folders end in `/`), the marked one
as the approval dialog marks its choice (`›` and the selected style), the query's characters in bold;
then a dim row saying how many the index holds, that it is still indexing or why it stopped, and the
keys. A file name may hold anything: each is sanitized, and drawn cut to the width.
*/
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {formatCount} from '../src/layout/text/format.js';
import {span} from '../src/layout/text/spans.js';
import type {Span, StyledLine} from '../src/layout/text/styled-line.js';
import {truncateToWidth} from '../src/layout/text/text-width.js';
import type {Theme} from '../src/layout/text/theme.js';
import type {PickerView} from './hooks/use-prompt-input.js';

/** The picker's rows, at most `maxRows` (the picks give way first, the footer stays). */
export function pickerRows(view: PickerView, theme: Theme, width: number, maxRows: number): StyledLine[] {
	if (maxRows <= 0) {
		return [];
	}

	const room = Math.max(1, width - 2);
	const rows: StyledLine[] = view.picks.slice(0, Math.max(0, maxRows - 1)).map((pick, index) => {
		const selected = index === view.selected;
		const marker = span(selected ? '› ' : '  ', selected ? theme.selected : theme.muted);
		return {spans: [marker, ...pathSpans(pick.path, pick.positions, selected ? theme.selected : {}, theme, room)]};
	});
	const state = view.note ?? (view.indexing ? 'indexing…' : undefined);
	const found = view.picks.length === 0 ? (view.query === '' ? 'no files yet' : `no match for "${sanitizeInline(view.query)}"`) : `${formatCount(view.indexed)} files and folders`;
	const keys = view.picks.length === 0 ? 'Esc closes' : '↑↓ choose · Tab/Enter insert · Esc closes';
	rows.push({spans: [span(truncateToWidth(`  @ ${found}${state === undefined ? '' : ` (${state})`} · ${keys}`, width), theme.muted)]});
	return rows;
}

/** A path's spans: the query's characters bold (when the sanitized text is the path itself), cut to `room` columns. */
function pathSpans(path: string, positions: readonly number[], style: Span['style'], theme: Theme, room: number): Span[] {
	const shown = truncateToWidth(sanitizeInline(path), room);
	if (shown !== path || positions.length === 0) {
		return [span(shown, style)];
	}

	const bold = {...style, ...theme.match, bold: true};
	const spans: Span[] = [];
	let from = 0;
	for (const at of positions) {
		if (at > from) {
			spans.push(span(path.slice(from, at), style));
		}

		spans.push(span(path[at]!, bold));
		from = at + 1;
	}

	if (from < path.length) {
		spans.push(span(path.slice(from), style));
	}

	return spans;
}
