/**
@module The ledger of the model's window: how large it is, how full the next request would be, and
when to compact. The window comes from the config (per model), else the server's own word (a local
server's model list), else the catalog (`model-catalog.ts`). Tokens are the provider's: each
answer's reported `inputTokens` is what the request it answered cost, and between reports the
character estimate (`token-estimate.ts`) is scaled by the ratio the last report showed, so the
meter is right after every step and close in between (a result just taken in, a compaction).
*/
import {estimateTokens} from './token-estimate.js';
import type {SurfaceItem} from './conversation.js';
import type {ToolSchema} from '../tools/types.js';

/** The model's window and where cardterm learned it. */
export type ContextWindow = {
	readonly tokens: number;
	/** `config`, `server` (the endpoint's model list), `catalog`. */
	readonly source: string;
	/** What to tell the person about it (Ollama's small default). */
	readonly warning?: string;
};

/** When to compact: at the window less `reserve` (tokens, or a share of the window), unless `enabled` is false. */
export type CompactionSettings = {
	readonly enabled: boolean;
	readonly reserve?: {readonly tokens: number} | {readonly percent: number};
};

/** The default reserve: a fifth of the window (room for the answer and the next results), at most 40k tokens. */
const DEFAULT_RESERVE_SHARE = 0.2;
const DEFAULT_RESERVE_MAX = 40_000;
/** The ratio of reported to estimated tokens is trusted within these bounds (a report of 0 says nothing). */
const RATIO_BOUNDS = [0.5, 3] as const;

/** One part of the next request and its tokens, for `/context`. */
export type ContextPart = {readonly label: string; readonly tokens: number};

/** How full the window is, as the meter and `/context` show it. */
export type ContextUse = {
	readonly used: number;
	readonly window?: number;
	/** Where the window figure comes from, and a warning about it. */
	readonly windowSource?: string;
	readonly warning?: string;
	/** The tokens at which a compaction runs (absent: no window known, or compaction off). */
	readonly threshold?: number;
	/** `reported` when `used` is the provider's count for the last request and nothing changed since. */
	readonly basis: 'reported' | 'estimated';
};

/** What the next request holds, estimated: the system prompt, the tools' schemas, the messages. */
export type RequestParts = {
	readonly system: string;
	readonly tools: readonly ToolSchema[];
	readonly surface: ReadonlyArray<{readonly seq: number; readonly value: SurfaceItem}>;
};

export class ContextLedger {
	#window: ContextWindow | undefined;
	readonly #settings: CompactionSettings;
	#ratio = 1;
	/** The raw estimate of the last request and what the provider said it cost. */
	#last: {readonly estimate: number; readonly reported: number} | undefined;
	#toolsCache: {readonly tools: readonly ToolSchema[]; readonly tokens: number} | undefined;

	constructor(window: ContextWindow | undefined, settings: CompactionSettings = {enabled: true}) {
		this.#window = window;
		this.#settings = settings;
	}

	get window(): ContextWindow | undefined {
		return this.#window;
	}

	/** The window learned later (a local server's answer) or of another model (`/model`). */
	set window(window: ContextWindow | undefined) {
		this.#window = window;
	}

	get settings(): CompactionSettings {
		return this.#settings;
	}

	/** The tokens at which a compaction runs before a request; `undefined` when none can (no window, or off). */
	get threshold(): number | undefined {
		const window = this.#window?.tokens;
		if (window === undefined || !this.#settings.enabled) {
			return undefined;
		}

		return window - reserveOf(window, this.#settings.reserve);
	}

	/** The raw estimate of a request, by parts. */
	parts(request: RequestParts): ContextPart[] {
		let messages = 0;
		let results = 0;
		let summaries = 0;
		for (const {value} of request.surface) {
			if (value.result !== undefined) {
				results += value.tokens;
			} else if (value.checkpoint === true) {
				summaries += value.tokens;
			} else {
				messages += value.tokens;
			}
		}

		return [
			{label: 'system prompt and instructions', tokens: estimateTokens(request.system)},
			{label: 'tool schemas', tokens: this.#toolTokens(request.tools)},
			{label: 'messages', tokens: messages},
			{label: 'compaction summaries', tokens: summaries},
			{label: 'tool results', tokens: results},
		];
	}

	/** The next request's tokens: the raw estimate scaled by what the provider reported last. */
	estimate(request: RequestParts): number {
		return this.scaled(this.raw(request));
	}

	raw(request: RequestParts): number {
		let total = 0;
		for (const part of this.parts(request)) {
			total += part.tokens;
		}

		return total;
	}

	scaled(raw: number): number {
		return Math.round(raw * this.#ratio);
	}

	/** A request estimated at `estimate` (raw) was reported to cost `inputTokens`: learn the ratio. */
	reported(estimate: number, inputTokens: number): void {
		if (inputTokens <= 0 || estimate <= 0) {
			return;
		}

		this.#last = {estimate, reported: inputTokens};
		this.#ratio = Math.min(RATIO_BOUNDS[1], Math.max(RATIO_BOUNDS[0], inputTokens / estimate));
	}

	/** How full the window is for `request`. */
	use(request: RequestParts): ContextUse {
		const raw = this.raw(request);
		const reported = this.#last !== undefined && this.#last.estimate === raw;
		const threshold = this.threshold;
		return {
			used: reported ? this.#last!.reported : this.scaled(raw),
			basis: reported ? 'reported' : 'estimated',
			...(this.#window === undefined ? {} : {window: this.#window.tokens, windowSource: this.#window.source}),
			...(this.#window?.warning === undefined ? {} : {warning: this.#window.warning}),
			...(threshold === undefined ? {} : {threshold}),
		};
	}

	#toolTokens(tools: readonly ToolSchema[]): number {
		if (this.#toolsCache?.tools !== tools) {
			this.#toolsCache = {tools, tokens: estimateTokens(JSON.stringify(tools))};
		}

		return this.#toolsCache.tokens;
	}
}

function reserveOf(window: number, reserve: CompactionSettings['reserve']): number {
	if (reserve === undefined) {
		return Math.min(DEFAULT_RESERVE_MAX, Math.round(window * DEFAULT_RESERVE_SHARE));
	}

	const tokens = 'tokens' in reserve ? reserve.tokens : Math.round(window * reserve.percent / 100);
	// A reserve as large as the window would compact before every request: at most nine tenths of it.
	return Math.min(Math.round(window * 0.9), Math.max(0, tokens));
}

/** `42% · 54k/128k`, the meter's text; `54k` alone when the window is unknown. */
export function meterText(used: number, window: number | undefined): string {
	if (window === undefined || window <= 0) {
		return `${compactCount(used)} tokens`;
	}

	return `${Math.round(used / window * 100)}% · ${compactCount(used)}/${compactCount(window)}`;
}

/** `54k`, `1.2M`, `950`. */
export function compactCount(tokens: number): string {
	if (tokens >= 999_500) {
		return `${(tokens / 1_000_000).toFixed(tokens >= 10_000_000 ? 0 : 1).replace(/\.0$/, '')}M`;
	}

	return tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}
