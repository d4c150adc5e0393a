/**
@module `renderCardFrame`: a tool author's whole card test. The tool's own presenters turn the
arguments (and the result) into a card exactly as the fold does for live and replayed calls, the
card is laid out at the width, and the rows are written in the frame format (text and style runs).
*/
import {layoutCard} from '../layout/cards/layout-card.js';
import type {Expansion} from '../layout/text/layout-options.js';
import {colorTheme, monochromeTheme} from '../layout/text/theme.js';
import type {Card, CardStatus} from '../presentation/card.js';
import {cardResult, interruptCard, pendingCard, settleCard} from '../presentation/compose-card.js';
import type {ContentBlock} from '../tools/content.js';
import type {ToolDefinition, ToolErrorInfo} from '../tools/types.js';
import {serializeFrame} from './serialize-frame.js';

/** The result a card completes with: what `ToolRegistry.execute` resolved with, or just its content. */
export type FrameResult = {
	readonly content: readonly ContentBlock[];
	/** Default false. */
	readonly isError?: boolean;
	readonly meta?: unknown;
	/** A classed failure: `{name, code}` itself, or an execution failure's `error` holding it as `info`. */
	readonly error?: ToolErrorInfo | {readonly message?: string; readonly info?: ToolErrorInfo};
};

/** What to draw. */
export type RenderCardFrameOptions = {
	/** The call's arguments, as the model sent them (serialized with `JSON.stringify`). */
	readonly args: unknown;
	/** The completed call. Absent: the pending card. */
	readonly result?: FrameResult;
	/** Terminal columns. */
	readonly width: number;
	/** Colour theme; off draws with the monochrome theme (attributes only), as under `NO_COLOR`. Default true. */
	readonly color?: boolean;
	/**
	The expected state, checked against the card: omit it to take the state the result gives. Without
	a result only `running` (default) and `interrupted` are possible.
	*/
	readonly status?: CardStatus;
	/** Epoch ms of the frame; the call happens at 0. Default 0. */
	readonly now?: number;
	/** Milliseconds from call to result on a settled card. Default 0. */
	readonly durationMs?: number;
	/** Default: by outcome. */
	readonly expansion?: Expansion;
	/** The session workspace, to show paths and a terminal cwd relative to it. */
	readonly sessionCwd?: string;
};

function errorInfo(error: FrameResult['error']): ToolErrorInfo | undefined {
	if (error === undefined) {
		return undefined;
	}

	if ('code' in error && 'name' in error) {
		return {name: error.name, code: error.code};
	}

	return 'info' in error ? error.info : undefined;
}

/** The card the fold would build for this call of `tool`. */
export function cardForTool(tool: ToolDefinition, options: Pick<RenderCardFrameOptions, 'args' | 'result' | 'status' | 'durationMs'>): Card {
	const pending = pendingCard({callId: 'call-1', name: tool.name, argsRaw: JSON.stringify(options.args) ?? '', seq: 0, time: 0}, tool);
	const {result, status} = options;
	if (result === undefined) {
		if (status === undefined || status === 'running') {
			return pending;
		}

		if (status === 'interrupted') {
			return interruptCard(pending);
		}

		throw new TypeError(`renderCardFrame(${tool.name}): status "${status}" needs a result`);
	}

	const settled = settleCard(pending, cardResult(result.content, result.isError ?? false, errorInfo(result.error), result.meta), options.durationMs ?? 0, tool);
	if (status !== undefined && status !== settled.status) {
		throw new TypeError(`renderCardFrame(${tool.name}): the result settles the card as "${settled.status}", not "${status}"`);
	}

	return settled;
}

/**
A card of `tool` as a frame: a header line naming the tool, state, width and colour mode, then one
row per line with its style runs. Compare it with `toMatchSnapshot()` or `toMatchFileSnapshot()`.
*/
export function renderCardFrame(tool: ToolDefinition, options: RenderCardFrameOptions): string {
	const card = cardForTool(tool, options);
	const color = options.color ?? true;
	const lines = layoutCard(card, {
		width: options.width,
		theme: color ? colorTheme : monochromeTheme,
		now: options.now ?? 0,
		...(options.expansion === undefined ? {} : {expansion: options.expansion}),
		...(options.sessionCwd === undefined ? {} : {sessionCwd: options.sessionCwd}),
	});
	return serializeFrame(lines, `# ${tool.name} · ${card.status} · width ${options.width} · ${color ? 'colour' : 'plain'}`);
}
