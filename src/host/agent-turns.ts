/**
@module A session's agent as its live screen drives it: what the status line and `/model` say about
the model, switching or connecting one, and running one turn; or why there is no model.
*/
import type {AgentLoop} from '../agent/agent-loop.js';
import type {CompactionOutcome} from '../agent/compactor.js';
import {compactCount, meterText, type ContextPart, type ContextUse, type ContextWindow} from '../agent/context-ledger.js';
import {toolSearchText, type ToolSearchState} from '../agent/tool-search.js';
import type {ModelClient} from '../agent/model-types.js';
import type {ToolResultBudget} from '../agent/tool-result-budget.js';
import type {ImageAttachment} from '../tools/content.js';
import {PROVIDER_NAMES} from '../agent/model-client.js';
import type {UserPrompt} from '../session/events/user-prompt.js';
import type {Instructions} from './instruction-files.js';

export type AgentTurns = {
	/** `provider:model`, or undefined when no model is connected. */
	readonly model: string | undefined;
	/** What the status line says: the model's name, or how to connect one. */
	readonly status: string;
	/** What `/model` prints. */
	describe(): string;
	/** `/model SPEC`: use another model from the next step on; what to say about it. */
	switchTo(spec: string): {readonly ok: boolean; readonly message: string};
	/** Run one turn for the person's message (with what its `@` references attached) and images; resolves when the turn has ended (its end is in the log). */
	run(prompt: string | UserPrompt, signal: AbortSignal, images?: readonly ImageAttachment[]): Promise<void>;
	/** The meter: how full the model's window is (`42% · 54k/128k`), when a model is connected. */
	meter?(): string | undefined;
	/** What `/context` prints. */
	contextReport?(): string;
	/** Whether the MCP tools' schemas are deferred to the tool search, and what that saves (`/mcp`); `undefined` without MCP tools or a model. */
	toolSearch?(): string | undefined;
	/** `/compact [FOCUS]`: what to say of it. */
	compact?(focus: string | undefined, signal: AbortSignal): Promise<{readonly ok: boolean; readonly message: string}>;
	/** The instruction files the agent's system prompt holds (`/instructions`); `undefined` before an agent exists or when `--system-prompt` replaced them. */
	instructions?(): Instructions | undefined;
};

/** What the agent loop tells of its window (an `AgentLoop`; a loop still starting has none of it). */
type ContextRunner = {
	/** The window the ledger uses from now on (`/model`: the other model's). */
	contextWindow?: ContextWindow | undefined;
	/** What tool results may send from now on (the other model's window's budget). */
	resultBudget?: ToolResultBudget | undefined;
	contextUse?(): ContextUse;
	contextParts?(): {readonly parts: readonly ContextPart[]; readonly largest: ReadonlyArray<{readonly seq: number; readonly tokens: number; readonly label: string}>};
	compact?(options: {readonly signal: AbortSignal; readonly focus?: string}): Promise<CompactionOutcome>;
	toolSearch?(): ToolSearchState | undefined;
};

/** A warning about the model's window (Ollama's small default), on a line of its own; '' when none. */
function windowWarning(loop: ContextRunner): string {
	const warning = loop.contextUse?.().warning;
	return warning === undefined ? '' : `\n${warning}`;
}

/** The meter's text for a loop's window use. */
function meterOf(loop: ContextRunner): string | undefined {
	const use = loop.contextUse?.();
	return use === undefined ? undefined : meterText(use.used, use.window);
}

/** `/context`: the window, where its figure comes from, the parts of the next request, its largest messages. */
function contextReportOf(loop: ContextRunner): string {
	const use = loop.contextUse?.();
	const parts = loop.contextParts?.();
	if (use === undefined || parts === undefined) {
		return 'context: no model is connected';
	}

	const lines = [`context: ${meterText(use.used, use.window)} (${use.basis === 'reported' ? 'as the provider counted the last request' : 'estimated: the provider\'s last count, scaled, plus what came since'})`];
	lines.push(use.window === undefined ? '  window: unknown (set context.windows in the config); no automatic compaction' : `  window: ${compactCount(use.window)} tokens (from the ${use.windowSource})${use.threshold === undefined ? '; compaction is off' : `; compacts past ${compactCount(use.threshold)}`}`);
	if (use.warning !== undefined) {
		lines.push(`  ${use.warning}`);
	}

	for (const part of parts.parts) {
		lines.push(`  ${part.label.padEnd(32)} ${compactCount(part.tokens).padStart(6)}`);
	}

	const search = searchTextOf(loop);
	if (search !== undefined) {
		lines.push(`  ${search}`);
	}

	if (parts.largest.length > 0) {
		lines.push('  largest messages (by log seq; /#SEQ in the pager, Ctrl+O, goes to one):');
		for (const item of parts.largest) {
			lines.push(`    #${item.seq} ${item.label} · ${compactCount(item.tokens)}`);
		}
	}

	return lines.join('\n');
}

function searchTextOf(loop: ContextRunner): string | undefined {
	const state = loop.toolSearch?.();
	return state === undefined ? undefined : toolSearchText(state);
}

async function compactWith(loop: ContextRunner, focus: string | undefined, signal: AbortSignal): Promise<{readonly ok: boolean; readonly message: string}> {
	if (loop.compact === undefined) {
		return {ok: false, message: '/compact: no model is connected'};
	}

	const outcome = await loop.compact({signal, ...(focus === undefined ? {} : {focus})});
	return outcome.kind === 'refused'
		? {ok: false, message: `/compact: ${outcome.reason}`}
		: {ok: true, message: `compacted: ${compactCount(outcome.before)} → ${compactCount(outcome.after)} tokens${outcome.summarised ? '' : ' (pruned only)'}${outcome.note === undefined ? '' : `; ${outcome.note}`}`};
}

/** A model's name as a person reads it: `provider:model`, and the server's host when it is not the provider's own. */
export function modelLabel(model: ModelClient): string {
	const host = model.endpoint === undefined ? '' : hostOf(model.endpoint);
	return `${model.provider}:${model.model}${host === '' ? '' : ` via ${host}`}`;
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return '';
	}
}

/** What runs a session's turns: the agent loop (or one still starting), with the model it uses. */
export type TurnRunner = ContextRunner & {model: ModelClient; runTurn(prompt: string | UserPrompt, options: {readonly signal: AbortSignal; readonly images?: readonly ImageAttachment[]}): Promise<unknown>};

/**
The window of a model as the session resolves it (`modelWindow`): known `now` (the config's, the
catalog's), or `served` by a self-hosted server; with the tool results' budget for a window.
*/
export type WindowResolver = {
	readonly window: (model: ModelClient) => {readonly now: ContextWindow | undefined; readonly served?: Promise<ContextWindow | undefined>};
	readonly budget: (model: ModelClient, window: ContextWindow | undefined) => ToolResultBudget | undefined;
};

/**
Turns with a connected model. `resolve` makes a model client of a `/model SPEC` (the session's
environment and base URL); a spec that cannot be used leaves the current model in place. `windowOf`
re-reads the window of the model `/model` chose (the next turn and `/compact` wait for it).
*/
export function modelTurns(loop: TurnRunner, from: string, resolve: (spec: string) => ModelClient, instructions?: () => Instructions | undefined, windowOf?: WindowResolver): AgentTurns {
	let label = modelLabel(loop.model);
	let source = from;
	let windowRead: Promise<void> = Promise.resolve();
	return {
		get model() {
			return label;
		},
		get status() {
			return label;
		},
		// What is known of its window that a person must act on (Ollama's small default) is said with it.
		describe: () => `model: ${label} (from ${source}); /model PROVIDER:MODEL switches for the next message${windowWarning(loop)}`,
		switchTo(spec) {
			try {
				loop.model = resolve(spec);
			} catch (error) {
				return {ok: false, message: `/model: ${error instanceof Error ? error.message : String(error)}; still ${label}`};
			}

			label = modelLabel(loop.model);
			source = '/model';
			if (windowOf !== undefined) {
				const chosen = loop.model;
				const window = windowOf.window(chosen);
				const use = (known: ContextWindow | undefined): void => {
					loop.contextWindow = known;
					loop.resultBudget = windowOf.budget(chosen, known);
				};

				use(window.now);
				// A server's answer comes later (the next turn and /compact wait for it); none leaves the one known now.
				windowRead = window.served?.then(served => {
					if (loop.model === chosen) {
						use(served);
					}
				}, () => undefined) ?? Promise.resolve();
			}

			return {ok: true, message: `model: ${label} from the next message on (the conversation is kept)`};
		},
		async run(prompt, signal, images) {
			await windowRead;
			await loop.runTurn(prompt, {signal, ...(images === undefined ? {} : {images})});
		},
		meter: () => meterOf(loop),
		contextReport: () => contextReportOf(loop),
		toolSearch: () => searchTextOf(loop),
		async compact(focus, signal) {
			await windowRead;
			return compactWith(loop, focus, signal);
		},
		...(instructions === undefined ? {} : {instructions}),
	};
}

/** No model: the prompt stays in command mode, and says how to connect one. */
export function noModelTurns(why: string, status = 'no model (see /model)'): AgentTurns {
	return {
		model: undefined,
		status,
		describe: () => why,
		switchTo: () => ({ok: false, message: `/model: no model is connected in this session; ${why}`}),
		async run() {
			throw new Error(why);
		},
	};
}

/** What `/model PROVIDER:MODEL` needs to connect a model to a session started without one. */
export type ModelConnector = {
	/** A model client for a spec, as `--model` resolves it (throws with one clear line). */
	readonly resolve: (spec: string) => ModelClient;
	/** The agent loop on the session for `model` (made once, at the first connection). */
	readonly start: (model: ModelClient) => Promise<AgentLoop>;
	/** The instruction files of the agent `start` made, once it exists. */
	readonly instructions?: () => Instructions | undefined;
	/** The window of the model a later `/model` chooses. */
	readonly windowOf?: WindowResolver;
};

/**
A session started in command mode that `/model PROVIDER:MODEL` can connect a model to: from then
on it is an agent session (the next prompt line goes to the model; later `/model` switches as in a
session started with one). A spec that cannot be used is one line, and the session stays as it was.
*/
export function connectableTurns(why: string, connector: ModelConnector, status = 'no model (see /model)'): AgentTurns {
	let connected: AgentTurns | undefined;
	let client: ModelClient | undefined;
	let loop: Promise<AgentLoop> | undefined;
	/** The loop once it has started (the meter and `/compact` read it). */
	let started: AgentLoop | undefined;
	// The loop exists once its start resolves; until then a turn waits for it, with the model chosen last.
	const pending: TurnRunner = {
		get model() {
			return client!;
		},
		set model(model: ModelClient) {
			client = model;
		},
		set contextWindow(window: ContextWindow | undefined) {
			void loop?.then(started => {
				started.contextWindow = window;
			}, () => undefined);
		},
		set resultBudget(budget: ToolResultBudget | undefined) {
			void loop?.then(started => {
				started.resultBudget = budget;
			}, () => undefined);
		},
		async runTurn(prompt, options) {
			const started = await loop!;
			started.model = client!;
			return started.runTurn(prompt, options);
		},
	};
	return {
		get model() {
			return connected?.model;
		},
		get status() {
			return connected?.status ?? status;
		},
		describe: () => connected?.describe() ?? `${why}\n/model PROVIDER:MODEL connects one now (providers: ${PROVIDER_NAMES.join(', ')}; keys from their usual variables, e.g. OPENAI_API_KEY)`,
		switchTo(spec) {
			if (connected !== undefined) {
				return connected.switchTo(spec);
			}

			try {
				client = connector.resolve(spec);
			} catch (error) {
				return {ok: false, message: `/model: ${error instanceof Error ? error.message : String(error)}; still no model (command mode)`};
			}

			loop = connector.start(client);
			void loop.then(made => {
				started = made;
			}, () => {});
			connected = modelTurns(pending, '/model', connector.resolve, connector.instructions, connector.windowOf);
			return {ok: true, message: `model: ${modelLabel(client)} connected; text you type now goes to the model (writes and commands ask first)`};
		},
		async run(prompt, signal, images) {
			if (connected === undefined) {
				throw new Error(why);
			}

			await connected.run(prompt, signal, images);
		},
		meter: () => started === undefined ? undefined : meterOf(started),
		contextReport: () => started === undefined ? 'context: no model is connected' : contextReportOf(started),
		toolSearch: () => started === undefined ? undefined : searchTextOf(started),
		compact: async (focus, signal) => started === undefined ? {ok: false, message: '/compact: no model is connected'} : compactWith(started, focus, signal),
		...(connector.instructions === undefined ? {} : {instructions: connector.instructions}),
	};
}
