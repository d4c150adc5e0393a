/**
@module The session runtime: runs tool calls through the registry and records what happened as
events, in the order the contract gives (contract.md §E3.3): `turn/start`, `step/start`,
then per call `tool/call` … side events (approvals, todos, code dispatches, live output) …
`tool/result`, then `step/end`, `turn/end`. The UI and the log both consume these events only.

A turn is either one step around direct calls (`turn`, `runCall`) or driven step by step by the
agent loop (`openTurn`): it records the model's events in the step and closes whatever is open, in
order, when it ends. The runtime also holds the agent's inbox: `agent.inject` queues a message, the
loop writes it at its next step.
*/
import {readArgumentsText} from '../../tools/call-arguments.js';
import type {ContentBlock} from '../../tools/content.js';
import type {Agent, AgentInjection, ApprovalOutcome, ApprovalRequest, ToolExecutionInput, ToolExecutionResult, ToolProgress} from '../../tools/types.js';
import type {EventDraft, EventLog} from '../events/event-log.js';
import type {CodeDispatchData, CodeDispatchStartData, EventFields, SessionEvent, TodoItem} from '../events/events.js';

/** What the runtime needs from a registry. */
export type ToolExecutor = {execute(input: ToolExecutionInput): Promise<ToolExecutionResult>};

/**
An answer to an approval request as the log records it: the registry's outcome for this call, and
what else was decided — a grant for the rest of the session (`allowed-session` is recorded), a grant
given earlier that answered without a question (`standing`), the person's words with a refusal.
*/
export type ApprovalDecision = {
	readonly outcome: ApprovalOutcome;
	readonly grant?: 'session';
	readonly standing?: true;
	readonly feedback?: string;
};

/** The UI's answer to an approval request; `id` is the approval's id in the log. */
export type ApprovalPrompt = (request: ApprovalRequest & {readonly id: string}) => Promise<ApprovalOutcome | ApprovalDecision>;

/**
How a turn ended (contract.md §E3.2). Beyond the contract's fields: an `error`'s `kind`
(the agent's classification of a model failure: `context-overflow`, `quota`, …), a `max-tokens`
end's `message`, and a `blocked` end's `code` (why: `refusal`, `content-filter`, `step-limit`, `loop`).
*/
export type TurnEndReason =
	| {readonly kind: 'completed'}
	| {readonly kind: 'aborted'; readonly reason: {readonly kind: 'user'}}
	| {readonly kind: 'error'; readonly error: {readonly message: string; readonly code?: string; readonly status?: number; readonly kind?: string; readonly advice?: string}}
	| {readonly kind: 'max-tokens'; readonly message?: string}
	| {readonly kind: 'blocked'; readonly message: string; readonly code?: string};

export type SessionRuntimeOptions = {
	readonly log: EventLog;
	readonly agent: Agent;
	/** Where approvals go; absent ⇒ every *ask* is answered `unavailable`. */
	readonly approve?: ApprovalPrompt;
};

/** One open step of one turn: calls made here share its `turn`/`step`. */
export type StepHandle = {
	readonly turn: number;
	readonly step: number;
	/** Run one call; the returned result is what the registry resolved. Never rejects. */
	call(name: string, args: unknown, options: CallOptions): Promise<ToolExecutionResult>;
	/**
	Start one call: its `tool/call` is written now and the body runs; `commit` writes its
	`tool/result` once the result is in (the agent loop commits results in model order).
	*/
	start(name: string, args: unknown, options: CallOptions): StartedCall;
	/**
	Record a call that ran elsewhere — a tool the model's provider ran itself: its `tool/call`
	(marked `providerExecuted`) and its `tool/result`, at once. Nothing runs here.
	*/
	recordSettled(call: {readonly callId: string; readonly name: string; readonly arguments: string}, result: ToolExecutionResult): void;
};

export type CallOptions = {
	readonly signal: AbortSignal;
	readonly callId?: string;
	/** A result decided before dispatch: the call is recorded with it and not run (the agent loop's refusals). */
	readonly settled?: ToolExecutionResult;
};

/** A call whose body is running; `result` never rejects. */
export type StartedCall = {
	readonly callId: string;
	readonly result: Promise<ToolExecutionResult>;
	/** Write the `tool/result` of `result` (once). */
	commit(result: ToolExecutionResult): void;
};

/** A turn the agent loop drives: steps one after another, then `end`. */
export type TurnHandle = {
	readonly turn: number;
	/** The open step, if any. */
	readonly step: StepHandle | undefined;
	/** Close the open step (if any) and open the next one. */
	nextStep(): StepHandle;
	/** Record an event of the open step (a message, a chunk, a retry). */
	record(draft: EventDraft): SessionEvent;
	/** Close the open step and the turn; `extra` joins the `turn/end` data (usage, timing). */
	end(reason: TurnEndReason, extra?: EventFields): void;
};

export class SessionRuntime {
	readonly #log: EventLog;
	readonly #agent: Agent;
	readonly #approve: ApprovalPrompt | undefined;
	#turn = 0;
	#approvals = 0;
	#executor: ToolExecutor | undefined;
	readonly #inbox: AgentInjection[] = [];
	#disposed = false;

	constructor(options: SessionRuntimeOptions & {readonly firstTurn?: number}) {
		this.#log = options.log;
		// One object for the session's whole life: job ownership is by identity.
		this.#agent = {...options.agent, inject: message => this.#inject(message)};
		this.#approve = options.approve;
		this.#turn = options.firstTurn ?? 0;
	}

	/** The number of the last turn opened (a resumed session continues after the log's last turn). */
	get lastTurn(): number {
		return this.#turn;
	}

	/** Continue numbering turns after `turn` (a resumed log's last turn). */
	continueAfterTurn(turn: number): void {
		this.#turn = Math.max(this.#turn, turn);
	}

	/** Messages injected since the last call, oldest first; the inbox is emptied. */
	takeInbox(): AgentInjection[] {
		return this.#inbox.splice(0);
	}

	/** Whether messages wait in the inbox. */
	get inboxSize(): number {
		return this.#inbox.length;
	}

	/** After this, `agent.inject` throws (the contract: injection is refused after disposal). */
	dispose(): void {
		this.#disposed = true;
		this.#inbox.length = 0;
	}

	#inject(message: AgentInjection): void {
		if (this.#disposed) {
			throw new Error(`agent "${this.#agent.id}" is disposed: cannot inject a message`);
		}

		if (!Array.isArray(message?.content) || typeof message.source?.kind !== 'string') {
			throw new TypeError('agent.inject needs {content: ContentBlock[], source: {kind, …}}');
		}

		this.#inbox.push({content: message.content, source: message.source});
	}

	/** The agent every call runs for. */
	get agent(): Agent {
		return this.#agent;
	}

	/** The registry that executes calls (set once the registry exists: it takes `approvalHandler` at construction). */
	attach(executor: ToolExecutor): void {
		this.#executor = executor;
	}

	/**
	The registry's approval handler: records `approval/asked`, asks the UI, records `approval/decided`.
	These land between the call's `tool/call` and `tool/result`.
	*/
	readonly approvalHandler = async (request: ApprovalRequest): Promise<ApprovalOutcome> => {
		const id = `approval-${++this.#approvals}`;
		this.#log.emit({type: 'approval/asked', data: {id, toolName: request.toolName, callId: request.callId, ...(request.reason === undefined ? {} : {reason: request.reason})}});
		let answer: ApprovalOutcome | ApprovalDecision;
		try {
			answer = this.#approve === undefined ? 'unavailable' : await this.#approve({...request, id});
		} catch {
			answer = 'unavailable';
		}

		const decision: ApprovalDecision = typeof answer === 'string' ? {outcome: answer} : answer;
		const {outcome, grant, standing, feedback} = decision;
		const recorded = outcome === 'allowed-once' && grant === 'session' ? 'allowed-session' : outcome;
		this.#log.emit({type: 'approval/decided', data: {id, outcome: recorded, ...(standing === true ? {standing} : {}), ...(feedback === undefined ? {} : {feedback})}});
		return outcome;
	};

	/** Records the standing todo list (called by `todo_write` while its call runs). */
	readonly recordTodos = (todos: readonly TodoItem[]): void => {
		this.#log.emit({type: 'todo/write', data: {todos}});
	};

	/** Records a Code Mode sub-call start or settle event. */
	readonly recordCodeDispatch = (event: {readonly type: 'tool/code-dispatch-start'; readonly data: CodeDispatchStartData} | {readonly type: 'tool/code-dispatch'; readonly data: CodeDispatchData}): void => {
		this.#log.emit(event);
	};

	/** Open a turn for the agent loop: `turn/start` now; steps and the end are the caller's. */
	openTurn(): TurnHandle {
		const turn = ++this.#turn;
		this.#log.emit({type: 'turn/start', data: {turn}});
		let step: StepHandle | undefined;
		let ended = false;
		const closeStep = (): void => {
			if (step !== undefined) {
				this.#log.emit({type: 'step/end', data: {turn, step: step.step}});
				step = undefined;
			}
		};

		let steps = 0;
		return {
			turn,
			get step() {
				return step;
			},
			nextStep: () => {
				closeStep();
				steps += 1;
				this.#log.emit({type: 'step/start', data: {turn, step: steps}});
				step = this.#step(turn, steps);
				return step;
			},
			record: draft => this.#log.emit(draft),
			end: (reason, extra = {}) => {
				if (ended) {
					return;
				}

				ended = true;
				closeStep();
				this.#log.emit({type: 'turn/end', data: {...extra, turn, reason}});
			},
		};
	}

	/** Open a turn with one step, run `body` in it, close both — also when `body` throws. */
	async turn<T>(body: (step: StepHandle) => Promise<T>, options: {readonly signal?: AbortSignal} = {}): Promise<T> {
		const turn = ++this.#turn;
		this.#log.emit({type: 'turn/start', data: {turn}});
		this.#log.emit({type: 'step/start', data: {turn, step: 1}});
		let reason: TurnEndReason = {kind: 'completed'};
		try {
			return await body(this.#step(turn, 1));
		} catch (error) {
			reason = {kind: 'error', error: {message: error instanceof Error ? error.message : String(error)}};
			throw error;
		} finally {
			if (reason.kind === 'completed' && options.signal?.aborted) {
				reason = {kind: 'aborted', reason: {kind: 'user'}};
			}

			this.#log.emit({type: 'step/end', data: {turn, step: 1}});
			this.#log.emit({type: 'turn/end', data: {turn, reason}});
		}
	}

	/** Run one call in a turn of its own. */
	async runCall(name: string, args: unknown, options: {readonly signal: AbortSignal; readonly callId?: string}): Promise<ToolExecutionResult> {
		return this.turn(async step => step.call(name, args, options), {signal: options.signal});
	}

	#step(turn: number, step: number): StepHandle {
		return {
			turn,
			step,
			call: async (name, args, options) => {
				const started = this.#start(turn, step, name, args, options);
				const result = await started.result;
				started.commit(result);
				return result;
			},
			start: (name, args, options) => this.#start(turn, step, name, args, options),
			recordSettled: (call, result) => {
				const callEvent = this.#log.emit({type: 'tool/call', data: {turn, step, callId: call.callId, name: call.name, arguments: call.arguments, providerExecuted: true}});
				this.#log.emit(resultEvent(`result-${this.#log.nextSeq}`, turn, step, call.callId, result, callEvent));
			},
		};
	}

	#start(turn: number, step: number, name: string, args: unknown, options: CallOptions): StartedCall {
		const executor = this.#executor;
		if (executor === undefined) {
			throw new Error('SessionRuntime: attach a registry before running calls');
		}

		// The seq of the call event is unique within a log, also across processes appending to it.
		const callId = options.callId ?? `call-${this.#log.nextSeq}`;
		const argsRaw = typeof args === 'string' ? args : JSON.stringify(args) ?? '';
		const callEvent = this.#log.emit({type: 'tool/call', data: {turn, step, callId, name, arguments: argsRaw}});
		const onProgress = (update: ToolProgress): void => {
			this.#log.emit({type: 'cardterm/tool-progress', data: {callId, stream: update.stream, text: update.text}, ignorable: true});
		};

		const result = options.settled === undefined ? executor.execute({callId, name, arguments: parseCallArguments(argsRaw), agent: this.#agent, signal: options.signal, onProgress}) : Promise.resolve(options.settled);
		let committed = false;
		return {
			callId,
			result,
			commit: settled => {
				if (!committed) {
					committed = true;
					// The result's own seq makes its message id unique in the log, also after a resume appends to it.
					this.#log.emit(resultEvent(`result-${this.#log.nextSeq}`, turn, step, callId, settled, callEvent));
				}
			},
		};
	}
}

/** The agent loop's argument rule (`call-arguments.ts`): `""` ⇒ `{}`, text that is not JSON or passes the bounds ⇒ the raw string (so typed tools report it). */
export function parseCallArguments(raw: string): unknown {
	const read = readArgumentsText(raw);
	return read.ok ? read.value : raw;
}

/**
The durable `tool/result` projection of a result (contract.md §E3.2): a message `{id, role,
source, content}` holding the content and isError, error info when classed, meta when present.
*/
function resultEvent(id: string, turn: number, step: number, callId: string, result: ToolExecutionResult, call: SessionEvent): EventDraft {
	const info = result.isError ? result.error.info : undefined;
	const content: readonly ContentBlock[] = result.content;
	return {
		type: 'tool/result',
		data: {
			turn,
			step,
			message: {id, role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content, isError: result.isError}]},
			...(info === undefined ? {} : {error: {name: info.name, code: info.code}}),
			...('meta' in result && result.meta !== undefined ? {meta: result.meta} : {}),
		},
		sourceEventSeqs: [call.seq],
		surfaceOp: 'append',
	};
}
