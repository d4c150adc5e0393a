/**
@module Folding a card body to an expansion level. Rows are counted after wrapping, so the
`… N lines hidden (of M)` marker is exact on the first frame. Both ends survive a fold: the pinned
rows (a `$ command`, an `[exit N]` or `+A −R` footer) and a head and a tail of the rest. This marker
speaks for the UI only; a tool's own truncation is worded differently by each card.
*/
import type {Card} from '../presentation/card.js';
import {isNotOk} from '../presentation/card-outcome.js';
import type {CardBody} from './card-body.js';
import {formatCount, plural} from './format.js';
import type {Expansion} from './layout-options.js';
import {span, truncateSpans} from './spans.js';
import type {StyledLine} from './styled-line.js';
import type {Theme} from './theme.js';
import {pushAll} from './push-all.js';

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

/** Rows `from` to `to` (exclusive) of the whole body. */
function rowsBetween(body: CardBody, from: number, to: number): StyledLine[] {
	const rows: StyledLine[] = [];
	for (let index = from; index < to; index++) {
		rows.push(rowAt(body, index));
	}

	return rows;
}

/** The fold marker row, muted and cut to the width. */
export function foldMarker(hidden: number, total: number, width: number, theme: Theme): StyledLine {
	const text = `… ${plural(hidden, 'line')} hidden (of ${formatCount(total)})`;
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
	const tail = room - head;
	const hidden = total - top - bottom - head - tail;

	const out: StyledLine[] = rowsBetween(body, 0, top + head);
	out.push(foldMarker(hidden, total, width, theme));
	const after = rowsBetween(body, total - bottom - tail, total);
	// The first row after the marker no longer continues the row above it.
	if (after.length > 0) {
		after[0] = withoutSoftWrap(after[0]!);
	}

	pushAll(out, after);
	return out;
}
