/**
@module The pager's keys, in one table: each entry is how `?` writes the key(s), what they do, an
optional short hint for the status line, and the command each key gives. The `?` overlay, the status
line's hints and the dispatch (`commandOf`) all read it, so a key cannot be handled and not listed,
or listed and not handled (test/components/pager/pager-keys.test.ts walks the table). What a
command does in each view is the reducer's (pager-state.ts). Pure.
*/
import type {Key, KeyPress} from '../input/keys.js';
import {span, wrapSpans} from '../../src/layout/text/spans.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';
import {displayWidth, truncateToWidth} from '../../src/layout/text/text-width.js';
import type {Theme} from '../../src/layout/text/theme.js';

/** Every command a pager key gives; `close` is q and Esc (an overlay closes, the entries quit), `quit` is Ctrl+C (always quits). */
export const PAGER_COMMANDS = [
	'next', 'previous', 'page-down', 'page-up', 'half-page-down', 'half-page-up', 'first', 'last',
	'cycle', 'expand-all', 'collapse-all', 'search', 'next-match', 'previous-match', 'next-failure',
	'previous-failure', 'copy', 'open', 'export', 'undo', 'model-view', 'follow-link', 'damage', 'help', 'close', 'quit',
] as const;

export type PagerCommand = typeof PAGER_COMMANDS[number];

/**
A key as the table names it, the way `?` shows it: a typed character (`j`, `/`), `Space`, `Ctrl+` and a
letter, or a named key (`↓`, `PgDn`, `Home`, `Enter`, `Esc`; with any modifier, as terminals send them).
*/
export type KeyLabel = string;

/** One row of the table: how the help writes its keys, what they do, its short hint (absent: help only), and each key's command. */
export type PagerKey = {
	readonly keys: string;
	readonly does: string;
	readonly hint?: string;
	readonly on: Readonly<Partial<Record<PagerCommand, readonly KeyLabel[]>>>;
};

/** Every key the pager's entries view takes, `less`-style movement first; keys with a hint in the order the status line drops them last to first. */
export const PAGER_KEYS: readonly PagerKey[] = [
	{keys: 'j / k, ↓ / ↑', does: 'next / previous entry', hint: 'j/k move', on: {next: ['j', '↓'], previous: ['k', '↑']}},
	{keys: 'Space, f, Ctrl+F, PgDn', does: 'page down', on: {'page-down': ['Space', 'f', 'Ctrl+F', 'PgDn']}},
	{keys: 'b, Ctrl+B, PgUp', does: 'page up', on: {'page-up': ['b', 'Ctrl+B', 'PgUp']}},
	{keys: 'Ctrl+D / Ctrl+U', does: 'half a page down / up', on: {'half-page-down': ['Ctrl+D'], 'half-page-up': ['Ctrl+U']}},
	{keys: 'g, Home / G, End', does: 'first / last entry (G follows a growing log again)', on: {first: ['g', 'Home'], last: ['G', 'End']}},
	{keys: 'Enter', does: 'cycle the entry: bounded → full → summary', hint: '⏎ expand', on: {cycle: ['Enter']}},
	{keys: '/', does: 'search (Enter searches, Esc cancels); /#N goes to the entry of log seq N (as /context lists them)', hint: '/ search', on: {search: ['/']}},
	{keys: 'n / N', does: 'next / previous match, round the ends (match i/N in the status line)', on: {'next-match': ['n'], 'previous-match': ['N']}},
	{keys: 'y', does: 'copy the entry as it is shown (OSC 52, or printed on quit)', hint: 'y copy', on: {copy: ['y']}},
	{keys: 'o', does: 'open the card\'s file in $VISUAL / $EDITOR', hint: 'o open', on: {open: ['o']}},
	{keys: 'x', does: 'export the session as a page to share (HTML, secrets redacted) beside its log', on: {export: ['x']}},
	{keys: 'u', does: 'undo this diff card alone, after its reverse diff (y/Enter takes it back, n/Esc keeps it; live session only)', on: {undo: ['u']}},
	{keys: 'c', does: 'what the model knew: tokens each step sent (~ estimated); │ / ┆ mark entries summarised / pruned at the selected step', on: {'model-view': ['c']}},
	{keys: 'l', does: 'on a compaction card: go to the first entry it summarised (or pruned)', on: {'follow-link': ['l']}},
	{keys: 'e / E', does: 'next / previous failed card or turn', hint: 'e/E failures', on: {'next-failure': ['e'], 'previous-failure': ['E']}},
	{keys: '+ / -', does: 'expand / collapse every entry', hint: '+/- all', on: {'expand-all': ['+'], 'collapse-all': ['-']}},
	{keys: '!', does: 'list the log\'s damaged lines', on: {damage: ['!']}},
	{keys: '?', does: 'this help (any key closes it)', on: {help: ['?']}},
	{keys: 'Esc', does: 'closes search, this help or the damaged-lines list; on the entries it quits like q', on: {close: ['Esc']}},
	{keys: 'q, Ctrl+C', does: 'quit the pager', on: {close: ['q'], quit: ['Ctrl+C']}},
];

/** The named keys by the label the table gives them. */
const NAMED_KEYS: ReadonlyArray<readonly [KeyLabel, keyof Key]> = [
	['↑', 'upArrow'], ['↓', 'downArrow'], ['PgUp', 'pageUp'], ['PgDn', 'pageDown'], ['Home', 'home'], ['End', 'end'], ['Enter', 'return'], ['Esc', 'escape'],
];

/**
The table's label of a key press, or undefined when the press is no pager key (a paste, Alt+key, Tab,
← →, a run of text). A typed letter is never its Ctrl+letter: Ctrl+O is not `o`.
*/
export function keyLabel({input, key}: KeyPress): KeyLabel | undefined {
	if (key.paste) {
		return undefined;
	}

	for (const [label, name] of NAMED_KEYS) {
		if (key[name]) {
			return label;
		}
	}

	if (key.meta || key.tab || key.backspace || key.delete || key.leftArrow || key.rightArrow || [...input].length !== 1) {
		return undefined;
	}

	if (key.ctrl) {
		return /^[a-z]$/.test(input) ? `Ctrl+${input.toUpperCase()}` : undefined;
	}

	return input === ' ' ? 'Space' : input;
}

/** Each label's command, built once from the table; a label bound twice is a mistake in the table. */
const COMMANDS: ReadonlyMap<KeyLabel, PagerCommand> = (() => {
	const commands = new Map<KeyLabel, PagerCommand>();
	for (const key of PAGER_KEYS) {
		for (const [command, labels] of Object.entries(key.on) as Array<[PagerCommand, readonly KeyLabel[]]>) {
			for (const label of labels) {
				if (commands.has(label)) {
					throw new Error(`pager keys: ${label} is bound twice`);
				}

				commands.set(label, command);
			}
		}
	}

	return commands;
})();

/** The command of a key press on the pager, or undefined when the table binds no such key. */
export function commandOf(press: KeyPress): PagerCommand | undefined {
	const label = keyLabel(press);
	return label === undefined ? undefined : COMMANDS.get(label);
}

/** The hint that every status line ends with, whatever the width. */
const ALWAYS_HINT = '? help · q quit';

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
