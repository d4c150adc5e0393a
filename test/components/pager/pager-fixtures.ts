/**
@module Entries and a reducer context for the pager's pure tests: cards whose rows are easy to count
and a layout that gives each entry a fixed number of rows per expansion.
*/
import type {Card} from '../../../src/presentation/card.js';
import type {StyledLine} from '../../../src/layout/text/styled-line.js';
import type {EntrySource} from '../../../src/transcript/entry-source.js';
import type {EntryLayout, PagerContext} from '../../../components/pager/pager-state.js';
import {makeCard, text} from '../../layout/fixtures.js';

/** A settled `echo cardN` card. */
export const echoCard = (index: number): Card => ({
	...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `echo card${index}`}, result: {content: text(`card${index} out`), isError: false}}),
	seq: index,
});

/** A card that failed (`e` jumps to it). */
export const failedCard = (index: number): Card => ({
	...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `false card${index}`}, result: {content: text(`card${index} broke`), isError: true}}),
	seq: index,
});

/** Each entry `rows` rows high at the default expansion, one at `summary`, twice as many at `full`. */
export function rowsLayout(rows: number): EntryLayout {
	return (entry, expansion) => {
		const count = expansion === 'summary' ? 1 : (expansion === 'full' ? rows * 2 : rows);
		return Array.from({length: count}, (_, row): StyledLine => ({spans: [{text: `${entry.entry} row ${row}`, style: {}}]}));
	};
}

/** A context over `source`: 10 rows of entries, 2-row entries, nothing live, no overlays' rows, no child sessions. */
export function contextFor(source: EntrySource, overrides: Partial<PagerContext> = {}): PagerContext {
	return {
		source,
		layout: rowsLayout(2),
		height: 10,
		overlayHeight: 10,
		follow: false,
		helpRows: 0,
		damageRows: 0,
		damaged: 0,
		undo: false,
		undoRows: 0,
		childOf: () => undefined,
		...overrides,
	};
}
