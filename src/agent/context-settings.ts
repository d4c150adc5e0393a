/**
@module The context options of a session's agent from what is known of its model: the window (the
config's per-model figure, else what the server said, else the catalog), compaction (on unless the
config turns it off; its reserve), and the tool results' budget, scaled to the window so that a
small local model is not sent a result larger than its whole context.
*/
import type {ContextOptions} from './agent-loop.js';
import type {CompactionSettings, ContextWindow} from './context-ledger.js';
import {modelLimits} from './model-catalog.js';
import type {ToolResultBudget} from './tool-result-budget.js';
import {DEFAULT_TOOL_SEARCH_SHARE, type ToolSearchSettings} from './tool-search.js';

/** What the person set (the config's `context` section; every field optional). */
export type ContextConfig = {
	/** The window in tokens, for models the catalog does not know or a server set up smaller. */
	readonly window?: number;
	readonly compaction?: boolean;
	/** Tokens (`20000`) or a share of the window (`"15%"`) left free; a compaction runs past the rest. */
	readonly reserve?: number | string;
	readonly resultTokens?: number;
	readonly stepResultTokens?: number;
};

/** A result's and a step's budget without a known window. */
const RESULT_TOKENS = 16_000;
const STEP_TOKENS = 40_000;
/** With a known window, at most these shares of it. */
const RESULT_SHARE = 0.25;
const STEP_SHARE = 0.5;

/** The window of `model`: the config's, the server's (`served`), the catalog's, in that order. */
export function contextWindowOf(model: string, config: ContextConfig = {}, served?: ContextWindow): ContextWindow | undefined {
	if (config.window !== undefined) {
		return {tokens: config.window, source: 'config'};
	}

	if (served !== undefined) {
		return served;
	}

	const limits = modelLimits(model);
	return limits === undefined ? undefined : {tokens: limits.contextWindow, source: 'catalog'};
}

export function contextOptions(window: ContextWindow | undefined, config: ContextConfig = {}): ContextOptions {
	const compaction: CompactionSettings = {enabled: config.compaction ?? true, ...reserveOf(config.reserve)};
	const tokens = window?.tokens;
	const budget: ToolResultBudget = {
		perResultTokens: config.resultTokens ?? (tokens === undefined ? RESULT_TOKENS : Math.min(RESULT_TOKENS, Math.floor(tokens * RESULT_SHARE))),
		perStepTokens: config.stepResultTokens ?? (tokens === undefined ? STEP_TOKENS : Math.min(STEP_TOKENS, Math.floor(tokens * STEP_SHARE))),
	};
	return {...(window === undefined ? {} : {window}), compaction, budget};
}

/** The tool search's setting (`context.toolSearch`): a share (`"10%"`, the default; a value that is none is the default), `true` always, `false` never (`undefined`). */
export function toolSearchSettings(value: unknown): ToolSearchSettings | undefined {
	if (value === false) {
		return undefined;
	}

	if (value === true) {
		return {share: 0};
	}

	const percent = typeof value === 'string' ? /^(\d+(?:\.\d+)?)%$/.exec(value.trim()) : null;
	return {share: percent === null ? DEFAULT_TOOL_SEARCH_SHARE : Number(percent[1]) / 100};
}

function reserveOf(reserve: number | string | undefined): Pick<CompactionSettings, 'reserve'> {
	if (typeof reserve === 'number') {
		return {reserve: {tokens: reserve}};
	}

	const percent = typeof reserve === 'string' ? /^(\d+(?:\.\d+)?)%$/.exec(reserve.trim()) : null;
	return percent === null ? {} : {reserve: {percent: Number(percent[1])}};
}
