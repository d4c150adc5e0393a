/**
@module The header row every card starts with: status glyph, tool name, title, then the elapsed
time (running) or duration (settled) and an approval badge, or for a call that waits its turn,
`queued`. One row, cut with `…` to the width,
never wrapped; the time and badge survive a long title as long as a few title columns still fit.
*/
import type {Card} from '../presentation/card.js';
import {assertNever} from '../presentation/assert-never.js';
import {outcomeGlyphs} from '../presentation/card-outcome.js';
import {argumentSummary} from './argument-summary.js';
import {formatDuration, formatElapsed} from './format.js';
import type {LayoutOptions} from './layout-options.js';
import {sanitizeInline} from './sanitize.js';
import {span, spansWidth, truncateSpans} from './spans.js';
import {pushAll} from './push-all.js';
import type {Span, StyledLine, Style} from './styled-line.js';
import type {Theme} from './theme.js';
import {displayWidth} from './text-width.js';

/** Below this many title columns the time and badge give way to the title. */
const MIN_TITLE_COLUMNS = 12;

/** The glyph and its theme role for a card's outcome (`card-outcome.ts`): failed, error and denied are drawn as failures. */
export function statusGlyph(card: Card, theme: Theme): {readonly glyph: string; readonly style: Style} {
	const glyph = outcomeGlyphs[card.outcome];
	switch (card.outcome) {
		case 'pending':
		case 'running': {
			return {glyph, style: theme.running};
		}

		case 'ok': {
			return {glyph, style: theme.ok};
		}

		case 'failed':
		case 'error':
		case 'denied': {
			return {glyph, style: theme.error};
		}

		case 'cancelled': {
			return {glyph, style: theme.cancelled};
		}

		case 'interrupted': {
			return {glyph, style: theme.interrupted};
		}

		default: {
			return assertNever(card.outcome, 'card header outcome');
		}
	}
}

/**
A title as the header shows it after the tool's name: without the name again (`read Read README.md`
→ `read README.md`), and a presenter's line window (`(1 - 5)`, the contract's call title) in the one
range style cards use (`lines 1–5`, as the read body's `lines 1–5 of 62`).
*/
export function displayTitle(title: string, name: string): string {
	let shown = title;
	if (shown.length > name.length + 1 && shown.slice(0, name.length).toLowerCase() === name.toLowerCase() && shown[name.length] === ' ') {
		shown = shown.slice(name.length + 1);
	}

	// Both windows end the title with `)`.
	if (!shown.endsWith(')')) {
		return shown;
	}

	return shown
		.replace(/ \((\d+) - (\d+)\)$/, (_match, first: string, last: string) => (first === last ? ` · line ${first}` : ` · lines ${first}–${last}`))
		.replace(/ \(from line (\d+)\)$/, ' · from line $1');
}

/** The composed title: result view title, else call view title, else the tool name. */
export function cardTitle(card: Card): string {
	const fromResult = card.resultView?.title;
	if (fromResult !== undefined && fromResult !== '') {
		return fromResult;
	}

	return card.callView.title === '' ? card.name : card.callView.title;
}

/** Whole seconds a running card has been running at `now`, or undefined without a call time. */
export function elapsedSeconds(card: Card, now: number): number | undefined {
	if (card.status !== 'running' || card.callTime === null) {
		return undefined;
	}

	return Math.max(0, Math.floor((now - card.callTime) / 1000));
}

function timeLabel(card: Card, now: number): string | undefined {
	const seconds = elapsedSeconds(card, now);
	if (seconds !== undefined) {
		return formatElapsed(seconds * 1000);
	}

	if (card.callTime !== null && card.resultTime !== null) {
		return formatDuration(card.resultTime - card.callTime);
	}

	return undefined;
}

/** A running card's spinner, one frame per elapsed second: the quarters of the running `○`. */
export const SPINNER_FRAMES: readonly string[] = ['◐', '◓', '◑', '◒'];

/** The header row of a card at `options.width` (≥ 1). */
export function layoutHeader(card: Card, options: LayoutOptions): StyledLine {
	const {theme, width} = options;
	const status = statusGlyph(card, theme);
	const seconds = options.spinner === true ? elapsedSeconds(card, options.now) : undefined;
	const glyph = seconds === undefined ? status.glyph : SPINNER_FRAMES[seconds % SPINNER_FRAMES.length]!;
	const {style} = status;
	const name = sanitizeInline(card.name);
	// A tool without a presenter is titled by its name (presentation-events.md §1.5): say what it was given instead.
	const composed = sanitizeInline(cardTitle(card));
	const title = composed === name && card.callView.card === 'generic' ? argumentSummary(card.args) : displayTitle(composed, name);
	const lead: Span[] = [span(glyph, style), span(' '), span(name, theme.toolName)];

	const tail: Span[] = [];
	const time = timeLabel(card, options.now);
	if (time !== undefined) {
		tail.push(span(' · ', theme.muted), span(time, theme.muted));
	}

	if (card.approval?.state === 'asked') {
		tail.push(span(' · ', theme.muted), span('awaiting approval', theme.warning));
	}

	if (card.queued === true) {
		tail.push(span(' · ', theme.muted), span('queued: runs after the calls before it', theme.muted));
	}

	const showTitle = title !== '' && title !== name;
	const titleWidth = showTitle ? displayWidth(title) : 0;
	const leadWidth = spansWidth(lead);
	let room = width - leadWidth - spansWidth(tail) - (showTitle ? 1 : 0);
	let suffix = tail;
	if (showTitle && room < Math.min(titleWidth, MIN_TITLE_COLUMNS)) {
		suffix = [];
		room = width - leadWidth - 1;
	}

	const spans = [...lead];
	if (showTitle && room > 0) {
		spans.push(span(' '));
		pushAll(spans, truncateSpans([span(title, theme.title)], room));
	}

	pushAll(spans, suffix);
	return {spans: truncateSpans(spans, width)};
}
