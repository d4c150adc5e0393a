/**
@module A session's agent as its live screen drives it: what the status line and `/model` say about
the model, switching or connecting one, and running one turn; or why there is no model.
*/
import type {AgentLoop} from '../agent/agent-loop.js';
import type {ModelClient} from '../agent/model-types.js';
import {PROVIDER_NAMES} from '../agent/model-client.js';
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
	/** Run one turn; resolves when the turn has ended (its end is in the log). */
	run(prompt: string, signal: AbortSignal): Promise<void>;
	/** The instruction files the agent's system prompt holds (`/instructions`); `undefined` before an agent exists or when `--system-prompt` replaced them. */
	instructions?(): Instructions | undefined;
};

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
export type TurnRunner = {model: ModelClient; runTurn(prompt: string, options: {readonly signal: AbortSignal}): Promise<unknown>};

/**
Turns with a connected model. `resolve` makes a model client of a `/model SPEC` (the session's
environment and base URL); a spec that cannot be used leaves the current model in place.
*/
export function modelTurns(loop: TurnRunner, from: string, resolve: (spec: string) => ModelClient, instructions?: () => Instructions | undefined): AgentTurns {
	let label = modelLabel(loop.model);
	let source = from;
	return {
		get model() {
			return label;
		},
		get status() {
			return label;
		},
		describe: () => `model: ${label} (from ${source}); /model PROVIDER:MODEL switches for the next message`,
		switchTo(spec) {
			try {
				loop.model = resolve(spec);
			} catch (error) {
				return {ok: false, message: `/model: ${error instanceof Error ? error.message : String(error)}; still ${label}`};
			}

			label = modelLabel(loop.model);
			source = '/model';
			return {ok: true, message: `model: ${label} from the next message on (the conversation is kept)`};
		},
		async run(prompt, signal) {
			await loop.runTurn(prompt, {signal});
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
	// The loop exists once its start resolves; until then a turn waits for it, with the model chosen last.
	const pending: TurnRunner = {
		get model() {
			return client!;
		},
		set model(model: ModelClient) {
			client = model;
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
			connected = modelTurns(pending, '/model', connector.resolve, connector.instructions);
			return {ok: true, message: `model: ${modelLabel(client)} connected; text you type now goes to the model (writes and commands ask first)`};
		},
		async run(prompt, signal) {
			if (connected === undefined) {
				throw new Error(why);
			}

			await connected.run(prompt, signal);
		},
		...(connector.instructions === undefined ? {} : {instructions: connector.instructions}),
	};
}
