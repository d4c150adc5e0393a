/**
@module The pager's "what the model knew": over a source whose events it read (a log, the live
session), each model step's first entry gets a ledger row — the tokens that step's request sent,
`~` where the provider reported none and the figure is the log's messages estimated — and, for the
entry under the cursor, every entry that was no longer in the model's context at its step gets a dim
gutter: `│` summarised away by a compaction, `┆` its result pruned to a stub (the call stayed). The
facts are the source's context timeline (`src/session/fold/context-timeline.ts`); this file only
reads them. On by default in a log that recorded a compaction; `c` toggles it. Pure.
*/
import type {LayoutOptions} from '../../src/layout/text/layout-options.js';
import {formatCount} from '../../src/layout/text/format.js';
import {span, truncateSpans} from '../../src/layout/text/spans.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';
import type {Theme} from '../../src/layout/text/theme.js';
import type {TranscriptEntry} from '../../src/presentation/entry.js';
import type {ContextStanding, ContextStep, ContextTimeline} from '../../src/session/fold/context-timeline.js';
import type {EntrySource} from '../../src/transcript/entry-source.js';
import {entryKey} from '../../src/transcript/live-entry-source.js';

/** Columns the gutter takes before every row while the view is on. */
export const GUTTER_WIDTH = 2;

/** The gutter's glyph for each standing. */
const GUTTER: Readonly<Record<ContextStanding, string>> = {summarised: '│ ', pruned: '┆ '};

/** Whether the view is on: as the person toggled it, else on for a log that recorded a compaction. */
export function modelViewOn(chosen: boolean | undefined, source: EntrySource): boolean {
	return chosen ?? source.context?.()?.compacted === true;
}

/** The seq of the request whose context the entry under the cursor is read against (`ContextTimeline.requestOf`). */
export function requestAt(timeline: ContextTimeline, entry: TranscriptEntry | undefined): number {
	if (entry === undefined) {
		return Number.POSITIVE_INFINITY;
	}

	return timeline.requestOf(entryKey(entry), entry.entry === 'assistant' ? 'assistant' : (entry.entry === 'card' ? 'card' : 'other'));
}

/** Where `entry` stood in the context of the request at `request`: only messages and cards ever were in it. */
export function standingOf(timeline: ContextTimeline, entry: TranscriptEntry, request: number): ContextStanding | undefined {
	return entry.entry === 'card' || entry.entry === 'user' || entry.entry === 'assistant' ? timeline.standing(entryKey(entry), request) : undefined;
}

/** The view's rows per laid-out rows (the layout caches those per entry revision and width) and the step they were made with. */
const viewRows = new WeakMap<readonly StyledLine[], {readonly step: ContextStep | undefined; readonly rows: readonly StyledLine[]}>();

/** An entry's rows in the view: laid out `GUTTER_WIDTH` narrower, a blank gutter before each, under its step's ledger row. */
export function modelViewRows(entry: TranscriptEntry, timeline: ContextTimeline, options: LayoutOptions, layout: (entry: TranscriptEntry, options: LayoutOptions) => readonly StyledLine[]): readonly StyledLine[] {
	const width = Math.max(1, options.width - GUTTER_WIDTH);
	const laidOut = layout(entry, {...options, width});
	const step = timeline.stepHeadedBy(entryKey(entry));
	const cached = viewRows.get(laidOut);
	if (cached !== undefined && cached.step === step) {
		return cached.rows;
	}

	const rows: StyledLine[] = [];
	if (step !== undefined) {
		rows.push(ledgerRow(step, options.theme, width));
	}

	for (const row of laidOut) {
		rows.push({...row, spans: [span(' '.repeat(GUTTER_WIDTH)), ...row.spans]});
	}

	viewRows.set(laidOut, {step, rows});
	return rows;
}

/** `▸ turn 2 · step 3 sent 14 210 tokens`, or `~14 210` when the figure is the log's estimate. */
export function ledgerRow(step: ContextStep, theme: Theme, width: number): StyledLine {
	const where = [step.turn === undefined ? undefined : `turn ${step.turn}`, step.step === undefined ? undefined : `step ${step.step}`].filter(part => part !== undefined).join(' · ');
	const tokens = `${step.basis === 'estimated' ? '~' : ''}${formatCount(step.sent)} tokens`;
	// One span, gutter included: the gutter marks an entry's rows, and the step's row is not the entry's.
	return {spans: truncateSpans([span(`${' '.repeat(GUTTER_WIDTH)}▸ ${where === '' ? 'model step' : where} sent ${tokens}`, theme.muted)], width + GUTTER_WIDTH)};
}

/** `row` with its gutter marked for `standing` (a row of the view starts with the blank gutter span). */
export function markGutter(row: StyledLine, standing: ContextStanding | undefined, theme: Theme): StyledLine {
	const [first, ...rest] = row.spans;
	if (standing === undefined || first === undefined || first.text !== ' '.repeat(GUTTER_WIDTH)) {
		return row;
	}

	return {...row, spans: [span(GUTTER[standing], theme.muted), ...rest]};
}
