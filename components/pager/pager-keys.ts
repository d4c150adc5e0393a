/**
@module The pager's keys, in one table: the `?` overlay lists all of them and the status line's hint
is built from the same entries, so a key the pager takes is never missing from its help. Pure.
*/
import {span, wrapSpans} from '../../src/layout/spans.js';
import type {StyledLine} from '../../src/layout/styled-line.js';
import {displayWidth, truncateToWidth} from '../../src/layout/text-width.js';
import type {Theme} from '../../src/layout/theme.js';

/** One key of the pager: how the help writes it, what it does, and its short hint (absent: help only). */
export type PagerKey = {readonly keys: string; readonly does: string; readonly hint?: string};

/** Every key the pager's cards view takes, `less`-style movement first; keys with a hint in the order the status line drops them last to first. */
export const PAGER_KEYS: readonly PagerKey[] = [
	{keys: 'j / k, ↓ / ↑', does: 'next / previous entry', hint: 'j/k move'},
	{keys: 'Space, f, Ctrl+F, PgDn', does: 'page down'},
	{keys: 'b, Ctrl+B, PgUp', does: 'page up'},
	{keys: 'Ctrl+D / Ctrl+U', does: 'half a page down / up'},
	{keys: 'g, Home / G, End', does: 'first / last entry (G follows a growing log again)'},
	{keys: 'Enter', does: 'cycle the entry: bounded → full → summary', hint: '⏎ expand'},
	{keys: '/', does: 'search (Enter searches, Esc cancels)', hint: '/ search'},
	{keys: 'n / N', does: 'next / previous match (match i/N in the status line)'},
	{keys: 'y', does: 'copy the entry as it is shown (OSC 52, or printed on quit)', hint: 'y copy'},
	{keys: 'o', does: 'open the card\'s file in $VISUAL / $EDITOR', hint: 'o open'},
	{keys: 'e / E', does: 'next / previous failed card or turn', hint: 'e/E failures'},
	{keys: '+ / -', does: 'expand / collapse every entry', hint: '+/- all'},
	{keys: '!', does: 'list the log\'s damaged lines'},
	{keys: '?', does: 'this help (any key closes it)'},
	{keys: 'Esc', does: 'closes search, this help or the damaged-lines list; on the entries it quits like q'},
	{keys: 'q, Ctrl+C', does: 'quit the pager'},
];

/** The hint that every status line ends with, whatever the width. */
export const ALWAYS_HINT = '? help · q quit';

/**
The status rows at `columns`: `info` (position, search, damage, counts, title), then as many short
key hints as fit, then `? help · q quit`, which is always whole. When `info` and the help hint do not
fit on one row together, the status takes two: `info` (cut with `…` if it must be) above the hints —
so neither the damage note nor the way to the help is ever cut away.
*/
export function statusRows(info: string, columns: number): string[] {
	const tail = ` · ${ALWAYS_HINT}`;
	if (displayWidth(info) + displayWidth(tail) <= columns) {
		return [`${info}${withHints(info, columns - displayWidth(tail))}${tail}`];
	}

	// The second row: hints that fit before ` · ? help · q quit` (withHints counts a leading ` · `).
	const hints = withHints('', columns - displayWidth(tail) + 3).replace(/^ · /, '');
	return [truncateToWidth(info, columns), hints === '' ? truncateToWidth(ALWAYS_HINT, columns) : `${hints} · ${ALWAYS_HINT}`];
}

/** ` · ` and the key hints that fit after `before` within `room` columns ('' when none does). */
function withHints(before: string, room: number): string {
	let hints = '';
	for (const key of PAGER_KEYS) {
		if (key.hint === undefined) {
			continue;
		}

		const next = `${hints}${hints === '' ? '' : '  '}${key.hint}`;
		if (displayWidth(`${before} · ${next}`) > room) {
			break;
		}

		hints = next;
	}

	return hints === '' ? '' : ` · ${hints}`;
}

/** Below this width the overlay puts each key on a row of its own, what it does indented below it. */
const TWO_ROW_WIDTH = 60;

/** The `?` overlay's rows: each key in the path style, what it does after it (or below it when narrow), wrapped to `width`. */
export function helpRows(width: number, theme: Theme): StyledLine[] {
	const rows: StyledLine[] = [{spans: [span('Pager keys', theme.markdownHeading)]}, {spans: []}];
	if (width < TWO_ROW_WIDTH) {
		for (const key of PAGER_KEYS) {
			for (const row of wrapSpans([span(key.keys, theme.path)], width)) {
				rows.push(row);
			}

			for (const row of wrapSpans([span(key.does)], Math.max(1, width - 2))) {
				rows.push({spans: [span('  '), ...row.spans]});
			}
		}

		return rows;
	}

	const column = Math.min(24, Math.floor(width / 3));
	for (const key of PAGER_KEYS) {
		const keys = displayWidth(key.keys) >= column ? `${key.keys} ` : key.keys.padEnd(column);
		for (const row of wrapSpans([span(keys, theme.path), span(key.does)], width)) {
			rows.push(row);
		}
	}

	return rows;
}
