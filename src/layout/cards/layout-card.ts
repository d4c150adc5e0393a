/**
@module `layoutCard`: a card as styled rows — its header, then its body folded to the expansion
level. Which view drives the body: the result view when there is one; else, once the card has a
result, the raw result content (error-styled on failure); else the pending call view. Every
dispatch over the closed view unions ends in `assertNever`, so a new card kind fails to compile
here until it has a layout.

Memoized per card revision × width × expansion × theme × session cwd (and, while running, the
elapsed second, so the header ticks at most once a second), in a bounded LRU.
*/
import {assertNever} from '../../presentation/assert-never.js';
import type {Card} from '../../presentation/card.js';
import {readArgumentsText} from '../../tools/call-arguments.js';
import type {ToolCallView, ToolResultView} from '../../tools/views.js';
import {footerOnly, type BodyContext} from './body-text.js';
import type {CardBody} from './card-body.js';
import {elapsedSeconds, layoutHeader} from './card-header.js';
import {layoutDiffBody, layoutDiffFooterBody} from './diff-card.js';
import {foldBody, foldPolicy} from './fold-body.js';
import {layoutGenericCallBody, layoutGenericResultBody} from './generic-card.js';
import {LruCache} from '../text/lru-cache.js';
import type {Expansion, LayoutOptions} from '../text/layout-options.js';
import {layoutReadBody} from './read-card.js';
import {layoutSearchMatchesBody, layoutSearchPathsBody} from './search-card.js';
import {pushAll} from '../text/push-all.js';
import {span, wrapSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import {layoutTerminalBody} from './terminal-card.js';
import type {Theme} from '../text/theme.js';
import {layoutWebFetchBody, layoutWebSearchBody} from './web-card.js';

/** Cached layouts kept at most; the least recently used is evicted first. */
export const LAYOUT_CACHE_LIMIT = 2000;

/** The expansion a card opens at when none is asked for. Failures get a larger row budget, not a different level. */
function defaultExpansion(_card: Card): Expansion {
	return 'bounded';
}

function resultBody(card: Card, view: ToolResultView, context: BodyContext): CardBody {
	switch (view.card) {
		case 'generic': {
			return withArguments(card, layoutGenericResultBody(view.content ?? card.result?.content ?? [], card.result, context), context);
		}

		case 'terminal': {
			// Description and cwd come only from the call view.
			const call = card.callView.card === 'terminal' ? card.callView : undefined;
			return layoutTerminalBody({call, result: view, cancelled: card.outcome === 'cancelled'}, context);
		}

		case 'diff': {
			return diffBody(view.diffs, context);
		}

		case 'search': {
			switch (view.shape) {
				case 'matches': {
					const pattern = typeof card.args === 'object' && card.args !== null ? (card.args as {pattern?: unknown}).pattern : undefined;
					return layoutSearchMatchesBody(view, pattern, context);
				}

				case 'paths': {
					return layoutSearchPathsBody(view, context);
				}

				default: {
					return assertNever(view, 'layoutCard search shape');
				}
			}
		}

		case 'read': {
			return layoutReadBody(view, context);
		}

		case 'web': {
			switch (view.kind) {
				case 'search': {
					return layoutWebSearchBody(view, card.args, context);
				}

				case 'fetch': {
					return layoutWebFetchBody(view, card.result?.content ?? [], context);
				}

				default: {
					return assertNever(view, 'layoutCard web kind');
				}
			}
		}

		default: {
			return assertNever(view, 'layoutCard result view');
		}
	}
}

function diffBody(diffs: Parameters<typeof layoutDiffBody>[0], context: BodyContext, pending = false, notApplied = false): CardBody {
	const ctx = {width: context.width, theme: context.theme, expansion: context.expansion, pending, notApplied, ...(context.keep === undefined ? {} : {budget: context.keep})};
	return footerOnly(context) ? layoutDiffFooterBody(diffs, ctx) : layoutDiffBody(diffs, ctx);
}

function callBody(card: Card, view: ToolCallView, context: BodyContext): CardBody {
	switch (view.card) {
		case 'generic': {
			return layoutGenericCallBody(view, context, card.progress?.text);
		}

		case 'terminal': {
			return layoutTerminalBody({call: view, progress: card.progress}, context);
		}

		case 'diff': {
			// No result yet: while it runs, the diff is what the call will do, not what it did.
			return diffBody(view.diffs, context, card.status === 'running');
		}

		default: {
			return assertNever(view, 'layoutCard call view');
		}
	}
}

/**
A settled card of a tool without a presenter (its call view is the fallback titled by its name)
shows, fully expanded, the arguments it was given before its result: its header only summarises them.
*/
function withArguments(card: Card, body: CardBody, context: BodyContext): CardBody {
	const view = card.callView;
	if (context.expansion !== 'full' || view.card !== 'generic' || view.title !== card.name || view.rawInput === undefined || body.omitted !== undefined) {
		return body;
	}

	const input = layoutGenericCallBody({card: 'generic', title: view.title, rawInput: view.rawInput}, context);
	if (input.lines.length === 0) {
		return body;
	}

	const lines: StyledLine[] = [];
	pushAll(lines, input.lines);
	pushAll(lines, body.lines);
	return {...body, lines};
}

/** Error codes of a call refused for its arguments: the card shows what was sent. */
const ARGUMENT_ERRORS: ReadonlySet<string> = new Set(['INVALID_ARGS', 'INVALID_JSON']);

/**
A card that failed without a result view (an error, cancelled, refused) keeps what it was about
above its error: a command's `$ command` rows (pinned, as while it ran), and for a call refused for
its arguments, the arguments as sent.
*/
function withCallContext(card: Card, body: CardBody, context: BodyContext, argumentsShown: boolean): CardBody {
	let top: readonly StyledLine[] = [];
	let pinned = 0;
	if (card.callView.card === 'terminal' && card.result?.isError === true) {
		const command = layoutTerminalBody({call: card.callView}, context);
		top = command.lines;
		pinned = command.lines.length;
	}

	const code = card.result?.error?.code;
	if (code !== undefined && ARGUMENT_ERRORS.has(code) && card.argsRaw !== '' && !argumentsShown) {
		const sent: StyledLine[] = [{spans: [span('sent:', context.theme.muted)]}];
		pushAll(sent, layoutGenericCallBody({card: 'generic', title: card.name, rawInput: parsedOrRaw(card.argsRaw)}, {...context, keep: undefined}).lines);
		top = [...top, ...sent];
	}

	if (top.length === 0) {
		return body;
	}

	const lines: StyledLine[] = [];
	pushAll(lines, top);
	pushAll(lines, body.lines);
	// Rows put above would shift a body's sections (grep files); a failure's body has none to keep.
	const {sections: _shifted, ...rest} = body;
	return {
		...rest,
		lines,
		// A failure's body pins nothing at its top: only the command rows are pinned.
		pinnedTop: pinned,
		...(body.omitted === undefined ? {} : {omitted: {...body.omitted, at: body.omitted.at + top.length}}),
	};
}

/**
A change refused (or cancelled) before it ran keeps the diff the question showed, marked as not
applied, under its error (the refusal, and the person's words): what was refused stays readable.
Undefined for any other card, or an error too long to stand above a diff.
*/
function refusedChange(card: Card, failure: CardBody, context: BodyContext): CardBody | undefined {
	const view = card.callView;
	if (view.card !== 'diff' || !(card.outcome === 'denied' || card.result?.error?.code === 'ABORTED_BEFORE_DISPATCH') || failure.omitted !== undefined) {
		return undefined;
	}

	const top = failure.lines.length;
	// The diff builds only the rows its fold can show: what is left of the budget below the error.
	const diff = diffBody(view.diffs, {...context, ...(context.keep === undefined ? {} : {keep: Math.max(1, context.keep - top)})}, false, true);
	const summary = failure.summary ?? failure.lines.at(-1);
	return {
		lines: [...failure.lines, ...diff.lines],
		pinnedTop: top + (diff.pinnedTop ?? 0),
		...(diff.pinnedBottom === undefined ? {} : {pinnedBottom: diff.pinnedBottom}),
		...(diff.omitted === undefined ? {} : {omitted: {...diff.omitted, at: diff.omitted.at + top}}),
		...(summary === undefined ? {} : {summary}),
	};
}

/** Arguments as sent: parsed JSON (pretty-printed by the call body), or the raw text when it is not JSON or passes the bounds. */
function parsedOrRaw(raw: string): unknown {
	const read = readArgumentsText(raw);
	return read.ok ? read.value : raw;
}

/** The unfolded body of a card. */
export function layoutCardBody(card: Card, context: BodyContext): CardBody {
	try {
		if (card.resultView !== null) {
			return resultBody(card, card.resultView, context);
		}

		if (card.result !== null) {
			const failure = layoutGenericResultBody(card.result.content, card.result, context);
			const refused = refusedChange(card, failure, context);
			if (refused !== undefined) {
				return refused;
			}

			const withArgs = withArguments(card, failure, context);
			return withCallContext(card, withArgs, context, withArgs !== failure);
		}

		return callBody(card, card.callView, context);
	} catch (error) {
		// A layout bug must not take the transcript down: show the raw content and say what failed.
		const note = wrapSpans([span(`layout failed: ${error instanceof Error ? error.message : String(error)}`, context.theme.warning)], context.width);
		const raw = card.result === null ? {lines: []} : layoutGenericResultBody(card.result.content, card.result, context);
		return {lines: [...note, ...raw.lines], ...(raw.omitted === undefined ? {} : {omitted: {...raw.omitted, at: raw.omitted.at + note.length}})};
	}
}

/** A card laid out without the cache. */
export function layoutCardUncached(card: Card, options: LayoutOptions): StyledLine[] {
	if (options.width <= 0) {
		return [];
	}

	const expansion = options.expansion ?? defaultExpansion(card);
	if (card.queued === true) {
		// A call that waits its turn is its header: what it does is shown when it starts.
		return [layoutHeader(card, options)];
	}

	const policy = foldPolicy(card);
	// A folded layout builds only the rows its fold can show (body-rows.ts).
	const context: BodyContext = {width: options.width, theme: options.theme, expansion, sessionCwd: options.sessionCwd, ...(expansion === 'full' ? {} : {keep: policy.budget}), ...(policy.preferTail ? {summaryFromEnd: true} : {})};
	const header = layoutHeader(card, options);
	const body = layoutCardBody(card, context);
	return [header, ...foldBody(body, expansion, policy, options.width, options.theme), ...childRows(card, {...options, expansion})];
}

/** Below this width sub-call rows are left out: the arrow and a glyph would fill the row. */
const MIN_CHILD_WIDTH = 8;

/**
Code Mode sub-calls, one header row each after the body (`↳ ● read Read a.ts · 3ms`), so a script's
tool calls are visible at a glance. A summary shows none; the pager opens a sub-call as its own card.
*/
function childRows(card: Card, options: LayoutOptions): StyledLine[] {
	if (card.children.length === 0 || options.expansion === 'summary' || options.width < MIN_CHILD_WIDTH) {
		return [];
	}

	const arrow = span('↳ ', options.theme.muted);
	return card.children.map(child => ({spans: [arrow, ...layoutHeader(child, {...options, width: options.width - 2}).spans]}));
}

type CacheEntry = {readonly card: Card; readonly theme: Theme; readonly lines: readonly StyledLine[]};

const cache = new LruCache<string, CacheEntry>(LAYOUT_CACHE_LIMIT);

/** Forget every cached layout (tests, theme switches). */
export function clearLayoutCache(): void {
	cache.clear();
}

/** How many layouts are cached (bounded by `LAYOUT_CACHE_LIMIT`). */
export function layoutCacheSize(): number {
	return cache.size;
}

/**
A card as styled rows: the header row, then the body folded per `options.expansion` (default by
outcome). `width <= 0` gives no rows. Rows are frozen and shared between calls with equal inputs.
*/
export function layoutCard(card: Card, options: LayoutOptions): StyledLine[] {
	if (options.width <= 0) {
		return [];
	}

	const expansion = options.expansion ?? defaultExpansion(card);
	if (options.cache === false) {
		return Object.freeze(layoutCardUncached(card, {...options, expansion})) as StyledLine[];
	}

	const key = [card.callId, card.revision, options.width, expansion, options.theme.name, options.sessionCwd ?? '', elapsedSeconds(card, options.now) ?? '', card.resultTime ?? '', options.spinner === true ? 'spin' : ''].join('\u0000');
	const hit = cache.get(key);
	// The key names the inputs; identity guards against two different cards sharing an id and revision.
	if (hit !== undefined && hit.card === card && hit.theme === options.theme) {
		return hit.lines as StyledLine[];
	}

	const lines = Object.freeze(layoutCardUncached(card, {...options, expansion}));
	cache.set(key, {card, theme: options.theme, lines});
	return lines as StyledLine[];
}
