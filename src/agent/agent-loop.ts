/**
@module The agent loop (presentation-events.md §3.3): a turn is steps; a step is one model request
(system prompt + the conversation + the tools' schemas), its streamed answer, the
`assistant/message`, then the model's tool calls through the registry. Steps repeat until the model
calls no tool, a call concludes the turn, or the step limit; the turn ends with its reason and usage.

Cancel: the stream stops and its visible prefix is written `interrupted`; running calls end
`ABORTED` and calls not yet started `ABORTED_BEFORE_DISPATCH` (the registry's answers to an aborted
signal). Failures: retryable ones are retried with backoff (`llm/retry`), the rest end the turn
`error` with the provider's message. The loop never imports the model library.
*/
import {providerToolName, providerToolResult} from '../builtin/web/provider-tools.js';
import type {EventLog} from '../session/event-log.js';
import {contentText} from '../session/entry-facts.js';
import type {SessionEvent} from '../session/events.js';
import {parseCallArguments, type SessionRuntime, type StepHandle, type TurnEndReason, type TurnHandle} from '../session/session-runtime.js';
import type {ToolSchema} from '../tools/types.js';
import {runToolCalls} from './call-scheduler.js';
import {Conversation} from './conversation.js';
import type {ModelClient, ModelError, ModelToolCall, ModelUsage} from './model-types.js';
import {DEFAULT_RETRY_POLICY, retryDelayMs, shouldRetry, waitUnlessAborted, type RetryPolicy} from './retry-policy.js';
import {StepStream, type ProviderToolRun} from './step-stream.js';

export type AgentLoopOptions = {
	readonly runtime: SessionRuntime;
	/** The session's events: the conversation is rebuilt from them. */
	readonly log: EventLog;
	readonly model: ModelClient;
	/** The tools as the model sees them (`registry.schemas()`), read at every request. */
	readonly tools: () => readonly ToolSchema[];
	/** Whether a call may overlap with others (`registry.executionMode`). */
	readonly isParallel: (name: string, args: unknown) => boolean;
	readonly system: string;
	/** Steps per turn before the loop stops it (default 50). */
	readonly maxSteps?: number;
	/** Safe calls running at once (default 4). */
	readonly maxParallel?: number;
	readonly retry?: RetryPolicy;
	readonly now?: () => number;
	/** Events of the session so far (a resumed log): the conversation starts from them. */
	readonly history?: Iterable<SessionEvent>;
};

/** What a turn did. */
export type AgentTurnOutcome = {readonly turn: number; readonly reason: TurnEndReason; readonly usage: ModelUsage};

export const DEFAULT_MAX_STEPS = 500;
const DEFAULT_MAX_PARALLEL = 4;
const zeroUsage: ModelUsage = {inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0};

type StepOutcome =
	| {readonly kind: 'answered'; readonly stream: StepStream}
	| {readonly kind: 'aborted'}
	| {readonly kind: 'failed'; readonly error: ModelError};

export class AgentLoop {
	readonly #options: AgentLoopOptions;
	readonly #conversation = new Conversation();
	readonly #unlisten: () => void;
	readonly #now: () => number;
	#busy = false;

	/** A model switched to after the start (`/model`). */
	#model: ModelClient | undefined;

	constructor(options: AgentLoopOptions) {
		this.#options = options;
		this.#now = options.now ?? Date.now;
		for (const event of options.history ?? []) {
			this.#conversation.apply(event);
		}

		this.#unlisten = options.log.listen(event => {
			this.#conversation.apply(event);
		});
	}

	get model(): ModelClient {
		return this.#model ?? this.#options.model;
	}

	/** Use `model` from the next step on (`/model`); the conversation is kept. */
	set model(model: ModelClient) {
		this.#model = model;
	}

	/** Whether a turn is running. */
	get busy(): boolean {
		return this.#busy;
	}

	/** Stop hearing the session's events (the loop is done). */
	dispose(): void {
		this.#unlisten();
	}

	/** Run one turn for the person's `prompt`. Never rejects for model or tool failures: they are the turn's reason. */
	async runTurn(prompt: string, options: {readonly signal: AbortSignal}): Promise<AgentTurnOutcome> {
		if (this.#busy) {
			throw new Error('a turn is already running');
		}

		this.#busy = true;
		const {runtime} = this.#options;
		const turn = runtime.openTurn();
		let usage = zeroUsage;
		let reason: TurnEndReason = {kind: 'completed'};
		const maxSteps = this.#options.maxSteps ?? DEFAULT_MAX_STEPS;
		try {
			for (let step = 1; ; step++) {
				if (step > maxSteps) {
					reason = {kind: 'blocked', message: `the step limit (${maxSteps}) was reached`};
					break;
				}

				const handle = turn.nextStep();
				if (step === 1) {
					turn.record({type: 'user/message', data: {id: `u-${turn.turn}`, role: 'user', content: [{type: 'text', text: prompt}], source: {kind: 'user'}}, surfaceOp: 'append'});
				}

				this.#writeInbox(turn, handle.step);
				const outcome = await this.#modelStep(turn, handle.step, options.signal);
				if (outcome.kind === 'aborted') {
					reason = {kind: 'aborted', reason: {kind: 'user'}};
					break;
				}

				if (outcome.kind === 'failed') {
					reason = {kind: 'error', error: {message: outcome.error.message, ...(outcome.error.status === undefined ? {} : {status: outcome.error.status})}};
					break;
				}

				usage = addUsage(usage, outcome.stream.usage);
				recordProviderTools(handle, outcome.stream.providerTools);
				const calls = outcome.stream.calls;
				if (calls.length === 0) {
					if (outcome.stream.finishReason === 'length') {
						reason = {kind: 'max-tokens'};
					}

					break;
				}

				const results = await runToolCalls(calls, {
					start: call => handle.start(call.name, call.arguments, {signal: options.signal, ...(call.id === '' ? {} : {callId: call.id})}),
					isParallel: call => this.#isParallel(call),
					maxParallel: this.#options.maxParallel ?? DEFAULT_MAX_PARALLEL,
				});
				if (options.signal.aborted) {
					reason = {kind: 'aborted', reason: {kind: 'user'}};
					break;
				}

				if (results.some(result => !result.isError && result.concludesTurn === true)) {
					break;
				}
			}
		} catch (error) {
			// A failure of cardterm itself (not the model's, not a tool's): the turn still closes in order.
			reason = {kind: 'error', error: {message: error instanceof Error ? error.message : String(error)}};
		} finally {
			turn.end(reason, {usage});
			this.#busy = false;
		}

		return {turn: turn.turn, reason, usage};
	}

	/** Messages injected since the last step (plugins, job notices) enter the conversation here, durably. */
	#writeInbox(turn: TurnHandle, step: number): void {
		for (const [k, message] of this.#options.runtime.takeInbox().entries()) {
			turn.record({type: 'user/message', data: {id: `u-${turn.turn}.${step}.${k + 1}`, role: 'user', content: message.content, source: message.source}, surfaceOp: 'append'});
		}
	}

	/** One model request with its retries; writes the chunks and the `assistant/message`. */
	async #modelStep(turn: TurnHandle, step: number, signal: AbortSignal): Promise<StepOutcome> {
		const {model} = this;
		const policy = this.#options.retry ?? DEFAULT_RETRY_POLICY;
		const messageId = `a-${turn.turn}.${step}`;
		for (let retry = 1; ; retry++) {
			const stream = new StepStream({turn: turn.turn, step, record: draft => turn.record(draft), now: this.#now});
			let error: ModelError | undefined;
			for await (const part of model.stream({system: this.#options.system, messages: this.#conversation.messages(), tools: this.#options.tools(), signal})) {
				if (signal.aborted) {
					break;
				}

				if (part.type === 'error') {
					error = part.error;
					break;
				}

				stream.take(part);
			}

			if (signal.aborted) {
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: true});
				return {kind: 'aborted'};
			}

			error ??= stream.finished ? undefined : {message: 'the model\'s stream ended before it finished', retryable: true};
			if (error === undefined) {
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: false});
				return {kind: 'answered', stream};
			}

			if (!shouldRetry(policy, error, retry)) {
				// What streamed before the failure stays visible, marked cut.
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: true});
				return {kind: 'failed', error};
			}

			const delayMs = retryDelayMs(policy, error, retry);
			turn.record({type: 'llm/retry', data: {turn: turn.turn, step, attempt: retry + 1, maxAttempts: policy.maxRetries + 1, delayMs, reason: error.message, error: {message: error.message, ...(error.status === undefined ? {} : {status: error.status})}}});
			if (!await waitUnlessAborted(delayMs, signal)) {
				return {kind: 'aborted'};
			}
		}
	}

	#isParallel(call: ModelToolCall): boolean {
		return this.#options.isParallel(call.name, parseCallArguments(call.arguments));
	}
}

/**
The tools the provider ran during the step become settled cards, after the step's message and
before its own calls; they are never run here, nor sent back as calls. A run the stream never
answered is recorded as failed.
*/
function recordProviderTools(handle: StepHandle, runs: readonly ProviderToolRun[]): void {
	for (const run of runs) {
		const outcome = run.result === undefined ? undefined : providerToolResult(run.name, run.result.value, run.result.isError);
		const meta = outcome?.meta === undefined ? {} : {meta: outcome.meta};
		const call = {callId: run.id, name: providerToolName(run.name), arguments: run.arguments};
		if (outcome === undefined || run.result!.isError) {
			const message = outcome === undefined ? `the provider's ${run.name} sent no result` : contentText(outcome.content);
			handle.recordSettled(call, {isError: true, error: {message}, content: outcome?.content ?? [{type: 'text', text: `Error: ${message}`}]});
		} else {
			handle.recordSettled(call, {isError: false, value: null, content: outcome.content, ...meta});
		}
	}
}

function addUsage(a: ModelUsage, b: ModelUsage | undefined): ModelUsage {
	if (b === undefined) {
		return a;
	}

	return {
		inputTokens: a.inputTokens + b.inputTokens,
		outputTokens: a.outputTokens + b.outputTokens,
		cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
		cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
		reasoningTokens: a.reasoningTokens + b.reasoningTokens,
	};
}
