/**
@module The header row every card starts with: status glyph, tool name, title, then the elapsed
time (running) or run time (settled), the approval's wait apart from it (`· approval 13s`), and
the approval's badge (awaiting it, a grant given with it or before it), or for a call that waits
its turn, `queued`. One row, cut with `…` to the
width, never wrapped; the times and badge survive a long title as long as a few title columns still fit.
*/
import type {Card} from '../../presentation/card.js';
import {assertNever} from '../../presentation/assert-never.js';
import {outcomeGlyphs} from '../../presentation/card-outcome.js';
import {shownToolName} from '../../presentation/tool-name.js';
import {cardTiming} from '../../presentation/card-timing.js';
import {argumentSummary} from './argument-summary.js';
import {formatDuration, formatElapsed} from '../text/format.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span, spansWidth, truncateSpans} from '../text/spans.js';
import {pushAll} from '../text/push-all.js';
import type {Span, StyledLine, Style} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import {displayWidth} from '../text/text-width.js';

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
function cardTitle(card: Card): string {
	const fromResult = card.resultView?.title;
	if (fromResult !== undefined && fromResult !== '') {
		return fromResult;
	}

	return card.callView.title === '' ? card.name : card.callView.title;
}

/** Whole seconds a running card has been running (or waiting for its approval) at `now`, or undefined without a call time. */
export function elapsedSeconds(card: Card, now: number): number | undefined {
	const {runStart} = cardTiming(card);
	if (card.status !== 'running' || runStart === null) {
		return undefined;
	}

	return Math.max(0, Math.floor((now - runStart) / 1000));
}

/** The header's times and approval badge, after the title: each part its own span pair. */
function tailParts(card: Card, now: number, theme: Theme): Span[] {
	const parts: Array<[string, Style]> = [];
	const seconds = elapsedSeconds(card, now);
	const timing = cardTiming(card);
	if (seconds !== undefined) {
		parts.push([formatElapsed(seconds * 1000), theme.muted]);
	} else if (timing.runMs !== null) {
		parts.push([formatDuration(timing.runMs), theme.muted]);
	}

	const {approval} = card;
	if (approval?.state === 'asked') {
		parts.push(['awaiting approval', theme.warning]);
	} else if (approval?.state === 'decided') {
		const grant = grantWords(approval.outcome);
		if (approval.standing === true) {
			parts.push([grant === undefined ? 'allowed before' : `${grant} grant`, theme.muted]);
		} else if (timing.waitMs !== undefined) {
			parts.push([`approval ${formatDuration(timing.waitMs)}${grant === undefined ? '' : ` (${grant})`}`, theme.muted]);
		}
	}

	// A loop, not flatMap: every card's header runs this, and flatMap's array per part showed in profiles.
	const spans: Span[] = [];
	for (const [text, style] of parts) {
		spans.push(span(' · ', theme.muted), span(text, style));
	}

	return spans;
}

/** What a recorded approval outcome granted beyond the call, in a word or two. */
function grantWords(outcome: string): string | undefined {
	switch (outcome) {
		case 'allowed-session': {
			return 'session';
		}

		case 'allowed-always': {
			return 'always';
		}

		default: {
			return undefined;
		}
	}
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
	const recorded = sanitizeInline(card.name);
	const name = sanitizeInline(shownToolName(card.name));
	// A tool without a presenter is titled by its name (contract.md §E1.5): say what it was given instead.
	const composed = sanitizeInline(cardTitle(card));
	const title = composed === recorded && card.callView.card === 'generic' ? argumentSummary(card.args) : displayTitle(composed === recorded ? name : composed, name);
	const lead: Span[] = name === '' ? [span(glyph, style)] : [span(glyph, style), span(' '), span(name, theme.toolName)];

	const tail = tailParts(card, options.now, theme);

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
