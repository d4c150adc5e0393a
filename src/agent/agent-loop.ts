/**
@module The agent loop (contract.md §E3.3): a turn is steps; a step is one model request
(system prompt + the conversation + the tools' schemas), its streamed answer, the
`assistant/message`, then the model's tool calls through the registry. Steps repeat until the model
calls no tool, a call concludes the turn, a runaway loop is seen, or the step limit; the turn ends
with its reason and usage.

Cancel: the stream stops and its visible prefix is written `interrupted`; running calls end
`ABORTED` and calls not yet started `ABORTED_BEFORE_DISPATCH` (the registry's answers to an aborted
signal). Failures: retryable ones (including a stream that stalls) are retried with backoff
(`llm/retry`), the rest end the turn `error` with the provider's message. An answer without calls
ends the turn as `step-ending.ts` reads it (refusal, filter, output limit, empty answer). A step
past `MESSAGE_MAX_CHARS` is cut (`step-stream.ts`): its request ends, a cut answer ends the turn and a
cut call is refused like one the output limit cut. Calls whose arguments are not JSON, nest past
the bounds, were cut by the output limit, or repeat a loop are recorded but not run
(`call-refusals.ts`). The loop never imports the model library.
*/
import {setImmediate as nextTurn} from 'node:timers/promises';
import {providerToolName, providerToolResult} from '../builtin/web/provider-tools.js';
import type {EventDraft, EventLog} from '../session/events/event-log.js';
import {contentText} from '../session/fold/entry-facts.js';
import type {SessionEvent} from '../session/events/events.js';
import {parseCallArguments, type SessionRuntime, type StepHandle, type TurnEndReason, type TurnHandle} from '../session/recorder/session-runtime.js';
import type {ImageAttachment} from '../tools/content.js';
import type {ToolExecutionResult, ToolSchema} from '../tools/types.js';
import {answerLimitRefusal, argumentsRefusal, loopRefusal} from './call-refusals.js';
import {runToolCalls} from './call-scheduler.js';
import {Compactor, type CompactionOutcome} from './compactor.js';
import {ContextLedger, type CompactionSettings, type ContextPart, type ContextUse, type ContextWindow} from './context-ledger.js';
import type {ToolSearch, ToolSearchState} from './tool-search.js';
import {Conversation, oversizedRequest} from './conversation.js';
import {modelLimits, modelTakesImages} from './model-catalog.js';
import {errorAdvice} from './model-errors.js';
import type {ModelClient, ModelError, ModelStreamPart, ModelToolCall, ModelUsage} from './model-types.js';
import {RepeatGuard} from './repeat-guard.js';
import {DEFAULT_RETRY_POLICY, retryDecision, waitUnlessAborted, type RetryPolicy} from './retry-policy.js';
import {DEFAULT_STALL_TIMEOUT_MS, watchStalls} from './stall-guard.js';
import {answerEnding, answerLimitEnding} from './step-ending.js';
import {StepStream, type ProviderToolRun} from './step-stream.js';
import type {ToolResultBudget} from './tool-result-budget.js';
import {plainPrompt, userMessageFields, type UserPrompt} from '../session/events/user-prompt.js';

/** The model's window and what the loop does about it (issue 17): the ledger, compaction, the tool results' budget. */
export type ContextOptions = {
	readonly window?: ContextWindow;
	readonly compaction?: CompactionSettings;
	readonly budget?: ToolResultBudget;
};

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
	/** Steps per turn before the loop stops it (default `DEFAULT_MAX_STEPS`). */
	readonly maxSteps?: number;
	/** Safe calls running at once (default 4). */
	readonly maxParallel?: number;
	readonly retry?: RetryPolicy;
	/** A model stream silent this long is cancelled and retried (default `DEFAULT_STALL_TIMEOUT_MS`). */
	readonly stallTimeoutMs?: number;
	/**
	A provider's asked-for wait longer than the retry policy's bound: taken, with the countdown on the
	status line until the person cancels (`'wait'`, the default: a person is there), or the turn ends
	naming the wait (`'stop'`: `-p`).
	*/
	readonly longWaits?: 'wait' | 'stop';
	/**
	The conversation outgrew the model's window (an error of kind `context-overflow`): resolve `true`
	once it was made smaller, and the request is sent again (once per step). Absent, or `false`: the
	turn ends with the error. The hook issue 17's compaction plugs into.
	*/
	readonly onContextOverflow?: (error: ModelError, signal: AbortSignal) => Promise<boolean>;
	/** The window, compaction and the tool results' budget; without it, the overflow hook above is all there is. */
	readonly context?: ContextOptions;
	/** Defers the MCP tools' schemas past a share of the window (`tool-search.ts`): every request's tools go through it. */
	readonly toolSearch?: ToolSearch;
	readonly now?: () => number;
	/** Events of the session so far (a resumed log): the conversation starts from them. */
	readonly history?: Iterable<SessionEvent>;
	/** The bytes of an image the person attached, read from the session's attachments (a resumed session's too). */
	readonly images?: (attachment: ImageAttachment) => Uint8Array | undefined;
};

/** What a turn did. */
export type AgentTurnOutcome = {readonly turn: number; readonly reason: TurnEndReason; readonly usage: ModelUsage};

/**
A turn's steps before the loop stops it: enough for a long task (a refactor across many files takes
tens of steps; Gemini CLI stops at 100 per prompt as well), while a mechanical loop is stopped far
earlier by `repeat-guard.ts`. The person can say "go on": the conversation is kept.
*/
export const DEFAULT_MAX_STEPS = 100;
const DEFAULT_MAX_PARALLEL = 4;
/** Steps in a row whose call was cut by the output limit before the turn ends: the model was told once to write less. */
const CUT_STEPS_LIMIT = 2;
/**
Longest the loop takes a stream's parts without letting the event loop turn: a fast stream's parts
come already read, each a promise that resolves without waiting, so keys (Esc), timers (frames)
and signals would wait for a whole network read's worth of parts (a second and more).
*/
const STREAM_TURN_MS = 16;
const zeroUsage: ModelUsage = {inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0};

type StepOutcome =
	| {readonly kind: 'answered'; readonly stream: StepStream}
	| {readonly kind: 'aborted'}
	| {readonly kind: 'failed'; readonly error: ModelError};

export class AgentLoop {
	readonly #options: AgentLoopOptions;
	readonly #conversation: Conversation;
	readonly #ledger: ContextLedger;
	readonly #compactor: Compactor;
	readonly #unlisten: () => void;
	readonly #now: () => number;
	#busy = false;

	/** A model switched to after the start (`/model`). */
	#model: ModelClient | undefined;

	constructor(options: AgentLoopOptions) {
		this.#options = options;
		this.#now = options.now ?? Date.now;
		const history = [...options.history ?? []];
		this.#conversation = new Conversation({...(options.context?.budget === undefined ? {} : {budget: options.context.budget}), ...(options.images === undefined ? {} : {images: options.images})});
		for (const event of history) {
			this.#conversation.apply(event);
		}

		// The conversation hears each event before the compactor, which reads it.
		this.#unlisten = options.log.listen(event => {
			this.#conversation.apply(event);
		});
		this.#ledger = new ContextLedger(options.context?.window, options.context?.compaction ?? {enabled: options.context !== undefined});
		this.#compactor = new Compactor({log: options.log, conversation: this.#conversation, ledger: this.#ledger, model: () => this.model, system: options.system, tools: () => this.#tools(), history});
	}

	/** How full the model's window is for the next request. */
	contextUse(): ContextUse {
		return this.#ledger.use(this.#request());
	}

	/** The next request by parts, and its largest messages (seqs of the log), for `/context`. */
	contextParts(): {readonly parts: readonly ContextPart[]; readonly largest: ReadonlyArray<{readonly seq: number; readonly tokens: number; readonly label: string}>} {
		const request = this.#request();
		const largest = [...request.surface].sort((a, b) => b.value.tokens - a.value.tokens).slice(0, 5).map(({seq, value}) => ({
			seq,
			tokens: value.tokens,
			label: value.result === undefined ? (value.checkpoint === true ? 'compaction summary' : (value.messages[0]?.role ?? 'message')) : `${value.result.name} result${value.result.pruned ? ' (pruned)' : ''}`,
		}));
		return {parts: this.#ledger.parts(request), largest};
	}

	/** The window the ledger uses (a local server's answer that came after the start, or another model's). */
	set contextWindow(window: ContextWindow | undefined) {
		this.#ledger.window = window;
	}

	/** What tool results taken in from now on may send (another model's window's budget). */
	set resultBudget(budget: ToolResultBudget | undefined) {
		this.#conversation.budget = budget;
	}

	/** `/compact [FOCUS]`: compact now, between turns. */
	async compact(options: {readonly signal: AbortSignal; readonly focus?: string}): Promise<CompactionOutcome> {
		if (this.#busy) {
			return {kind: 'refused', reason: 'a turn is running; /compact waits for it to end'};
		}

		this.#busy = true;
		try {
			return await this.#compactor.compact('manual', options);
		} finally {
			this.#busy = false;
		}
	}

	#request(): {system: string; tools: readonly ToolSchema[]; surface: ReturnType<Conversation['surface']>} {
		return {system: this.#options.system, tools: this.#tools(), surface: this.#conversation.surface()};
	}

	/** The tools the next request carries: all offered, or, past the tool search's share of the window, all but the MCP tools not found yet. */
	#tools(): readonly ToolSchema[] {
		const {toolSearch, tools} = this.#options;
		return toolSearch === undefined ? tools() : toolSearch.select(tools(), this.#ledger.window?.tokens);
	}

	/** Whether the MCP tools' schemas are deferred for the next request, and what that saves (`/context`, `/mcp`). */
	toolSearch(): ToolSearchState | undefined {
		if (this.#options.toolSearch === undefined) {
			return undefined;
		}

		this.#tools();
		return this.#options.toolSearch.state();
	}

	get model(): ModelClient {
		return this.#model ?? this.#options.model;
	}

	/** Use `model` from the next step on (`/model`); the conversation is kept. */
	set model(model: ModelClient) {
		this.#model = model;
		// The catalog's window was the old model's; a window from the config or the server stays (the person set it).
		const window = this.#ledger.window;
		if (window === undefined || window.source === 'catalog') {
			const limits = modelLimits(model.model);
			this.#ledger.window = limits === undefined ? undefined : {tokens: limits.contextWindow, source: 'catalog'};
		}
	}

	/** Whether a turn is running. */
	get busy(): boolean {
		return this.#busy;
	}

	/** Stop hearing the session's events (the loop is done). */
	dispose(): void {
		this.#unlisten();
		this.#compactor.dispose();
	}

	/**
	Run one turn for the person's `prompt` (with what its `@` references attached) and the `images`
	attached to it. Never rejects for model or tool failures: they are the turn's reason. Rejects,
	recording nothing, when a turn runs already or the model takes no images (`imagesRefusal`).
	*/
	async runTurn(prompt: string | UserPrompt, options: {readonly signal: AbortSignal; readonly images?: readonly ImageAttachment[]}): Promise<AgentTurnOutcome> {
		if (this.#busy) {
			throw new Error('a turn is already running');
		}

		const images = options.images ?? [];
		const refused = images.length === 0 ? undefined : imagesRefusal(this.model);
		if (refused !== undefined) {
			throw new Error(refused);
		}

		this.#busy = true;
		const {runtime} = this.#options;
		const turn = runtime.openTurn();
		let usage = zeroUsage;
		let reason: TurnEndReason = {kind: 'completed'};
		const maxSteps = this.#options.maxSteps ?? DEFAULT_MAX_STEPS;
		const repeats = new RepeatGuard();
		let cutSteps = 0;
		try {
			for (let step = 1; ; step++) {
				if (step > maxSteps) {
					reason = {kind: 'blocked', code: 'step-limit', message: `the step limit (${maxSteps}) was reached`};
					break;
				}

				const handle = turn.nextStep();
				// Notes that came while no turn ran (a job that finished meanwhile) precede the person's prompt: the prompt is what the model answers.
				this.#writeInbox(turn, handle.step);
				if (step === 1) {
					turn.record({type: 'user/message', data: {id: `u-${turn.turn}`, role: 'user', ...userMessageFields(typeof prompt === 'string' ? plainPrompt(prompt) : prompt, images), source: {kind: 'user'}}, surfaceOp: 'append'});
				}

				// eslint-disable-next-line no-await-in-loop -- a step follows the one before it
				const outcome = await this.#modelStep(turn, handle.step, options.signal);
				if (outcome.kind === 'aborted') {
					reason = {kind: 'aborted', reason: {kind: 'user'}};
					break;
				}

				if (outcome.kind === 'failed') {
					const {error} = outcome;
					const {model} = this;
					const advice = errorAdvice(error, {...(model.keyVariable === undefined ? {} : {keyVariable: model.keyVariable}), ...(model.endpoint === undefined ? {} : {endpoint: model.endpoint})});
					reason = {kind: 'error', error: {message: error.message, kind: error.kind, ...(error.code === undefined ? {} : {code: error.code}), ...(error.status === undefined ? {} : {status: error.status}), ...(advice === undefined ? {} : {advice})}};
					break;
				}

				const {stream} = outcome;
				usage = addUsage(usage, stream.usage);
				recordProviderTools(handle, stream.providerTools);
				const calls = stream.calls;
				if (calls.length === 0) {
					const ending = stream.cut ? answerLimitEnding(stream.maxChars) : answerEnding({finish: stream.finishReason ?? 'other', ...stream.finishFacts, text: stream.streamed('text'), reasoning: stream.streamed('reasoning')});
					if (ending.kind !== 'completed') {
						reason = ending;
					}

					break;
				}

				// Every call is recorded and answered; those that must not run are answered with why.
				const refusals = new Map<ModelToolCall, ToolExecutionResult>();
				for (const call of calls) {
					const refusal = stream.wasCut(call) ? answerLimitRefusal(call, stream.maxChars) : argumentsRefusal(call, stream.finishReason);
					if (refusal !== undefined) {
						refusals.set(call, refusal);
					}
				}

				const loop = repeats.observe(calls);
				if (loop !== undefined) {
					for (const call of calls) {
						refusals.set(call, loopRefusal(loop));
					}
				}

				// eslint-disable-next-line no-await-in-loop -- a step's calls settle before the next step asks the model
				const results = await runToolCalls(calls, {
					start: call => {
						const settled = refusals.get(call);
						return handle.start(call.name, call.arguments, {signal: options.signal, ...(call.id === '' ? {} : {callId: call.id}), ...(settled === undefined ? {} : {settled})});
					},
					isParallel: call => !refusals.has(call) && this.#isParallel(call),
					maxParallel: this.#options.maxParallel ?? DEFAULT_MAX_PARALLEL,
				});
				if (options.signal.aborted) {
					reason = {kind: 'aborted', reason: {kind: 'user'}};
					break;
				}

				if (loop !== undefined) {
					reason = {kind: 'blocked', code: 'loop', message: `${loop}; stopped the turn`};
					break;
				}

				cutSteps = (stream.finishReason === 'length' || stream.cut) && refusals.size > 0 ? cutSteps + 1 : 0;
				if (cutSteps >= CUT_STEPS_LIMIT) {
					reason = {kind: 'max-tokens', message: `the model's tool call was cut at its output limit ${cutSteps} times in a row`};
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
		const stallMs = this.#options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
		const messageId = `a-${turn.turn}.${step}`;
		let overflowHandled = false;
		// Checked before every request, inside a long turn too.
		if (this.#compactor.due()) {
			await this.#compactor.compact('auto', {signal, turn: turn.turn});
		}

		const onOverflow = this.#options.onContextOverflow ?? (this.#options.context === undefined ? undefined : async (_error: ModelError, overflowSignal: AbortSignal) => (await this.#compactor.compact('overflow', {signal: overflowSignal, turn: turn.turn})).kind === 'compacted');
		for (let retry = 1; ;) {
			const sent = this.#ledger.raw(this.#request());
			const stream = new StepStream({turn: turn.turn, step, record: draft => turn.record(draft), now: this.#now});
			// One attempt's request: cancelled with the turn, or alone when it stalls.
			const attempt = new AbortController();
			const cancel = (): void => {
				attempt.abort();
			};

			signal.addEventListener('abort', cancel, {once: true});
			let stalled = false;
			// A silent stream is aborted; its model client then ends it (`ModelRequest.signal`).
			const stalls = watchStalls(stallMs, () => {
				stalled = true;
				attempt.abort();
			});
			let error: ModelError | undefined;
			let busySince = performance.now();
			const messages = this.#conversation.messages();
			const oversized = oversizedRequest(this.#options.system, messages);
			try {
				// eslint-disable-next-line no-await-in-loop -- one attempt after another
				for await (const part of oversized === undefined ? model.stream({system: this.#options.system, messages, tools: this.#tools(), signal: attempt.signal}) : refused({message: oversized, kind: 'context-overflow', retryable: false})) {
					stalls.touch();
					if (performance.now() - busySince > STREAM_TURN_MS) {
						await nextTurn();
						busySince = performance.now();
					}

					if (signal.aborted || stalled) {
						break;
					}

					if (part.type === 'error') {
						error = part.error;
						break;
					}

					stream.take(part);
					if (stream.cut) {
						// Past the step's bound: the request is ended, what was taken is the answer.
						attempt.abort();
						break;
					}
				}
			} finally {
				stalls.stop();
				signal.removeEventListener('abort', cancel);
			}

			if (signal.aborted) {
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: true});
				return {kind: 'aborted'};
			}

			if (stream.cut) {
				// The text cut mid-answer is marked interrupted; calls are kept, so their refusals answer them.
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: stream.calls.length === 0});
				return {kind: 'answered', stream};
			}

			if (stalled) {
				error = {message: `no data from the model for ${stallMs >= 1000 ? `${Math.round(stallMs / 1000)}s` : `${stallMs}ms`}`, kind: 'stall', retryable: true};
			}

			error ??= stream.finished ? undefined : {message: 'the model\'s stream ended before it finished', kind: 'server', retryable: true};
			if (error === undefined) {
				this.#ledger.reported(sent, stream.usage?.inputTokens ?? 0);
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: false});
				return {kind: 'answered', stream};
			}

			if (error.kind === 'context-overflow' && !overflowHandled && onOverflow !== undefined) {
				overflowHandled = true;
				// eslint-disable-next-line no-await-in-loop -- the hook shrinks the conversation before the request is sent again
				if (await onOverflow(error, signal)) {
					turn.record(retryEvent(turn.turn, step, retry + 1, policy, 0, `${error.message}; the conversation was made smaller`, error));
					continue;
				}
			}

			const decision = retryDecision(policy, error, retry, this.#options.longWaits ?? 'wait');
			if (decision.kind === 'stop') {
				// What streamed before the failure stays visible, marked cut.
				stream.writeMessage({id: messageId, provider: model.provider, model: model.model, interrupted: true});
				return {kind: 'failed', error: decision.error};
			}

			turn.record(retryEvent(turn.turn, step, retry + 1, policy, decision.delayMs, decision.reason, error));
			retry++;
			// eslint-disable-next-line no-await-in-loop -- one attempt after another
			if (!await waitUnlessAborted(decision.delayMs, signal)) {
				return {kind: 'aborted'};
			}
		}
	}

	#isParallel(call: ModelToolCall): boolean {
		return this.#options.isParallel(call.name, parseCallArguments(call.arguments));
	}
}

/** A request not sent: its stream is the one error part saying why. */
async function * refused(error: ModelError): AsyncIterable<ModelStreamPart> {
	yield {type: 'error', error};
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

/** The `llm/retry` of the attempt numbered `attempt`, with the error that caused it as the log keeps it. */
function retryEvent(turn: number, step: number, attempt: number, policy: RetryPolicy, delayMs: number, reason: string, error: ModelError): Extract<EventDraft, {type: 'llm/retry'}> {
	return {type: 'llm/retry', data: {turn, step, attempt, maxAttempts: policy.maxRetries + 1, delayMs, reason, error: {message: error.message, kind: error.kind, ...(error.code === undefined ? {} : {code: error.code}), ...(error.status === undefined ? {} : {status: error.status})}}};
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

/**
Why `model` cannot be sent the person's images, or `undefined`. A model known to take text only is
refused before anything is sent or recorded: the message is not sent without its images (the person
meant the model to see them), and the line says how to go on.
*/
export function imagesRefusal(model: ModelClient): string | undefined {
	return modelTakesImages(model.model) === false
		? `${model.provider}:${model.model} takes no images: the message was not sent (switch with /model to one that takes images, or send it without the image)`
		: undefined;
}
