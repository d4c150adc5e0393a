/**
@module The contract's log lines a foreign session is read as: a header, then numbered events
(contract.md §E3). Each foreign reader says what happened (a message, a call, its result,
a refusal, a turn's end) and this writes the lines the reader of cardterm's own logs reads, so
every view, `--json`, the outcome rule and the tallies work on them unchanged.

The header waits until the foreign file said where and when the session ran (its first records may
say neither: Claude Code starts with queue bookkeeping); events are held until then, at most
`HEADER_PATIENCE` records, after which the header is written with what is known.
*/
import type {TodoItem} from '../events/events.js';
import type {ForeignToolCall, ForeignToolResult} from './foreign-views.js';
import {FOREIGN_FORMAT_IDS, FOREIGN_TOOL_SEPARATOR, type ForeignFormatId} from '../../presentation/tool-name.js';

/**
A line made for the log reader: an event's value, which the decoder takes as it is, and its text,
written only when something reads it (the pager's index, a session's summary): a replay of a foreign
file neither writes its lines nor parses them again. A line passed on as it is has only its text.
*/
export class TranslatedLine {
	readonly value: object | undefined;
	#text: string | undefined;

	constructor(value: object | undefined, text?: string) {
		this.value = value;
		this.#text = text;
	}

	get text(): string {
		this.#text ??= JSON.stringify(this.value);
		return this.#text;
	}
}

/** Records read before the header is written with what is known. */
const HEADER_PATIENCE = 64;

/** What a foreign file says about its session. */
export type ForeignHeader = {
	readonly id?: string;
	readonly createdAt?: number;
	readonly cwd?: string;
	readonly title?: string;
	/** The producer's version, when the file records it. */
	readonly version?: string;
};

/** The agent that wrote the session a header was made of (its `producer`), or `undefined` for cardterm's own logs. */
export function foreignAgentOf(header: {readonly [key: string]: unknown}): string | undefined {
	const producer = header.producer;
	if (typeof producer !== 'object' || producer === null || !FOREIGN_FORMAT_IDS.has(String((producer as {format?: unknown}).format))) {
		return undefined;
	}

	const agent = (producer as {agent?: unknown}).agent;
	return typeof agent === 'string' ? agent : undefined;
}

/** Token counts as the contract's usage fields. */
export type ForeignUsage = {
	readonly inputTokens?: number;
	readonly outputTokens?: number;
	readonly reasoningTokens?: number;
	readonly cacheReadTokens?: number;
	readonly cacheWriteTokens?: number;
};

/** A time from a foreign record: an ISO string or epoch ms; `undefined` when there is none. */
export function timeOf(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) {
		return value;
	}

	if (typeof value === 'string') {
		const ms = Date.parse(value);
		return Number.isFinite(ms) ? ms : undefined;
	}

	return undefined;
}

export class ContractLines {
	readonly #agent: string;
	readonly #format: ForeignFormatId;
	#header: ForeignHeader = {};
	#headerWritten = false;
	#records = 0;
	/** The first event is seq 0, as in cardterm's own logs. */
	#seq = -1;
	#time = 0;
	#turn = 0;
	#turnOpen = false;
	#out: TranslatedLine[] = [];
	#held: TranslatedLine[] = [];
	readonly #open = new Set<string>();
	readonly #noted = new Set<string>();

	constructor(agent: string, format: ForeignFormatId) {
		this.#agent = agent;
		this.#format = format;
	}

	/** The agent's tool name as recorded: `<format>:<name>` (the foreign presenter's names). */
	toolName(name: string): string {
		return `${this.#format}${FOREIGN_TOOL_SEPARATOR}${name}`;
	}

	/** What is known of the session so far (later facts fill what earlier ones left out). */
	learn(header: ForeignHeader): void {
		const known = this.#header;
		this.#header = {
			id: known.id ?? header.id,
			createdAt: known.createdAt ?? header.createdAt,
			cwd: known.cwd ?? header.cwd,
			title: known.title ?? header.title,
			version: known.version ?? header.version,
		};
	}

	/** The newest time seen: events without one of their own take it. */
	at(time: number | undefined): this {
		if (time !== undefined && time > this.#time) {
			this.#time = time;
		}

		if (time !== undefined) {
			this.learn({createdAt: time});
		}

		return this;
	}

	get turnOpen(): boolean {
		return this.#turnOpen;
	}

	/** The calls without a result. */
	get openCalls(): ReadonlySet<string> {
		return this.#open;
	}

	/** The person's words: a new turn (the previous one ends completed). */
	user(text: string): void {
		if (text.trim() === '') {
			return;
		}

		this.endTurn('completed');
		this.#turn++;
		this.#turnOpen = true;
		this.#event('turn/start', {turn: this.#turn});
		this.#event('user/message', {role: 'user', content: [{type: 'text', text}], source: {kind: 'user'}, turn: this.#turn}, {surfaceOp: 'append'});
	}

	/** The model's message: its text, its reasoning and the step's usage. */
	assistant(message: {readonly text?: string; readonly reasoning?: string; readonly usage?: ForeignUsage; readonly model?: string; readonly interrupted?: boolean}): void {
		this.#ensureTurn();
		const content = [
			...(message.reasoning === undefined || message.reasoning === '' ? [] : [{type: 'reasoning', text: message.reasoning}]),
			...(message.text === undefined || message.text === '' ? [] : [{type: 'text', text: message.text}]),
		];
		const usage = message.usage === undefined ? undefined : Object.fromEntries(Object.entries(message.usage).filter(([, value]) => Number.isSafeInteger(value) && value > 0));
		if (content.length === 0 && (usage === undefined || Object.keys(usage).length === 0)) {
			return;
		}

		this.#event('assistant/message', {
			turn: this.#turn,
			message: {role: 'assistant', content, ...(message.model === undefined ? {} : {source: {kind: 'model', model: message.model}})},
			...(usage === undefined || Object.keys(usage).length === 0 ? {} : {usage}),
			...(message.interrupted === true ? {interrupted: true} : {}),
		}, {surfaceOp: 'append'});
	}

	/** A tool call starts. */
	call(call: ForeignToolCall): void {
		this.#ensureTurn();
		this.#open.add(call.id);
		const args = {input: call.input ?? null, view: call.view, ...(call.server === undefined ? {} : {server: call.server})};
		this.#event('tool/call', {turn: this.#turn, callId: call.id, name: this.toolName(call.name), arguments: JSON.stringify(args)});
	}

	/** A call the person (or the agent's rules) refused: the approval events that make its result `denied`. */
	refused(callId: string, toolName: string, reason: string): void {
		const id = `foreign-approval-${callId}`;
		this.#event('approval/asked', {id, toolName: this.toolName(toolName), callId, reason});
		this.#event('approval/decided', {id, outcome: 'rejected'});
	}

	/** A call's result. */
	result(result: ForeignToolResult): void {
		if (!this.#open.delete(result.id)) {
			// A result without its call is still shown (the pairing makes it a card of its own).
			this.#ensureTurn();
		}

		const error = result.code === undefined ? {} : {error: {name: result.code === 'ABORTED' ? 'AbortError' : 'ToolError', code: result.code}};
		this.#event('tool/result', {
			turn: this.#turn,
			message: {role: 'user', source: {kind: 'tool', callId: result.id}, content: [{type: 'tool-result', toolCallId: result.id, content: [{type: 'text', text: result.text}], isError: result.isError}]},
			...error,
			...(result.view === undefined && result.statusCode === undefined ? {} : {meta: {...(result.view === undefined ? {} : {view: result.view}), ...(result.statusCode === undefined ? {} : {statusCode: result.statusCode})}}),
		}, {surfaceOp: 'append'});
	}

	/** A todo list the agent wrote. */
	todos(todos: readonly TodoItem[]): void {
		this.#event('todo/write', {todos});
	}

	/** The turn ends: `completed`, `aborted` (the person interrupted it), `error`, … */
	endTurn(kind: string, message?: string): void {
		if (!this.#turnOpen) {
			return;
		}

		this.#turnOpen = false;
		this.#event('turn/end', {turn: this.#turn, reason: {kind, ...(message === undefined ? {} : {message})}});
	}

	/** A notice shown in the transcript (once per `key`): what this reader did not read, a newer version. */
	notice(key: string, message: string): void {
		if (this.#noted.has(key)) {
			return;
		}

		this.#noted.add(key);
		this.#event('foreign/notice', {source: this.#agent, message}, {ignorable: true});
	}

	/** A record was read: after `HEADER_PATIENCE` of them the header is written with what is known. */
	counted(): void {
		this.#records++;
		if (!this.#headerWritten && this.#records >= HEADER_PATIENCE) {
			this.writeHeader();
		}
	}

	/** Writes the header now (once): the held events follow it. */
	writeHeader(): void {
		if (this.#headerWritten) {
			return;
		}

		this.#headerWritten = true;
		const known = this.#header;
		const header = {
			type: 'session',
			version: 0,
			id: known.id ?? 'unknown',
			createdAt: known.createdAt ?? 0,
			...(known.cwd === undefined ? {} : {cwd: known.cwd}),
			...(known.title === undefined ? {} : {title: known.title}),
			producer: {agent: this.#agent, format: this.#format, ...(known.version === undefined ? {} : {version: known.version})},
		};
		this.#out = [...this.#out, new TranslatedLine(undefined, JSON.stringify(header)), ...this.#held];
		this.#held = [];
	}

	/** A line passed as it is (a damaged record: the log reader reports it). */
	raw(text: string): void {
		(this.#headerWritten ? this.#out : this.#held).push(new TranslatedLine(undefined, text));
	}

	/** The lines made since the last call (none until the header is written). */
	take(): TranslatedLine[] {
		const out = this.#out;
		this.#out = [];
		return out;
	}

	#ensureTurn(): void {
		if (!this.#turnOpen) {
			this.#turn++;
			this.#turnOpen = true;
			this.#event('turn/start', {turn: this.#turn});
		}
	}

	#event(type: string, data: object, extra: object = {}): void {
		this.#seq++;
		(this.#headerWritten ? this.#out : this.#held).push(new TranslatedLine({type, seq: this.#seq, time: this.#time, data, ...extra}));
	}
}
