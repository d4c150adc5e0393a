/**
@module The interactive session behind the live screen: turns prompt lines into tool calls (one at a
time, later ones queued), keeps the live snapshot the app draws, hands settled cards to the
scrollback exactly once, and routes approvals to the dialog.
*/
import {readFile} from 'node:fs/promises';
import {isAbsolute, resolve} from 'node:path';
import type {ApprovalAnswer, LiveSnapshot, ScrollbackEntry, SessionModel} from '../../../components/session-model.js';
import type {Approvals} from '../../host/approvals.js';
import {sanitizeInline} from '../../layout/sanitize.js';
import {arrayEntrySource, type EntrySource} from '../../transcript/entry-source.js';
import type {ChildSessionLinks} from '../../transcript/child-session-links.js';
import type {Card} from '../../presentation/card.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import type {FoldChange, SessionFold} from '../../session/fold.js';
import type {TurnProgress} from '../../session/turn-progress.js';
import type {SessionRuntime} from '../../session/session-runtime.js';
import type {ToolSchema} from '../../tools/types.js';
import type {StyledLine} from '../../layout/styled-line.js';
import {mutationTarget, WorkspaceGuard} from '../../builtin/fs.js';
import type {AgentTurns} from '../../host/agent-turns.js';
import {completePromptWord} from './complete.js';
import {LiveCards} from './live-cards.js';
import {LiveChannel} from './live-channel.js';
import {LivePagers} from './live-pagers.js';
import {hiddenHistoryText, HISTORY_ENTRIES, historyWindow} from './resumed-history.js';
import {helpLines, noticeLines} from './notice-lines.js';
import {modelPrompt, parsePromptLine, plainTextMessage, PROMPT_COMMANDS, type ToolRequest} from './prompt-command.js';
import {droppedNotice, heldNotice, linesWord} from './queued-lines.js';
import {toolHelpLines, toolListLines} from './tool-help.js';

export type SessionControllerOptions = {
	readonly cwd: string;
	readonly sessionId: string;
	readonly fold: SessionFold;
	/** Subscribes to what each event changed in the fold. */
	readonly onFoldChange: (listener: (change: FoldChange) => void) => () => void;
	/** The session's approval questions: the dialog shows and answers them. */
	readonly approvals: Approvals;
	readonly runtime: SessionRuntime;
	/** Names of the registered tools (for `TOOL {json}` and completion). */
	readonly toolNames: () => ReadonlySet<string>;
	/** A registered tool's name, description and parameter schema (for `/tools` and `/help TOOL`). */
	readonly toolSchema?: (name: string) => ToolSchema | undefined;
	/** Running background jobs, and a way to hear when that changes. */
	readonly jobs?: {readonly running: () => number; readonly onChange: (listener: () => void) => () => void};
	readonly history: {readonly entries: readonly string[]; add(line: string): void};
	/** Flushes and closes the log, jobs and tools. */
	readonly shutdown: () => Promise<void>;
	/** Where the pager reads the session's cards (default: the cards in memory). */
	readonly pagerSource?: () => Promise<EntrySource & {close?(): unknown}>;
	/** The agent: with a model, a prompt line that is not a command is a turn. */
	readonly agent?: AgentTurns;
	/** The child sessions of subagent cards, beside the session's log (the pager opens them). */
	readonly childSessions?: ChildSessionLinks;
	/** How many entries of a continued session's history the scrollback shows (default `HISTORY_ENTRIES`). */
	readonly historyEntries?: number;
};

/** What waits in the queue: a call the person asked for, or a prompt for the model. */
type QueuedWork = ToolRequest | {readonly kind: 'prompt'; readonly text: string};

type Multiline = {readonly label: string; readonly lines: string[]; readonly done: (text: string) => void};

/**
A streaming step's open tail redraws at most once a frame. A model's deltas arrive many to a
network read, and each redraw of the live frame is a React render (of the agent's tool calls, 4.1
a call were told to the app, 2.3 with this). The snapshot itself is always current (a redraw for any
other reason shows the newest text); only telling the listeners waits. Every other change (an
entry, a card) is told at once.
*/
export const STREAM_FRAME_MS = 16;

export class SessionController implements SessionModel {
	readonly cwd: string;
	readonly sessionId: string;
	readonly childSessions?: ChildSessionLinks;
	readonly #options: SessionControllerOptions;
	readonly #channel = new LiveChannel();
	readonly #cards = new LiveCards();
	readonly #queue: QueuedWork[] = [];
	#snapshot: LiveSnapshot;
	#busy = false;
	/** The queue being worked off, while it is. */
	#draining: Promise<void> | undefined;
	#abort: AbortController | undefined;
	#multiline: Multiline | undefined;
	#problem: string | undefined;
	#closing = false;
	#closed: Promise<void> | undefined;
	/** Queued lines kept, not run, after the user cancelled the call before them (Enter runs them). */
	#held = false;
	/** The workspace rule the file tools apply, to check `/write` and `/edit` paths up front. */
	readonly #guard: WorkspaceGuard;
	/** A prompt is with the model (its turn's progress shows in the status line). */
	#prompting = false;
	/** Open pagers, fed every fold change so they stay live. */
	readonly #pagers = new LivePagers();
	/** When listeners last heard of a change (Date.now ms), and the tail's redraw waiting for its frame. */
	#notifiedAt = Number.NEGATIVE_INFINITY;
	#tailTimer: NodeJS.Timeout | undefined;

	constructor(options: SessionControllerOptions) {
		this.#options = options;
		this.cwd = options.cwd;
		this.sessionId = options.sessionId;
		if (options.childSessions !== undefined) {
			this.childSessions = options.childSessions;
		}

		this.#guard = new WorkspaceGuard({workspace: options.cwd});
		this.#snapshot = this.#buildSnapshot();
		options.onFoldChange(change => {
			this.#pagers.changed(change.entries);

			for (const entry of change.entries) {
				this.#show(entry);
			}

			// A streaming step's tail changes the live frame, and nothing else until its message (told at most
			// once a frame); a model turn's progress (usage, first token, a retry's wait) changes the status line.
			if (change.entries.length > 0 || this.#turnProgress() !== this.#snapshot.turn) {
				this.#changed();
			} else if (change.tailChanged === true) {
				this.#tailChanged();
			}
		});
		options.jobs?.onChange(() => {
			this.#changed();
		});
		options.approvals.subscribe(() => {
			this.#changed();
		});
		this.#showHistory();
	}

	/** An entry the fold produced: a card is tracked until it settles, anything else is final and written now. */
	#show(entry: TranscriptEntry): void {
		this.#pagers.saw(entry);
		if (entry.entry === 'card') {
			this.#track(entry.card);
			return;
		}

		this.#emitScrollback({kind: 'entry', entry});
		this.#options.fold.written(entry);
	}

	/**
	A continued session's entries (the fold started from its log) go to the scrollback as they went the
	first time, so the person sees where the conversation stands. A long history is cut to its newest
	entries (resumed-history.ts), the rest named in a line above them: the pager has all of it.
	*/
	#showHistory(): void {
		const {entries} = this.#options.fold;
		const {from, hidden} = historyWindow(entries.length, this.#options.historyEntries ?? HISTORY_ENTRIES);
		if (hidden > 0) {
			this.#emitScrollback({kind: 'lines', lines: noticeLines(hiddenHistoryText(hidden), 'info')});
		}

		for (let index = 0; index < entries.length; index++) {
			const entry = entries[index]!;
			if (index >= from || (entry.entry === 'card' && entry.card.status === 'running')) {
				this.#show(entry);
				continue;
			}

			// Left out of the scrollback: settled as a written entry is, and released as one would be.
			this.#pagers.saw(entry);
			if (entry.entry === 'card') {
				this.#cards.skip(entry.card.seq);
			}

			this.#options.fold.written(entry);
		}
	}

	get history(): readonly string[] {
		return this.#options.history.entries;
	}

	subscribe(listener: () => void): () => void {
		return this.#channel.subscribe(listener);
	}

	getSnapshot(): LiveSnapshot {
		return this.#snapshot;
	}

	onScrollback(listener: (entry: ScrollbackEntry) => void): () => void {
		return this.#channel.onScrollback(listener);
	}

	/** The transcript in memory, ending with a streaming step's open tail. */
	entries(): readonly TranscriptEntry[] {
		return [...this.#options.fold.entries, ...this.#options.fold.tail];
	}

	/** The transcript for the pager, kept current by the fold's changes until it is closed. */
	async pagerSource(): Promise<EntrySource & {close?(): unknown}> {
		return this.#pagers.open(async () => this.#pagerBase(), () => this.#options.fold.counts);
	}

	async #pagerBase(): Promise<EntrySource & {close?(): unknown}> {
		if (this.#options.pagerSource !== undefined) {
			try {
				return await this.#options.pagerSource();
			} catch (error) {
				this.#emitScrollback({kind: 'lines', lines: noticeLines(`the pager cannot read the session log (${(error as Error).message}); showing the entries in memory`, 'error')});
			}
		}

		return arrayEntrySource(this.entries());
	}

	/** Shows a problem in the status line (a log that cannot be written, say) without stopping the session. */
	reportProblem(problem: string | undefined): void {
		this.#problem = problem;
		this.#changed();
	}

	submit(line: string): void {
		if (this.#closing) {
			return;
		}

		if (this.#multiline !== undefined) {
			// Pasted text of several lines is several lines of the content.
			const parts = line.split('\n');
			let taken = 0;
			while (taken < parts.length && this.#multiline !== undefined) {
				this.#collect(parts[taken++]!);
			}

			const left = parts.slice(taken).filter(part => part !== '').length;
			if (left > 0) {
				// Lines after the closing "." are not run as commands: a paste must not run anything.
				this.#emitScrollback({kind: 'lines', lines: noticeLines(`${linesWord(left)} after the closing "." ignored (not run)`, 'info')});
			}

			return;
		}

		if (this.#held) {
			// Enter runs the held lines (after this one, if it is a command).
			this.#held = false;
			if (line.trim() === '' && this.#queue.length > 0 && !this.#busy) {
				this.#draining = this.#drain();
			}
		}

		if (line.trim() !== '') {
			this.#options.history.add(line);
		}

		const agent = this.#options.agent;
		if (agent !== undefined && line.trim() === '/model') {
			this.#emitScrollback({kind: 'lines', lines: noticeLines(agent.describe(), 'info')});
			return;
		}

		const switchTo = agent === undefined ? undefined : /^\/model\s+(\S+)\s*$/u.exec(line.trim())?.[1];
		if (agent !== undefined && switchTo !== undefined) {
			const said = agent.switchTo(switchTo);
			this.#emitScrollback({kind: 'lines', lines: noticeLines(said.message, said.ok ? 'info' : 'error')});
			this.#changed();
			return;
		}

		const prompt = agent?.model === undefined ? undefined : modelPrompt(line, this.#options.toolNames());
		if (prompt !== undefined) {
			this.#enqueue({kind: 'prompt', text: prompt});
			return;
		}

		const command = parsePromptLine(line, this.#options.toolNames());
		switch (command.kind) {
			case 'tool': {
				this.#enqueue(command);
				break;
			}

			case 'write':
			case 'edit': {
				void this.#startMutation(command.kind, command.path);
				break;
			}

			case 'run': {
				void this.#runScript(command.path);
				break;
			}

			case 'help': {
				this.#emitScrollback({
					kind: 'lines',
					lines: [...this.#helpLines(command.topic), {spans: []}],
					// The command table is laid out for the terminal's width when it is written.
					...(command.topic === undefined ? {fit: (width: number) => [...helpLines(width), {spans: []}]} : {}),
				});
				break;
			}

			case 'tools': {
				this.#emitScrollback({kind: 'lines', lines: [...toolListLines(this.#toolSchemas()), {spans: []}]});
				break;
			}

			case 'clear': {
				this.clearScreen();
				break;
			}

			case 'text': {
				this.#emitScrollback({kind: 'lines', lines: noticeLines(plainTextMessage(command.text), 'error')});
				break;
			}

			case 'usage': {
				this.#emitScrollback({kind: 'lines', lines: noticeLines(command.message, 'error')});
				break;
			}

			case 'exit': {
				void this.close();
				break;
			}

			case 'pager':
			case 'empty': {
				break;
			}

			default: {
				command satisfies never;
			}
		}
	}

	/** Clears the screen (Ctrl+L, `/clear`): what was on it moves to the scrollback; the log keeps everything. */
	clearScreen(): void {
		this.#emitScrollback({kind: 'clear'});
	}

	/** `/help`, or `/help TOOL`: the tool's description and parameters from its schema. */
	#helpLines(topic: string | undefined): StyledLine[] {
		if (topic === undefined) {
			return helpLines();
		}

		const name = topic.replace(/^\//, '');
		const tool = this.#options.toolSchema?.(name);
		if (tool !== undefined) {
			return toolHelpLines(tool);
		}

		const known = PROMPT_COMMANDS.includes(`/${name}`) ? ` (/${name} is a command: see /help)` : '';
		return noticeLines(`/help: no tool named ${sanitizeInline(name)}${known}; /tools lists the tools`, 'error');
	}

	#toolSchemas(): ToolSchema[] {
		const schemas: ToolSchema[] = [];
		for (const name of [...this.#options.toolNames()].sort()) {
			const tool = this.#options.toolSchema?.(name);
			schemas.push(tool ?? {name, description: '', parameters: {}});
		}

		return schemas;
	}

	cancel(): boolean {
		if (this.#multiline !== undefined) {
			this.#multiline = undefined;
			this.#emitScrollback({kind: 'lines', lines: noticeLines('input cancelled', 'info')});
			this.#changed();
			return true;
		}

		if (this.#abort === undefined) {
			if (!this.#held || this.#queue.length === 0) {
				return false;
			}

			const dropped = this.#queue.splice(0);
			this.#held = false;
			this.#emitScrollback({kind: 'lines', lines: noticeLines(droppedNotice(dropped.map(request => requestText(request))), 'info')});
			this.#changed();
			return true;
		}

		// Lines queued behind the call are kept, not run: the user stopped the work and decides (the
		// drain stops before them and says so; Enter runs them, Ctrl+C again drops them).
		this.#held = this.#queue.length > 0;
		this.#abort.abort(new Error('cancelled by the user'));
		this.#changed();
		return true;
	}

	answerApproval(answer: ApprovalAnswer): void {
		this.#options.approvals.answer(answer);
	}

	async complete(line: string, cursor: number): Promise<readonly string[]> {
		return completePromptWord(line, cursor, {cwd: this.cwd, toolNames: this.#options.toolNames()});
	}

	/** Cancels what runs and shuts the session down; every call resolves when that is done. */
	async close(): Promise<void> {
		this.#closed ??= this.#closeNow();
		return this.#closed;
	}

	async #closeNow(): Promise<void> {
		this.#closing = true;
		this.#queue.length = 0;
		this.#abort?.abort(new Error('session closing'));
		this.#options.approvals.close();

		this.#changed();
		// The cancelled call ends first (its process tree stopped, its result recorded), then the log closes.
		await this.#draining;
		await this.#options.shutdown();
	}

	#enqueue(request: QueuedWork): void {
		this.#queue.push(request);
		this.#changed();
		if (!this.#busy) {
			this.#draining = this.#drain();
		}
	}

	async #drain(): Promise<void> {
		this.#busy = true;
		try {
			while (this.#queue.length > 0 && !this.#closing && !this.#held) {
				const request = this.#queue.shift()!;
				this.#abort = new AbortController();
				this.#changed();
				// eslint-disable-next-line no-await-in-loop -- calls and turns run one at a time, in order
				await this.#run(request, this.#abort.signal);
				this.#abort = undefined;
			}

			if (this.#held && !this.#closing) {
				this.#emitScrollback({kind: 'lines', lines: noticeLines(heldNotice(this.#queue.map(request => requestText(request))), 'info')});
			}
		} finally {
			this.#busy = false;
			this.#abort = undefined;
			this.#changed();
		}
	}

	async #run(request: QueuedWork, signal: AbortSignal): Promise<void> {
		if (request.kind === 'prompt') {
			this.#prompting = true;
			try {
				await this.#options.agent!.run(request.text, signal);
			} catch (error) {
				this.#emitScrollback({kind: 'lines', lines: noticeLines((error as Error).message, 'error')});
			} finally {
				this.#prompting = false;
			}

			return;
		}

		await this.#options.runtime.runCall(request.name, request.rawArgs ?? request.args, {signal});
	}

	async #runScript(path: string): Promise<void> {
		const file = isAbsolute(path) ? path : resolve(this.cwd, path);
		try {
			const code = await readFile(file, 'utf8');
			this.#enqueue({kind: 'tool', name: 'run_code', args: {code, description: `Run ${path}`}});
		} catch (error) {
			this.#emitScrollback({kind: 'lines', lines: noticeLines(`/run: cannot read ${path}: ${(error as Error).message}`, 'error')});
		}
	}

	/** `/write` and `/edit`: the path is checked as the tool will check it, before any text is asked for. */
	async #startMutation(operation: 'write' | 'edit', path: string): Promise<void> {
		try {
			await mutationTarget(this.#guard, path, operation);
		} catch (error) {
			this.#emitScrollback({kind: 'lines', lines: noticeLines(`/${operation}: ${(error as Error).message}`, 'error')});
			return;
		}

		if (operation === 'write') {
			this.#startMultiline(`content of ${path}`, text => {
				this.#enqueue({kind: 'tool', name: 'write', args: {file_path: path, content: text}});
			});
			return;
		}

		this.#startMultiline(`text to replace in ${path}`, oldText => {
			this.#startMultiline(`replacement text for ${path}`, newText => {
				this.#enqueue({kind: 'tool', name: 'edit', args: {file_path: path, old_string: oldText, new_string: newText}});
			});
		});
	}

	#startMultiline(label: string, done: (text: string) => void): void {
		this.#multiline = {label, lines: [], done};
		this.#emitScrollback({kind: 'lines', lines: noticeLines(`Type the ${label}; end with a line holding only "." (Ctrl+C cancels).`, 'info')});
		this.#changed();
	}

	#collect(line: string): void {
		const multiline = this.#multiline!;
		if (line === '.') {
			this.#multiline = undefined;
			multiline.done(multiline.lines.length === 0 ? '' : `${multiline.lines.join('\n')}\n`);
		} else {
			multiline.lines.push(line);
			// Echo the line into the scrollback: the prompt shows one line at a time, and the user must see what was typed.
			this.#emitScrollback({kind: 'lines', lines: [{spans: [{text: '│ ', style: {dim: true}}, {text: sanitizeInline(line)}]}]});
		}

		this.#changed();
	}

	#track(card: Card): void {
		if (this.#cards.settles(card)) {
			const entry: TranscriptEntry = {entry: 'card', card};
			this.#emitScrollback({kind: 'entry', entry});
			this.#options.fold.written(entry);
		}
	}

	#emitScrollback(entry: ScrollbackEntry): void {
		this.#channel.emit(entry);
	}

	#changed(): void {
		clearTimeout(this.#tailTimer);
		this.#tailTimer = undefined;
		this.#notifiedAt = Date.now();
		this.#snapshot = this.#buildSnapshot();
		this.#channel.notify();
	}

	/** The open tail changed: told now if the last redraw is a frame old, else once at the end of this frame. */
	#tailChanged(): void {
		this.#snapshot = this.#buildSnapshot();
		if (this.#tailTimer !== undefined) {
			return;
		}

		const wait = this.#notifiedAt + STREAM_FRAME_MS - Date.now();
		if (wait <= 0) {
			this.#changed();
			return;
		}

		this.#tailTimer = setTimeout(() => {
			this.#tailTimer = undefined;
			this.#notifiedAt = Date.now();
			this.#channel.notify();
		}, wait);
	}

	/** The running model turn's progress; commands the person runs are turns too, but their cards say it all. */
	#turnProgress(): TurnProgress | undefined {
		return this.#prompting ? this.#options.fold.turnProgress : undefined;
	}

	#buildSnapshot(): LiveSnapshot {
		const multiline = this.#multiline;
		const turn = this.#turnProgress();
		const running = this.#cards.running();
		const runningEntries: TranscriptEntry[] = running.map(card => ({entry: 'card', card}));
		for (const entry of this.#options.fold.tail) {
			runningEntries.push(entry);
		}

		return {
			running,
			runningEntries,
			counts: this.#options.fold.counts,
			jobsRunning: this.#options.jobs?.running() ?? 0,
			...(this.#options.approvals.current === undefined ? {} : {approval: this.#options.approvals.current}),
			...(multiline === undefined ? {} : {multiline: {label: multiline.label, lines: multiline.lines.length}}),
			queued: this.#queue.length,
			...(turn === undefined ? {} : {turn}),
			...(this.#options.agent === undefined ? {} : {model: this.#options.agent.status, modelConnected: this.#options.agent.model !== undefined}),
			...(this.#held ? {queueHeld: true} : {}),
			...(this.#problem === undefined ? {} : {problem: this.#problem}),
			closing: this.#closing,
		};
	}
}

/** A queued line as the user typed it (the held and dropped notices shorten it). */
function requestText(request: QueuedWork): string {
	if (request.kind === 'prompt') {
		return request.text;
	}

	const args = request.args as {command?: unknown} | undefined;
	return request.name === 'bash' && typeof args?.command === 'string' ? `!${args.command}` : `${request.name} ${request.rawArgs ?? JSON.stringify(request.args)}`;
}
