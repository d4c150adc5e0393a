/**
@module ACP → cardterm events: the one place that decides what an agent's `session/update`s, prompt
turns and permission requests become in the contract's event vocabulary (contract.md §E3).
Every view draws from these events, live and on replay, so what the live session showed is what
its log folds back to. The table is docs/acp-mapping.md.

A prompt turn is `turn/start`, `step/start`, the person's `user/message`, then what the agent
streams. Text and thought chunks are `assistant/chunk` deltas of one step; the step's
`assistant/message` is written before the next tool call (or the turn's end), and text after a
tool call opens the next step, so each step reads as the contract's "message, then its calls".
Steps end together at the turn's end: an ACP call may still run when the agent talks again, and a
step's end would mark it interrupted. A message past `MESSAGE_MAX_CHARS` is cut there with a notice,
the agent's text is dropped until the person's next prompt, and the client is asked to cancel the
turn (`onMessageCut`), which then ends for that reason.
*/
import type {ImageAttachment} from '../tools/content.js';
import {isJsonObject} from '../json/is-plain-record.js';
import type {JsonValue} from '../json/json-value.js';
import type {ContentBlock} from '../tools/content.js';
import type {FileDiff} from '../tools/views.js';
import {cancellationLine} from '../tools/failure-result.js';
import type {EventDraft} from '../session/events/event-log.js';
import type {SessionEvent, TodoItem, TurnEndData} from '../session/events/events.js';
import {messageMaxChars} from '../session/recorder/message-bound.js';
import {acpToolName, type AcpCallArguments, type AcpResultMeta} from './acp-presenter.js';
import {contentBlockText, contentText, isFinalStatus, mergeToolCall, metaTerminalOutput, newToolCall, terminalIds, type AcpTerminalOutput, type AcpToolCallState} from './tool-call-state.js';
import {plainPrompt, userMessageFields, type UserPrompt} from '../session/events/user-prompt.js';

type Fields = Record<string, unknown>;

/** Where events go: the session's event log (numbered, written, folded). */
export type EventSink = {emit(draft: EventDraft): SessionEvent};

/** How a prompt turn ended: the agent's stop reason, or a failure (the request failed, the agent died). */
export type TurnEnd = {readonly stopReason: string} | {readonly error: string};

/** The permission option kinds ACP defines, as cardterm records the decision. */
const APPROVAL_OUTCOMES: Readonly<Record<string, string>> = {
	allow_once: 'allowed-once',
	allow_always: 'allowed-always',
	reject_once: 'rejected',
	reject_always: 'rejected-always',
};

/** The recorded outcome of a permission answer: the chosen option's kind, or `cancelled`. */
function approvalOutcome(kind: string | undefined): string {
	return kind === undefined ? 'cancelled' : APPROVAL_OUTCOMES[kind] ?? kind;
}

const PLAN_STATUSES = new Set(['pending', 'in_progress', 'completed']);

type Block = {kind: 'text' | 'reasoning'; text: string};

type OpenCall = {
	state: AcpToolCallState;
	readonly turn: number | undefined;
	readonly step: number | undefined;
	readonly seq: number;
	/** Text already sent as live output (agents that resend the whole text on each update). */
	shown: string;
	/** Characters of live output recorded so far (capped: the result holds the output that counts). */
	progress: number;
	/** Files the agent wrote through the client while this call ran (the call's own diff, when it sends none). */
	writes?: FileDiff[];
};

/** Live output recorded per call; past it the card shows the output when the call ends. */
export const PROGRESS_LOG_LIMIT = 256 * 1024;

export type AcpEventsOptions = {
	/** Output of a terminal this client runs, for the card that shows it. */
	readonly terminalOutput?: (terminalId: string) => AcpTerminalOutput | undefined;
	/** The agent's name, recorded as the assistant messages' model. */
	readonly agentName?: string;
	/** The agent's message passed `MESSAGE_MAX_CHARS` (the rest of its turn's text is dropped): the client cancels the turn. */
	readonly onMessageCut?: () => void;
	/** Characters one message may hold (default `messageMaxChars()`: `MESSAGE_MAX_CHARS`, or lower in a test). */
	readonly maxMessageChars?: number;
};

/** Compactions an agent may have open at once (each holds its streamed summary). */
const OPEN_COMPACTIONS = 16;

export class AcpEvents {
	readonly #log: EventSink;
	readonly #options: AcpEventsOptions;
	/** Characters one message may hold. */
	readonly #maxChars: number;
	#turn = 0;
	#step = 0;
	#inTurn = false;
	#stepHasCalls = false;
	/** The open turn is a prompt the person typed here (not a loaded history). */
	#prompted = false;
	/** The agent said or did something in the open turn. */
	#agentSpoke = false;
	#blocks: Block[] = [];
	#blockIndex = 0;
	/** Characters of the message being streamed (`#blocks`). */
	#blockChars = 0;
	/** The open turn's text passed the bound (it ends for that reason). */
	#cut = false;
	/** Since a cut, until the person's next prompt: the agent's text is dropped (one that ignores the cancel would fill turn after turn). */
	#silenced = false;
	#messages = 0;
	#user = '';
	#approvals = 0;
	#localCalls = 0;
	#agentName: string;
	/** Calls with no result yet, by id. */
	readonly #open = new Map<string, OpenCall>();
	/** Which open call shows a terminal's output. */
	readonly #terminalCall = new Map<string, string>();
	/** The latest call state by id, also after its result (a late update is then ignored). */
	readonly #settled = new Set<string>();
	/** The agent's compactions still open (`compaction_update` in progress), by id: the summary streamed so far. */
	readonly #compactions = new Map<string, {summary: string}>();

	constructor(log: EventSink, options: AcpEventsOptions = {}) {
		this.#log = log;
		this.#options = options;
		this.#maxChars = options.maxMessageChars ?? messageMaxChars();
		this.#agentName = options.agentName ?? 'agent';
	}

	/** The agent's name, once `initialize` said it: the model of its messages. */
	named(name: string): void {
		this.#agentName = name;
	}

	get turnOpen(): boolean {
		return this.#inTurn;
	}

	/** The running turn's number (0 before the first). */
	get turn(): number {
		return this.#turn;
	}

	/** Open a prompt turn for what the person typed (and what its `@` references attached, as it was sent), with its images. */
	startTurn(prompt: string | UserPrompt, images: readonly ImageAttachment[] = []): void {
		this.endTurn({stopReason: 'end_turn'});
		this.#silenced = false;
		this.#openTurn();
		this.#prompted = true;
		this.#emitUser(typeof prompt === 'string' ? plainPrompt(prompt) : prompt, images);
	}

	/** Close the turn: the step's message, cancelled calls' results, the steps' and the turn's ends. */
	endTurn(end: TurnEnd): void {
		if (!this.#inTurn) {
			return;
		}

		this.#flushUser();
		this.#flushAssistant();
		const cancelled = 'stopReason' in end && end.stopReason === 'cancelled';
		if (cancelled) {
			// A cancelled turn settles its running calls as the contract's cancellations, each keeping what it had shown.
			for (const call of [...this.#open.values()]) {
				if (call.turn === this.#turn) {
					this.#settleCancelled(call);
				}
			}
		}

		for (let step = 1; step <= this.#step; step++) {
			this.#log.emit({type: 'step/end', data: {turn: this.#turn, step}});
		}

		// A turn cancelled because its text passed the bound ends for that reason, not as the person's cancel.
		const reason = this.#cut && !('error' in end) ? {kind: 'max-tokens', message: `the agent's message was cut at cardterm's bound of ${this.#maxChars.toLocaleString('en-US')} characters; the turn was cancelled`} : turnReason(end);
		this.#log.emit({type: 'turn/end', data: {turn: this.#turn, reason}});
		this.#inTurn = false;
		this.#prompted = false;
		this.#cut = false;
	}


	/** `session/load` replays the conversation as updates (each person's message opens a turn of its own); this closes the last. */
	endHistory(): void {
		this.endTurn({stopReason: 'end_turn'});
	}

	/** One `session/update`'s `update`. Unknown kinds are named in a notice and skipped. */
	update(update: unknown): void {
		if (!isJsonObject(update) || typeof update.sessionUpdate !== 'string') {
			this.notice('skipped a session/update without a sessionUpdate kind');
			return;
		}

		const kind = update.sessionUpdate;
		switch (kind) {
			case 'user_message_chunk': {
				if (this.#prompted) {
					// The prompt of a live turn is recorded already; an agent echoing it adds nothing.
					return;
				}

				this.#flushAssistant();
				if (!this.#inTurn || this.#agentSpoke) {
					// A person's message after the agent spoke (a loaded history) is the next turn.
					this.#reopenForUser();
				}

				// A loaded history's message is bounded as the agent's are.
				this.#user += chunkText(update.content).slice(0, Math.max(0, this.#maxChars - this.#user.length));
				return;
			}

			case 'agent_message_chunk':
			case 'agent_thought_chunk': {
				if (this.#silenced) {
					return;
				}

				this.#flushUser();
				this.#ensureTurn();
				if (this.#stepHasCalls) {
					this.#nextStep();
				}

				this.#appendChunk(kind === 'agent_message_chunk' ? 'text' : 'reasoning', chunkText(update.content));
				return;
			}

			case 'tool_call':
			case 'tool_call_update': {
				this.#toolCall(update);
				return;
			}

			case 'plan': {
				this.#beforeEntry();
				this.#log.emit({type: 'todo/write', data: {todos: planTodos(update.entries)}});
				return;
			}

			case 'available_commands_update': {
				this.#log.emit({type: 'acp/commands', data: {commands: commandList(update.availableCommands)}, ignorable: true});
				return;
			}

			case 'current_mode_update': {
				if (typeof update.currentModeId === 'string') {
					this.mode(update.currentModeId);
				}

				return;
			}

			case 'usage_update': {
				this.#log.emit({type: 'acp/usage', data: usageData(update), ignorable: true});
				return;
			}

			case 'session_info_update': {
				if (typeof update.title === 'string' && update.title.trim() !== '') {
					this.#log.emit({type: 'session/title', data: {title: update.title}});
				}

				return;
			}

			case 'config_option_update': {
				this.#log.emit({type: 'acp/config', data: {configOptions: update.configOptions ?? null}, ignorable: true});
				return;
			}

			case 'compaction_update':
			case 'compaction_summary_chunk': {
				this.#compaction(update);
				return;
			}

			case 'notice': {
				const title = typeof update.title === 'string' ? update.title : 'notice';
				this.notice(typeof update.description === 'string' && update.description !== '' ? `${title}\n${update.description}` : title);
				return;
			}

			default: {
				this.notice(`skipped a session/update of unknown kind "${kind}"`);
			}
		}
	}

	/** A line cardterm says about the session (a bad frame, the agent's exit), recorded as an ignorable notice. */
	/**
	The agent's mode is `modeId` now (its `current_mode_update`, or the answer to cardterm's
	`session/set_mode`, `by` the key or `/mode`): recorded once, though both may say it.
	*/
	mode(modeId: string, by?: 'key' | 'command'): void {
		if (modeId === this.#mode) {
			return;
		}

		this.#mode = modeId;
		this.#beforeEntry();
		this.#log.emit({type: 'acp/mode', data: {modeId, summary: `mode: ${modeId}${by === 'key' ? ' (Shift+Tab)' : by === 'command' ? ' (/mode)' : ''}`, ...(by === undefined ? {} : {by})}, ignorable: true});
	}

	/** The mode last recorded. */
	#mode: string | undefined;

	notice(text: string): void {
		this.#beforeEntry();
		this.#log.emit({type: 'acp/notice', data: {text}, ignorable: true});
	}

	/** A permission request: its call (created if the request is the first we hear of it) and `approval/asked`. */
	askPermission(toolCall: unknown, options: ReadonlyArray<{readonly name: string; readonly kind: string}>): string {
		const fields = isJsonObject(toolCall) ? toolCall : {};
		const callId = typeof fields.toolCallId === 'string' ? fields.toolCallId : `permission-${this.#approvals + 1}`;
		const call = this.#open.get(callId);
		if (call === undefined) {
			this.#startCall(newToolCall(callId, fields));
		} else {
			call.state = mergeToolCall(call.state, fields);
		}

		const open = this.#open.get(callId)!;
		const id = `approval-${++this.#approvals}`;
		const offered = options.map(option => option.name).join(' / ');
		this.#log.emit({type: 'approval/asked', data: {id, toolName: acpToolName(open.state.kind), callId, reason: `${open.state.title === '' ? 'tool call' : open.state.title} · ${offered}`}});
		return id;
	}

	/** The answer to a permission request: the chosen option's kind, or undefined when it was cancelled. */
	decidePermission(id: string, kind: string | undefined): void {
		this.#log.emit({type: 'approval/decided', data: {id, outcome: approvalOutcome(kind)}});
	}

	/** Live output of a terminal this client runs; the card that names it shows it. */
	terminalOutput(terminalId: string, text: string): void {
		const callId = this.#terminalCall.get(terminalId);
		const call = callId === undefined ? undefined : this.#open.get(callId);
		if (call !== undefined) {
			this.#progress(call, text);
		}
	}

	/**
	A call cardterm makes for the agent (a file it writes through `fs/write_text_file`), recorded as
	the reference tool's call so its card is that tool's card; `settle` records its result.
	*/
	localCall(name: string, args: unknown): {settle(result: {readonly content: readonly ContentBlock[]; readonly isError: boolean; readonly error?: {readonly name: string; readonly code: string}; readonly meta?: unknown}): void} {
		this.#beforeEntry();
		const callId = `acp-client-${++this.#localCalls}`;
		const where = this.#inTurn ? {turn: this.#turn, step: this.#step} : {};
		const call = this.#log.emit({type: 'tool/call', data: {...where, callId, name, arguments: JSON.stringify(args)}});
		return {
			settle: result => {
				this.#log.emit(resultDraft(callId, where, call.seq, result));
			},
		};
	}

	/**
	The open call a client-side file write belongs to: the newest whose diff or locations name the
	file (`absolute` resolves a path the agent sent, relative ones against the workspace).
	*/
	callNaming(file: string, absolute: (path: string) => string): string | undefined {
		const calls = [...this.#open.values()];
		for (let index = calls.length - 1; index >= 0; index--) {
			const {state} = calls[index]!;
			const paths = [...state.locations.map(location => location.path), ...state.content.flatMap(item => item.type === 'diff' ? [item.path] : [])];
			if (paths.some(path => absolute(path) === file)) {
				return state.toolCallId;
			}
		}

		return undefined;
	}

	/**
	A file the agent wrote through the client as part of its call `callId`: no card of its own (the
	call's card is the change); recorded as an ignorable `acp/write` (with the change `/undo` takes
	back), and the call's diff if it ends without one.
	*/
	callWrote(callId: string, write: FileDiff, change?: JsonValue): void {
		const call = this.#open.get(callId);
		if (call !== undefined) {
			call.writes = [...call.writes ?? [], write];
		}

		// `change`: what `/undo` needs to take the write back (its hunks, or a created file's text).
		this.#log.emit({type: 'acp/write', data: {callId, path: write.path, ...(change === undefined ? {} : {change})}, ignorable: true});
	}

	#toolCall(update: Fields): void {
		if (typeof update.toolCallId !== 'string') {
			this.notice(`skipped a ${String(update.sessionUpdate)} without a toolCallId`);
			return;
		}

		const open = this.#open.get(update.toolCallId);
		if (open === undefined) {
			if (update.sessionUpdate === 'tool_call_update' && this.#settled.has(update.toolCallId)) {
				// A call already settled (some agents send its end twice): its card does not change.
				return;
			}

			this.#startCall(newToolCall(update.toolCallId, update));
		} else {
			open.state = mergeToolCall(open.state, update);
		}

		const call = this.#open.get(update.toolCallId)!;
		this.#linkTerminals(call);
		if (isFinalStatus(call.state.status)) {
			this.#settleFinal(call);
		} else {
			this.#showText(call);
		}
	}

	#startCall(state: AcpToolCallState): void {
		this.#flushUser();
		this.#ensureTurn();
		this.#flushAssistant();
		this.#stepHasCalls = true;
		this.#agentSpoke = true;
		const args: AcpCallArguments = {title: state.title, kind: state.kind, ...(state.rawInput === undefined ? {} : {rawInput: state.rawInput}), content: state.content, locations: state.locations};
		const event = this.#log.emit({type: 'tool/call', data: {turn: this.#turn, step: this.#step, callId: state.toolCallId, name: acpToolName(state.kind), arguments: JSON.stringify(args)}});
		this.#settled.delete(state.toolCallId);
		this.#open.set(state.toolCallId, {state, turn: this.#turn, step: this.#step, seq: event.seq, shown: '', progress: 0});
	}

	#linkTerminals(call: OpenCall): void {
		for (const terminalId of terminalIds(call.state.content)) {
			if (this.#terminalCall.get(terminalId) === call.state.toolCallId) {
				continue;
			}

			this.#terminalCall.set(terminalId, call.state.toolCallId);
			// What the terminal printed before the card named it.
			const sofar = this.#options.terminalOutput?.(terminalId);
			if (sofar !== undefined && sofar.output !== '') {
				this.#progress(call, sofar.output);
			}
		}
	}

	/** Text an agent sends while the call runs is its live output (only what is new, for agents that resend it whole). */
	#showText(call: OpenCall): void {
		if (terminalIds(call.state.content).length > 0) {
			return;
		}

		const text = contentText(call.state.content);
		if (text === call.shown) {
			return;
		}

		const added = text.startsWith(call.shown) ? text.slice(call.shown.length) : `\n${text}`;
		call.shown = text;
		this.#progress(call, added);
	}

	/** Live output of a running call, recorded up to `PROGRESS_LOG_LIMIT` (a flooding command must not flood the log). */
	#progress(call: OpenCall, text: string): void {
		const room = PROGRESS_LOG_LIMIT - call.progress;
		if (room <= 0) {
			return;
		}

		const kept = text.length > room ? `${text.slice(0, room)}\n[live output stops here; the card shows the output when the call ends]\n` : text;
		call.progress += text.length;
		this.#log.emit({type: 'cardterm/tool-progress', data: {callId: call.state.toolCallId, stream: 'stdout', text: kept}, ignorable: true});
	}

	#settleFinal(call: OpenCall): void {
		const {state} = call;
		const terminal = this.#terminalOf(state);
		const text = contentText(state.content) || terminal?.output || rawText(state.rawOutput);
		this.#settle(call, {content: text === '' ? [] : [{type: 'text', text}], isError: state.status === 'failed', meta: this.#resultMeta(call, terminal)});
	}

	/**
	A call the turn's cancel stopped: the contract's cancellation, then what the call had shown (its
	terminal's output, or its text), as a native command's cancellation keeps its output.
	*/
	#settleCancelled(call: OpenCall): void {
		const terminal = this.#terminalOf(call.state);
		const shown = terminal?.output || contentText(call.state.content);
		const content: ContentBlock[] = [{type: 'text', text: cancellationLine('ABORTED')}, ...(shown === '' ? [] : [{type: 'text' as const, text: shown}])];
		this.#settle(call, {content, isError: true, error: {name: 'AbortError', code: 'ABORTED'}, meta: this.#resultMeta(call, terminal)});
	}

	/** The `meta` of an ACP call's result: the call as it ended, its terminal's output, the writes it made. */
	#resultMeta(call: OpenCall, terminal: AcpTerminalOutput | undefined): AcpResultMeta {
		const {state} = call;
		const acp: AcpResultMeta['acp'] = {
			title: state.title,
			kind: state.kind,
			status: state.status,
			...(state.rawInput === undefined ? {} : {rawInput: state.rawInput}),
			...(state.rawOutput === undefined ? {} : {rawOutput: state.rawOutput}),
			content: state.content,
			locations: state.locations,
			...(state.meta === undefined ? {} : {meta: state.meta}),
		};
		const writes = call.writes?.filter(write => !state.content.some(item => item.type === 'diff' && item.path === write.path)) ?? [];
		return {acp, ...(terminal === undefined ? {} : {terminal}), ...(writes.length === 0 ? {} : {writes})};
	}

	#terminalOf(state: AcpToolCallState): AcpTerminalOutput | undefined {
		for (const terminalId of terminalIds(state.content)) {
			const ours = this.#options.terminalOutput?.(terminalId);
			if (ours !== undefined) {
				return ours;
			}
		}

		return metaTerminalOutput(state.meta);
	}

	#settle(call: OpenCall, result: {readonly content: readonly ContentBlock[]; readonly isError: boolean; readonly error?: {readonly name: string; readonly code: string}; readonly meta?: unknown}): void {
		const id = call.state.toolCallId;
		this.#open.delete(id);
		this.#settled.add(id);
		for (const [terminalId, callId] of this.#terminalCall) {
			if (callId === id) {
				this.#terminalCall.delete(terminalId);
			}
		}

		const where = call.turn === undefined ? {} : {turn: call.turn, step: call.step};
		this.#log.emit(resultDraft(id, where, call.seq, result));
	}

	#openTurn(): void {
		this.#turn++;
		this.#step = 0;
		this.#inTurn = true;
		this.#agentSpoke = false;
		this.#log.emit({type: 'turn/start', data: {turn: this.#turn}});
		this.#nextStep();
	}

	#nextStep(): void {
		this.#flushAssistant();
		this.#step++;
		this.#stepHasCalls = false;
		this.#messages = 0;
		this.#log.emit({type: 'step/start', data: {turn: this.#turn, step: this.#step}});
	}

	/** Updates outside a prompt turn (a loaded history, an agent that talks first) get a turn of their own. */
	#ensureTurn(): void {
		if (!this.#inTurn) {
			this.#openTurn();
		}
	}

	#reopenForUser(): void {
		if (this.#inTurn) {
			this.endTurn({stopReason: 'end_turn'});
		}

		this.#openTurn();
	}

	#emitUser(prompt: UserPrompt, images: readonly ImageAttachment[] = []): void {
		this.#log.emit({type: 'user/message', data: {id: `acp-u-${this.#turn}`, role: 'user', ...userMessageFields(prompt, images), source: {kind: 'user'}}, surfaceOp: 'append'});
	}

	#flushUser(): void {
		if (this.#user !== '') {
			const text = this.#user;
			this.#user = '';
			this.#emitUser(plainPrompt(text));
		}
	}

	/** Before an entry of its own: the person's and the agent's text so far come first. */
	/**
	ACP's `compaction_update` and `compaction_summary_chunk` (docs/acp-mapping.md): the first update of
	an id opens a compaction (`compaction/start`), summary chunks accumulate (bounded as messages are),
	and its end is the compaction card — completed: `compaction/summary` with the summary the agent
	retained, then `compaction/end`; failed or cancelled: `compaction/end` with the error.
	*/
	#compaction(update: Readonly<Record<string, unknown>>): void {
		const id = update.compactionId;
		if (typeof id !== 'string' || id === '') {
			this.notice(`skipped a ${String(update.sessionUpdate)} without a compactionId`);
			return;
		}

		let open = this.#compactions.get(id);
		if (open === undefined) {
			this.#beforeEntry();
			// An agent that opens compactions and never ends them keeps the newest few open, not all.
			if (this.#compactions.size >= OPEN_COMPACTIONS) {
				this.#compactions.delete(this.#compactions.keys().next().value!);
			}

			open = {summary: ''};
			this.#compactions.set(id, open);
			this.#log.emit({type: 'compaction/start', data: {compactionId: id, turn: this.#inTurn ? this.#turn : null, trigger: this.#agentName}});
		}

		if (update.sessionUpdate === 'compaction_summary_chunk') {
			open.summary = (open.summary + chunkText(update.content)).slice(0, this.#maxChars);
			return;
		}

		if (Array.isArray(update.summary)) {
			open.summary = update.summary.map(block => chunkText(block)).join('').slice(0, this.#maxChars);
		} else if (update.summary === null) {
			open.summary = '';
		}

		// `in_progress`, or a status this version does not know (the schema leaves it open): still running.
		const status = update.status;
		if (status !== 'completed' && status !== 'failed' && status !== 'cancelled') {
			return;
		}

		this.#beforeEntry();
		this.#compactions.delete(id);
		const turn = this.#inTurn ? this.#turn : null;
		if (status === 'completed') {
			const summary = open.summary.trim();
			this.#log.emit({type: 'compaction/summary', data: {compactionId: id, trigger: this.#agentName, ...compactionMeta(update._meta), ...(summary === '' ? {} : {summary: [{type: 'text', text: summary}]})}});
			this.#log.emit({type: 'compaction/end', data: {compactionId: id, turn}});
			return;
		}

		const error = typeof update.error === 'string' && update.error.trim() !== '' ? update.error : (status === 'cancelled' ? 'cancelled' : 'the agent reported it failed');
		this.#log.emit({type: 'compaction/end', data: {compactionId: id, turn, trigger: this.#agentName, error}});
	}

	#beforeEntry(): void {
		this.#flushUser();
		this.#flushAssistant();
	}

	#appendChunk(kind: Block['kind'], whole: string): void {
		if (whole === '') {
			return;
		}

		this.#agentSpoke = true;
		const room = this.#maxChars - this.#blockChars;
		const text = whole.length > room ? whole.slice(0, room) : whole;
		this.#blockChars += text.length;
		if (text.length < whole.length) {
			this.#cut = true;
			this.#silenced = true;
		}

		if (text !== '') {
			this.#appendText(kind, text);
		}

		if (this.#cut) {
			this.notice(`the agent's message passed cardterm's bound of ${this.#maxChars.toLocaleString('en-US')} characters: the rest of this turn's text is not kept, and the turn is cancelled`);
			this.#options.onMessageCut?.();
		}
	}

	#appendText(kind: Block['kind'], text: string): void {
		const last = this.#blocks.at(-1);
		if (last?.kind === kind) {
			last.text += text;
		} else {
			this.#blocks.push({kind, text});
			this.#blockIndex = this.#blocks.length - 1;
			this.#log.emit({type: 'assistant/chunk', data: {turn: this.#turn, step: this.#step, chunk: {type: 'block-start', index: this.#blockIndex, blockType: kind}}});
		}

		this.#log.emit({type: 'assistant/chunk', data: {turn: this.#turn, step: this.#step, chunk: {type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index: this.#blockIndex, text}}});
	}

	#flushAssistant(): void {
		if (this.#blocks.length === 0) {
			return;
		}

		const content = this.#blocks.map(block => ({type: block.kind, text: block.text}));
		this.#blocks = [];
		this.#blockChars = 0;
		this.#messages++;
		this.#log.emit({
			type: 'assistant/message',
			data: {turn: this.#turn, step: this.#step, message: {id: `acp-a-${this.#turn}-${this.#step}-${this.#messages}`, role: 'assistant', content, source: {kind: 'model', provider: 'acp', model: this.#agentName}}},
			surfaceOp: 'append',
		});
	}
}

function resultDraft(callId: string, where: {turn?: number; step?: number | undefined}, callSeq: number, result: {readonly content: readonly ContentBlock[]; readonly isError: boolean; readonly error?: {readonly name: string; readonly code: string}; readonly meta?: unknown}): EventDraft {
	return {
		type: 'tool/result',
		data: {
			...where,
			message: {role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content: result.content, isError: result.isError}]},
			...(result.error === undefined ? {} : {error: result.error}),
			...(result.meta === undefined ? {} : {meta: result.meta}),
		},
		sourceEventSeqs: [callSeq],
		surfaceOp: 'append',
	};
}

function chunkText(content: unknown): string {
	const item = contentBlockText(content);
	return item === undefined ? '' : item.type === 'text' ? item.text : item.type === 'other' ? item.label : '';
}

/**
The tokens before and after a compaction where the agent's `_meta` says them: Claude Code's adapter
writes `jetbrains.air.contextCompaction` `{preTokens, postTokens, trigger}` on its completed update.
*/
function compactionMeta(meta: unknown): {tokensBefore?: number; tokensAfter?: number} {
	const jetbrains = isJsonObject(meta) && isJsonObject(meta.jetbrains) ? meta.jetbrains : undefined;
	const air = jetbrains !== undefined && isJsonObject(jetbrains.air) ? jetbrains.air : undefined;
	const facts = air !== undefined && isJsonObject(air.contextCompaction) ? air.contextCompaction : undefined;
	const count = (value: unknown): number | undefined => (Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : undefined);
	const before = count(facts?.preTokens);
	const after = count(facts?.postTokens);
	return {...(before === undefined ? {} : {tokensBefore: before}), ...(after === undefined ? {} : {tokensAfter: after})};
}

function rawText(rawOutput: unknown): string {
	if (rawOutput === undefined || rawOutput === null) {
		return '';
	}

	return typeof rawOutput === 'string' ? rawOutput : JSON.stringify(rawOutput, null, 2) ?? '';
}

/** ACP plan entries as the todo list (the statuses coincide; priority has no place in it). */
function planTodos(entries: unknown): TodoItem[] {
	const todos: TodoItem[] = [];
	if (Array.isArray(entries)) {
		for (const entry of entries) {
			if (isJsonObject(entry) && typeof entry.content === 'string') {
				const status = typeof entry.status === 'string' && PLAN_STATUSES.has(entry.status) ? entry.status as TodoItem['status'] : 'pending';
				todos.push({content: entry.content, status});
			}
		}
	}

	return todos;
}

/** The agent's slash commands: name, description, and the input hint when it has one. */
export type AcpCommand = {readonly name: string; readonly description: string; readonly hint?: string};

function commandList(value: unknown): AcpCommand[] {
	const commands: AcpCommand[] = [];
	if (Array.isArray(value)) {
		for (const item of value) {
			if (isJsonObject(item) && typeof item.name === 'string') {
				const hint = isJsonObject(item.input) && typeof item.input.hint === 'string' ? {hint: item.input.hint} : {};
				commands.push({name: item.name, description: typeof item.description === 'string' ? item.description : '', ...hint});
			}
		}
	}

	return commands;
}

function usageData(update: Fields): Fields {
	const cost = isJsonObject(update.cost) && typeof update.cost.amount === 'number' && typeof update.cost.currency === 'string' ? {cost: {amount: update.cost.amount, currency: update.cost.currency}} : {};
	return {
		...(typeof update.used === 'number' ? {used: update.used} : {}),
		...(typeof update.size === 'number' ? {size: update.size} : {}),
		...cost,
	};
}

function turnReason(end: TurnEnd): NonNullable<TurnEndData['reason']> {
	if ('error' in end) {
		return {kind: 'error', error: {message: end.error}};
	}

	switch (end.stopReason) {
		case 'end_turn': {
			return {kind: 'completed'};
		}

		case 'cancelled': {
			return {kind: 'aborted', reason: {kind: 'user'}};
		}

		case 'max_tokens': {
			return {kind: 'max-tokens'};
		}

		default: {
			// max_turn_requests, refusal, and reasons of newer ACP versions: named as the agent sent them.
			return {kind: end.stopReason.replaceAll('_', ' ')};
		}
	}
}
