/**
@module Folding a card body to an expansion level. The fold budget is in rows (after wrapping); the
`… N lines hidden (of M)` marker counts logical lines — rows that are not soft-wrap continuations —
of the body without its pinned rows (the `$ command`, the `[exit N]` footer), so `seq 1 5000` says
`of 5,000` at any width. Both ends survive a fold: the pinned
rows (a `$ command`, an `[exit N]` or `+A −R` footer) and a head and a tail of the rest. This marker
speaks for the UI only; a tool's own truncation is worded differently by each card.
*/
import type {Card} from '../../presentation/card.js';
import {isNotOk} from '../../presentation/card-outcome.js';
import type {CardBody} from './card-body.js';
import {formatCount, plural} from '../text/format.js';
import type {Expansion} from '../text/layout-options.js';
import {span, truncateSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import {pushAll} from '../text/push-all.js';

/** Rows a `bounded` body of a successful or running card shows, marker included. */
export const OK_ROW_BUDGET = 12;

/** Rows a `bounded` body of a failed, cancelled or interrupted card shows: failures open further. */
export const FAILURE_ROW_BUDGET = 24;

/** How a body folds: its row budget and whether the tail matters more than the head. */
export type FoldPolicy = {
	readonly budget: number;
	/** Failures keep twice as many tail rows as head rows: errors are printed last. */
	readonly preferTail: boolean;
};

/** The fold policy for a card's outcome. */
export function foldPolicy(card: Card): FoldPolicy {
	return isNotOk(card.outcome) ? {budget: FAILURE_ROW_BUDGET, preferTail: true} : {budget: OK_ROW_BUDGET, preferTail: false};
}

function withoutSoftWrap(line: StyledLine): StyledLine {
	return line.softWrap ? {spans: line.spans} : line;
}

/**
The one row a `summary` shows: the footer when the body pins one (`[exit 1]`, `+3 −1 · 1 file`,
`2 matches in 1 file`), else for a failure the last row, else the first row after the pinned head.
*/
function summaryRow(body: CardBody, policy: FoldPolicy): StyledLine | undefined {
	if (body.summary !== undefined) {
		return body.summary;
	}

	const total = rowCount(body);
	if (total === 0) {
		return undefined;
	}

	const top = body.pinnedTop ?? 0;
	if ((body.pinnedBottom ?? 0) > 0 || policy.preferTail) {
		return withoutSoftWrap(body.lines.at(-1)!);
	}

	return withoutSoftWrap(rowAt(body, Math.min(top, total - 1)));
}

/** Every row of the body, the ones it did not build included. */
function rowCount(body: CardBody): number {
	return body.lines.length + (body.omitted?.count ?? 0);
}

/** Row `index` of the whole body; a fold asks only for rows the body kept. */
function rowAt(body: CardBody, index: number): StyledLine {
	const {omitted} = body;
	if (omitted === undefined || index < omitted.at) {
		return body.lines[index]!;
	}

	if (index < omitted.at + omitted.count) {
		throw new Error(`fold asked for row ${index}, which the body did not keep`);
	}

	return body.lines[index - omitted.count]!;
}

/** Logical lines begun by rows `from` to `to` (exclusive) of the whole body, omitted rows included. */
function linesBetween(body: CardBody, from: number, to: number): number {
	const {omitted} = body;
	let count = 0;
	for (let index = from; index < to; index++) {
		if (omitted !== undefined && index === omitted.at) {
			count += omitted.starts;
			index += omitted.count - 1;
			continue;
		}

		if (rowAt(body, index).softWrap !== true) {
			count++;
		}
	}

	return count;
}

/** Index in `body.lines` of row `index` of the whole body (a row the body kept). */
function keptIndex(body: CardBody, index: number): number {
	const {omitted} = body;
	return omitted === undefined || index < omitted.at ? index : index - omitted.count;
}

/**
How the tail starts when its first rows belong to a section (a grep card's file) whose header the fold
hides: the header is repeated after the marker, in rows taken from the tail; when those rows would
leave none of the section to show, the tail starts at the next section's header instead. Either
way no row reads as belonging to the section above the marker.
*/
function tailStart(body: CardBody, hiddenFrom: number, tailFrom: number, tail: number): {readonly header: readonly StyledLine[]; readonly tail: number} {
	const section = body.sections?.[keptIndex(body, tailFrom)];
	if (section === undefined || section.at < hiddenFrom || section.at + section.header.length > tailFrom) {
		return {header: [], tail};
	}

	const after = tailFrom + section.header.length;
	const next = body.sections?.[keptIndex(body, after)];
	if (section.header.length < tail && next === section) {
		// The repeated header is not a continuation of the marker row above it.
		return {header: section.header.map((row, index) => (index === 0 ? withoutSoftWrap(row) : row)), tail: tail - section.header.length};
	}

	return next !== undefined && next !== section && next.at > tailFrom ? {header: [], tail: tail - (next.at - tailFrom)} : {header: [], tail};
}

/** Rows `from` to `to` (exclusive) of the whole body. */
function rowsBetween(body: CardBody, from: number, to: number): StyledLine[] {
	const rows: StyledLine[] = [];
	for (let index = from; index < to; index++) {
		rows.push(rowAt(body, index));
	}

	return rows;
}

/**
The fold marker row, muted and cut to the width. When the hidden rows begin no line (the middle of
one long wrapped line) it says rows, since "0 lines hidden" would be false.
*/
export function foldMarker(hidden: {readonly lines: number; readonly rows: number}, totalLines: number, width: number, theme: Theme): StyledLine {
	const text = hidden.lines === 0 ? `… ${plural(hidden.rows, 'wrapped row')} hidden` : `… ${plural(hidden.lines, 'line')} hidden (of ${formatCount(totalLines)})`;
	return {spans: truncateSpans([span(text, theme.muted)], width)};
}

/** The rows of `body` shown at `expansion`. */
export function foldBody(body: CardBody, expansion: Expansion, policy: FoldPolicy, width: number, theme: Theme): StyledLine[] {
	const {lines} = body;
	if (expansion === 'full' && body.omitted === undefined) {
		return [...lines];
	}

	if (expansion === 'summary') {
		const row = summaryRow(body, policy);
		return row === undefined ? [] : [row];
	}

	const total = rowCount(body);
	if (total <= policy.budget && body.omitted === undefined) {
		return [...lines];
	}

	let top = Math.max(0, body.pinnedTop ?? 0);
	let bottom = Math.max(0, body.pinnedBottom ?? 0);
	// Pinned rows that leave no room for a head, a marker and a tail fold like any other rows.
	if (top + bottom + 3 > policy.budget) {
		top = 0;
		bottom = 0;
	}

	const room = policy.budget - top - bottom - 1;
	const head = policy.preferTail ? Math.floor(room / 3) : Math.ceil(room / 2);
	const start = tailStart(body, top + head, total - bottom - (room - head), room - head);
	const {header: repeated, tail} = start;
	const hidden = {lines: linesBetween(body, top + head, total - bottom - tail), rows: total - top - bottom - head - tail};
	const allLines = linesBetween(body, top, total - bottom);

	const out: StyledLine[] = rowsBetween(body, 0, top + head);
	out.push(foldMarker(hidden, allLines, width, theme));
	pushAll(out, repeated);
	const after = rowsBetween(body, total - bottom - tail, total);
	// The first row after the marker no longer continues the row above it.
	if (after.length > 0) {
		after[0] = withoutSoftWrap(after[0]!);
	}

	pushAll(out, after);
	return out;
}
