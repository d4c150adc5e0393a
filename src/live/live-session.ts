/**
@module The live session core: one `SessionModel` (what the live screen draws and tells) for a
native session and an ACP agent's alike. It dispatches a prompt line (a command of the session's
table, else what the driver makes of it), keeps the queue of work through the input reducer
(`input-state.ts`: one piece of work at a time, held after a cancel, collected text), shows the
session's approval questions, writes the resumed history's window and every settled entry to the
scrollback exactly once (the fold then decides whether it leaves memory), keeps open pagers current,
and builds the snapshot the app draws. Who runs the work is the driver's (`session-driver.ts`).
*/
import type {ApprovalAnswer, DurableLog, LiveSnapshot, PathSource, ScrollbackEntry, SessionModel} from '../../components/session-model.js';
import type {Approvals} from '../host/approvals.js';
import type {OpenedSession} from '../host/open-session.js';
import {PathIndex} from '../host/path-index.js';
import type {SessionForks} from '../host/session-forks.js';
import type {CardUndo, SessionUndo} from '../host/session-undo.js';
import type {ForkSource} from '../session/store/fork-session.js';
import {assertNever} from '../presentation/assert-never.js';
import {pushAll} from '../layout/text/push-all.js';
import {sanitizeInline} from '../layout/text/sanitize.js';
import type {TranscriptEntry} from '../presentation/entry.js';
import type {FoldChange, SessionFold} from '../session/fold/fold.js';
import type {ChildSessionLinks} from '../transcript/child-session-links.js';
import {arrayEntrySource, type EntrySource} from '../transcript/entry-source.js';
import {BUILTIN_COMMANDS} from './commands/builtin-commands.js';
import {commandOf, commandWords, offered, type CommandContext, type CommandSession, type PromptCommand} from './commands/prompt-command.js';
import {initialInput, reduceInput, type InputAction, type InputEffect, type InputState, type Queued} from './input-state.js';
import {LiveCards} from './live-cards.js';
import {LiveChannel} from './live-channel.js';
import {LivePagers} from './live-pagers.js';
import {noticeLines} from './notice-lines.js';
import {droppedNotice, heldNotice, linesWord} from './queued-lines.js';
import {hiddenHistoryText, HISTORY_ENTRIES, historyWindow} from './resumed-history.js';
import type {LiveWork, SessionDriver, TaskDriver} from './session-driver.js';
import {statSync} from 'node:fs';
import {stat} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join, resolve} from 'node:path';
import {readClipboardImage, clipboardReader, noReaderLine, type ClipboardImage} from '../host/clipboard-image.js';
import {imageRowText} from '../presentation/image-row.js';
import {attachImage, attachImageBytes, isImageRefusal, pastedImagePath, type ImageRefusal} from '../session/store/image-attachments.js';
import type {ImageAttachment} from '../tools/content.js';

/** Queued calls drawn as cards in the live frame; more are counted in one row (a model may ask for dozens at once). */
const QUEUED_CARDS_SHOWN = 4;

/** What the live session reads of an opened session: its id, its fold and its changes, its approvals. */
export function sessionFeeds(session: OpenedSession): Pick<LiveSessionOptions, 'sessionId' | 'fold' | 'onFoldChange' | 'approvals'> & Partial<Pick<LiveSessionOptions, 'durableLog'>> {
	const {logPath} = session;
	return {
		sessionId: session.id,
		fold: session.fold,
		onFoldChange: listener => session.onFoldChange(listener),
		approvals: session.approvals,
		...(logPath === undefined ? {} : {
			// The writer writes whole lines on the loop's thread: once flushed, the file's size is where the durable lines end.
			async durableLog() {
				await session.flush();
				return {path: logPath, bytes: (await stat(logPath)).size};
			},
		}),
	};
}

/** The lines typed at the prompt, for ↑/↓ (kept in a file by the CLI, or in memory). */
export type PromptLines = {readonly entries: readonly string[]; add(line: string): void};

export type LiveSessionOptions = {
	readonly cwd: string;
	readonly sessionId: string;
	readonly fold: SessionFold;
	/** Subscribes to what each event changed in the fold. */
	readonly onFoldChange: (listener: (change: FoldChange) => void) => () => void;
	/** The session's approval questions: the dialog shows and answers them. */
	readonly approvals: Approvals;
	/** Who runs the work: the native session's agent and tools, or an ACP agent. */
	readonly driver: SessionDriver;
	/** Prompt history (default: in memory for this session). */
	readonly history?: PromptLines;
	/** The session's own commands (default: the built-in table); the driver's join them. */
	readonly commands?: readonly PromptCommand[];
	/** Where the pager reads the session (default: the entries in memory). */
	readonly pagerSource?: () => Promise<EntrySource & {close?(): unknown}>;
	/** The child sessions of subagent cards, beside the session's log (the pager opens them). */
	readonly childSessions?: ChildSessionLinks;
	/** The log so far, flushed (the pager's `x`); absent without a log. */
	readonly durableLog?: () => Promise<DurableLog>;
	/** How many entries of a continued session's history the scrollback shows (default `HISTORY_ENTRIES`). */
	readonly historyEntries?: number;
	/** Taking the session's file changes back (`/undo`, `/redo`). */
	readonly undo?: SessionUndo;
	/** Forks of the session's log (`/fork`, `/rewind`). */
	readonly forks?: SessionForks;
	/** The clipboard's image for Ctrl+V (default: the system's, its tool probed once at the start). */
	readonly clipboardImage?: () => Promise<ClipboardImage>;
};

export class LiveSession implements SessionModel {
	readonly cwd: string;
	readonly sessionId: string;
	readonly childSessions?: ChildSessionLinks;
	readonly placeholder?: string;
	/** `u` in the pager: one card taken back, after its preview (absent: the session keeps no undo). */
	readonly cardUndo?: CardUndo;
	readonly durableLog?: () => Promise<DurableLog>;
	readonly #options: LiveSessionOptions;
	readonly #driver: SessionDriver;
	readonly #fold: SessionFold;
	readonly #approvals: Approvals;
	readonly #history: PromptLines;
	readonly #channel = new LiveChannel();
	readonly #cards = new LiveCards();
	/** Open pagers, fed every fold change so they stay live. */
	readonly #pagers = new LivePagers();
	#input: InputState<LiveWork> = initialInput();
	/** Effects waiting to be carried out: a command's effect may dispatch again, and runs after the ones before it. */
	readonly #effects: Array<InputEffect<LiveWork>> = [];
	#performing = false;
	#abort: AbortController | undefined;
	/** The running work, until it has ended and been recorded. */
	#running: Promise<void> | undefined;
	#closed: Promise<void> | undefined;
	#next: ForkSource | undefined;
	#snapshot: LiveSnapshot;
	/** The `@` picker's index of the workspace: walked on the first `find`, not before. */
	readonly #pathIndex: PathIndex;
	readonly paths: PathSource;
	/** Images attached at the prompt, sent with the next message. */
	#images: ImageAttachment[] = [];
	readonly #clipboard: () => Promise<ClipboardImage>;

	constructor(options: LiveSessionOptions) {
		this.#options = options;
		this.cwd = options.cwd;
		this.sessionId = options.sessionId;
		this.#driver = options.driver;
		this.#fold = options.fold;
		this.#approvals = options.approvals;
		this.#history = options.history ?? inMemoryLines();
		const index = new PathIndex(options.cwd);
		this.#pathIndex = index;
		const {mcp} = options.driver;
		let started = false;
		this.paths = {
			find(query, limit) {
				if (!started) {
					started = true;
					void index.start();
					// The MCP servers' resources join the same picker as `server:uri` (those ready when it first opens).
					void mcp?.resources().then(resources => {
						index.add(resources.map(resource => `${resource.server}:${resource.uri}`));
					}, () => {});
				}

				return index.find(query, limit);
			},
			onChange: listener => index.onChange(listener),
		};
		if (options.childSessions !== undefined) {
			this.childSessions = options.childSessions;
		}

		if (options.durableLog !== undefined) {
			this.durableLog = options.durableLog;
		}

		if (options.driver.placeholder !== undefined) {
			this.placeholder = options.driver.placeholder;
		}

		if (options.undo !== undefined) {
			this.cardUndo = this.#cardUndo(options.undo);
		}

		this.#clipboard = options.clipboardImage ?? systemClipboard(process.env);
		this.#snapshot = this.#build();
		options.onFoldChange(change => {
			this.#foldChanged(change);
		});
		this.#driver.onChange(() => {
			this.#changed();
		});
		this.#approvals.subscribe(() => {
			this.#changed();
		});
		this.#showHistory();
	}

	get history(): readonly string[] {
		return this.#history.entries;
	}

	/** The fork to go on in once this session has closed (`/fork`, `/rewind`), if one was made. */
	get next(): ForkSource | undefined {
		return this.#next;
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

	onOpenPager(listener: () => void): () => void {
		return this.#channel.onOpenPager(listener);
	}

	/** The transcript in memory, ending with a streaming step's open tail. */
	entries(): readonly TranscriptEntry[] {
		return [...this.#fold.entries, ...this.#fold.tail];
	}

	/** The transcript for the pager, kept current by the fold's changes until it is closed. */
	async pagerSource(): Promise<EntrySource & {close?(): unknown}> {
		return this.#pagers.open(async () => this.#pagerBase(), () => this.#fold.counts, () => this.#fold.context);
	}

	/** The pager's `u`: the preview is read at once; the step waits in the queue for the running work, as `/undo` does, and its outcome is said in the transcript too. */
	#cardUndo(undo: SessionUndo): CardUndo {
		return {
			preview: async callId => undo.previewCard(callId),
			apply: async callId => new Promise(resolve => {
				this.#queue({kind: 'task', label: 'undo one card (pager)', run: async () => {
					const outcome = await undo.undoCard(callId);
					this.#say(outcome.message, outcome.tone);
					resolve(outcome);
				}});
			}),
		};
	}

	/** The commands the session offers now: its own, then those the driver announces under names of their own. */
	#commands(): PromptCommand[] {
		const own = this.#options.commands ?? BUILTIN_COMMANDS;
		const taken = new Set(own.flatMap(command => [command.name, ...command.aliases ?? []]));
		const announced = this.#driver.commands?.().filter(command => !taken.has(command.name)) ?? [];
		return offered([...own, ...announced], this.#sessionBase());
	}

	submit(line: string): void {
		if (this.#input.closing) {
			return;
		}

		if (this.#input.collecting !== undefined) {
			this.#collect(line);
			return;
		}

		if (line.trim() === '' && this.#images.length > 0) {
			// Images alone are a message too.
			this.#queue({kind: 'prompt', text: '', images: this.#takeImages()});
			return;
		}

		if (line.trim() === '') {
			// Enter on an empty prompt runs the lines a cancel held.
			this.#dispatch({type: 'release'});
			return;
		}

		this.#history.add(line);
		const session = this.#commandSession();
		const called = commandOf(line.trim(), session);
		if (called !== undefined) {
			void this.#runCommand(called.command, called.args, line, session);
			return;
		}

		const outcome = this.#driver.line(line);
		if ('say' in outcome) {
			this.#say(outcome.say, 'error');
		} else {
			// The images attached at the prompt go with the message they were attached for (a command leaves them waiting).
			const {work} = outcome;
			this.#queue(work.kind === 'prompt' && this.#images.length > 0 ? {...work, images: this.#takeImages()} : work);
		}
	}

	/**
	A paste that names an existing image file (a file manager's drag and drop pastes its path) attaches
	it and is not typed; `false`: the paste is text. The file is read, checked and saved after this
	returns; a refusal is said in one line.
	*/
	pasteImage(text: string): boolean {
		const {attachments} = this.#driver;
		const named = attachments === undefined ? undefined : pastedImagePath(text);
		if (attachments === undefined || named === undefined) {
			return false;
		}

		const path = named.startsWith('~/') ? join(homedir(), named.slice(2)) : named;
		if (!isFile(resolve(this.cwd, path))) {
			return false;
		}

		void this.#attach(attachImage(path, this.cwd, attachments));
		return true;
	}

	/** Ctrl+V: the clipboard's image is attached, or one line says why not (no image, no tool to read it). */
	pasteClipboardImage(): void {
		const {attachments} = this.#driver;
		if (attachments === undefined) {
			this.#say('Ctrl+V: images cannot be attached in this session', 'info');
			return;
		}

		void this.#clipboard().then(async image => {
			if ('none' in image) {
				this.#say(image.none, 'info');
				return;
			}

			await this.#attach(attachImageBytes(image.bytes, 'clipboard', attachments, 'the clipboard\'s image'));
		});
	}

	/** Backspace on an empty prompt: the newest attached image is taken off; `false` when none is attached. */
	detachImage(): boolean {
		if (this.#images.length === 0) {
			return false;
		}

		this.#images = this.#images.slice(0, -1);
		this.#changed();
		return true;
	}

	/** The image `pending` attaches joins the next message, or its refusal is said. */
	async #attach(pending: Promise<ImageAttachment | ImageRefusal>): Promise<void> {
		const result = await pending;
		if (isImageRefusal(result)) {
			this.#say(`image not attached: ${result.refusal}`, 'error');
			return;
		}

		this.#images = [...this.#images, result];
		this.#changed();
	}

	#takeImages(): ImageAttachment[] {
		const images = this.#images;
		this.#images = [];
		this.#changed();
		return images;
	}

	/** Clears the screen (Ctrl+L, `/clear`): what was on it moves to the scrollback; the log keeps everything. */
	clearScreen(): void {
		this.#emit({kind: 'clear'});
	}

	/** Ctrl+C or Esc: stop collecting text, else cancel the running work (holding what waits), else drop what is held. */
	cancel(): boolean {
		return this.#dispatch({type: 'cancel'}).length > 0;
	}

	/** Alt+↑: the newest queued piece leaves the queue; its line comes back to the prompt to be edited and sent again. */
	editQueued(): string | undefined {
		for (const effect of this.#dispatch({type: 'withdraw', to: 'edit'})) {
			if (effect.type === 'editing') {
				const {work} = effect.item;
				if (work.kind === 'prompt' && work.images !== undefined) {
					// Its images wait at the prompt again, with the words taken back.
					this.#images = [...work.images, ...this.#images];
					this.#changed();
				}

				return effect.item.label;
			}
		}

		return undefined;
	}

	/** Alt+↓: the newest queued piece leaves the queue, named in a notice. */
	dropQueued(): boolean {
		return this.#dispatch({type: 'withdraw', to: 'drop'}).length > 0;
	}

	/** Shift+Tab: the session's next mode (the driver's: cardterm's own, or an ACP agent's announced ones). */
	cycleMode(): void {
		const modes = this.#driver.modes;
		if (modes === undefined || this.#input.closing) {
			return;
		}

		const available = modes.available();
		if (available.length === 0) {
			this.#say('this session has no modes to switch between', 'error');
			return;
		}

		const at = available.findIndex(mode => mode.id === modes.current());
		const next = available[(at + 1) % available.length]!;
		void modes.set(next.id, 'key').then(said => {
			if (said !== undefined) {
				this.#say(said, 'info');
			}

			this.#changed();
		}, (error: unknown) => {
			this.#say(`mode ${next.label}: ${errorText(error)}`, 'error');
		});
	}

	answerApproval(answer: ApprovalAnswer, words?: string): void {
		this.#approvals.answer(answer, words);
	}

	/** Completions for the word before the cursor: the table's commands (and tools) first, then the command's or the driver's. */
	async complete(line: string, cursor: number): Promise<readonly string[]> {
		const before = line.slice(0, cursor);
		const word = /\S*$/u.exec(before)![0];
		const first = before.trimStart() === word;
		const session = this.#commandSession();
		if (first && !word.startsWith('!')) {
			const tools = [...session.tools?.names() ?? []].sort();
			return [...commandWords(session), ...tools].filter(name => name.startsWith(word));
		}

		const command = commandOf(before.trimStart(), session)?.command;
		if (command?.complete !== undefined) {
			return command.complete(word, first, session);
		}

		return this.#driver.completeWord?.(word) ?? [];
	}

	/** Cancels what runs and shuts the session down; every call resolves when that is done. */
	async close(): Promise<void> {
		this.#closed ??= this.#closeNow();
		return this.#closed;
	}

	async #closeNow(): Promise<void> {
		this.#dispatch({type: 'close'});
		this.#approvals.close();
		this.#pathIndex.close();
		this.#changed();
		// The driver stops what could keep the running work from ending; the work ends (its result
		// recorded), and only then the log closes.
		await this.#driver.stop();
		await this.#running;
		await this.#options.undo?.close();
		await this.#driver.close();
	}

	#sessionBase(): Omit<CommandSession, 'commands'> {
		const {tools, model, mcp, modes, helpNotes} = this.#driver;
		const {undo, forks} = this.#options;
		return {cwd: this.cwd, helpNotes, ...(tools === undefined ? {} : {tools}), ...(model === undefined ? {} : {model}), ...(mcp === undefined ? {} : {mcp}), ...(modes === undefined ? {} : {modes}), ...(undo === undefined ? {} : {undo}), ...(forks === undefined ? {} : {forks})};
	}

	#commandSession(): CommandSession {
		return {...this.#sessionBase(), commands: this.#commands()};
	}

	async #runCommand(command: PromptCommand, args: string, line: string, session: CommandSession): Promise<void> {
		const context: CommandContext = {
			...session,
			line,
			say: (message, tone) => {
				this.#say(message, tone);
			},
			show: (lines, fit) => {
				this.#emit({kind: 'lines', lines, ...(fit === undefined ? {} : {fit})});
			},
			queue: work => {
				this.#queue(work);
			},
			collect: (label, then) => {
				this.#dispatch({type: 'collect', label, then});
			},
			clearScreen: () => {
				this.clearScreen();
			},
			openPager: () => {
				this.#channel.openPager();
			},
			close: () => {
				void this.close();
			},
			continueIn: fork => {
				this.#next = fork;
				void this.close();
			},
		};
		try {
			await command.run(args, context);
		} catch (error) {
			this.#say(`${command.name}: ${errorText(error)}`, 'error');
		}

		// A command may change what the status line shows (a model switched).
		this.#changed();
	}

	#queue(work: LiveWork): void {
		this.#dispatch({type: 'queue', label: workLabel(work), work});
	}

	/** Lines typed while a command collects text; a pasted block is several lines of it. */
	#collect(line: string): void {
		const parts = line.split('\n');
		let taken = 0;
		while (taken < parts.length && this.#input.collecting !== undefined) {
			this.#dispatch({type: 'line', text: parts[taken++]!});
		}

		const left = parts.slice(taken).filter(part => part !== '').length;
		if (left > 0) {
			// Lines after the closing "." are not run as commands: a paste must not run anything.
			this.#say(`${linesWord(left)} after the closing "." ignored (not run)`, 'info');
		}
	}

	/** Applies `action` to the input state and carries out its effects; returns the effects. */
	#dispatch(action: InputAction<LiveWork>): ReadonlyArray<InputEffect<LiveWork>> {
		const before = this.#input;
		const {state, effects} = reduceInput(before, action);
		this.#input = state;
		pushAll(this.#effects, effects);
		if (!this.#performing) {
			this.#performing = true;
			try {
				for (let effect = this.#effects.shift(); effect !== undefined; effect = this.#effects.shift()) {
					this.#perform(effect);
				}
			} finally {
				this.#performing = false;
			}
		}

		if (state !== before) {
			this.#changed();
		}

		return effects;
	}

	#perform(effect: InputEffect<LiveWork>): void {
		switch (effect.type) {
			case 'run': {
				this.#start(effect.item);
				break;
			}

			case 'interrupt': {
				if (effect.press === 1) {
					this.#approvals.cancelAll();
					this.#abort?.abort(new Error('cancelled by the user'));
				}

				this.#driver.interrupt?.(effect.press, message => {
					this.#say(message, 'info');
				});
				break;
			}

			case 'stop': {
				this.#abort?.abort(new Error('session closing'));
				break;
			}

			case 'held': {
				this.#say(heldNotice(effect.labels), 'info');
				break;
			}

			case 'dropped': {
				this.#say(droppedNotice(effect.labels), 'info');
				break;
			}

			case 'editing': {
				// The caller (editQueued) puts the line back at the prompt.
				break;
			}

			case 'collecting': {
				this.#say(`Type the ${effect.label}; end with a line holding only "." (Ctrl+C cancels).`, 'info');
				break;
			}

			case 'collected-line': {
				// Echoed: the prompt shows one line at a time, and the person must see what was typed.
				this.#emit({kind: 'lines', lines: [{spans: [{text: '│ ', style: {dim: true}}, {text: sanitizeInline(effect.text)}]}]});
				break;
			}

			case 'collected': {
				effect.then(effect.text);
				break;
			}

			case 'collect-cancelled': {
				this.#say('input cancelled', 'info');
				break;
			}

			default: {
				assertNever(effect, 'LiveSession effect');
			}
		}
	}

	/** What a command's own work may have the driver do, within its turn (`signal`). */
	#taskDriver(signal: AbortSignal): TaskDriver {
		const driver = this.#driver;
		return {
			run: async work => driver.run(work, signal),
			...(driver.shell === undefined ? {} : {shell: async (command: string, label: string) => driver.shell!(command, label, signal)}),
		};
	}

	#start(item: Queued<LiveWork>): void {
		const abort = new AbortController();
		this.#abort = abort;
		this.#running = this.#run(item.work, abort.signal);
	}

	async #run(work: LiveWork, signal: AbortSignal): Promise<void> {
		try {
			await (work.kind === 'task' ? work.run(signal, this.#taskDriver(signal)) : this.#driver.run(work, signal));
		} catch (error) {
			this.#say(errorText(error), 'error');
		}

		this.#abort = undefined;
		this.#dispatch({type: 'finished'});
	}

	#foldChanged(change: FoldChange): void {
		this.#pagers.changed(change.entries);
		for (const entry of change.entries) {
			this.#show(entry);
		}

		// A streaming step's tail changes the live frame; a model turn's progress (usage, first token, a
		// retry's wait) the status line. The screen paces what it is told (components/frame-pacing.ts).
		if (change.entries.length > 0 || change.tailChanged === true || this.#driver.turn?.() !== this.#snapshot.turn || this.#title() !== this.#snapshot.title) {
			this.#changed();
		}
	}

	/**
	An entry the fold produced: a card is tracked until it settles; what a running call wrote (its
	todo list) waits for its card; anything else is final and written now.
	*/
	#show(entry: TranscriptEntry): void {
		this.#pagers.saw(entry);
		if (entry.entry === 'card') {
			if (this.#cards.settles(entry.card)) {
				this.#written(entry);
				for (const held of this.#cards.after(entry.card.seq)) {
					this.#written(held);
				}
			}

			return;
		}

		if (!this.#cards.hold(entry)) {
			this.#written(entry);
		}
	}

	/** Written to the scrollback for good: the fold may let it leave memory (its rule). */
	#written(entry: TranscriptEntry): void {
		this.#emit({kind: 'entry', entry});
		this.#fold.written(entry);
	}

	/**
	A continued session's entries (the fold started from its log, or an ACP agent's load replay) go to
	the scrollback as they went the first time, so the person sees where the conversation stands. A
	long history is cut to its newest entries (resumed-history.ts), the rest named in a line above
	them: the pager has all of it.
	*/
	#showHistory(): void {
		const {entries} = this.#fold;
		const {from, hidden} = historyWindow(entries.length, this.#options.historyEntries ?? HISTORY_ENTRIES);
		if (hidden > 0) {
			this.#say(hiddenHistoryText(hidden), 'info');
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

			this.#fold.written(entry);
		}
	}

	async #pagerBase(): Promise<EntrySource & {close?(): unknown}> {
		if (this.#options.pagerSource !== undefined) {
			try {
				return await this.#options.pagerSource();
			} catch (error) {
				this.#say(`the pager cannot read the session log (${errorText(error)}); showing the entries in memory`, 'error');
			}
		}

		return arrayEntrySource(this.entries());
	}

	#say(message: string, tone: 'info' | 'error'): void {
		this.#emit({kind: 'lines', lines: noticeLines(message, tone)});
	}

	#emit(entry: ScrollbackEntry): void {
		this.#channel.emit(entry);
	}

	#changed(): void {
		this.#snapshot = this.#build();
		this.#channel.notify();
	}

	/** The session's title, when it has one worth showing. */
	#title(): string | undefined {
		const {title} = this.#fold;
		return title === undefined || title.trim() === '' ? undefined : title;
	}

	#build(): LiveSnapshot {
		const status = this.#driver.status();
		const turn = this.#driver.turn?.();
		const {collecting, queue, held, closing, running: work} = this.#input;
		const title = this.#title();
		const running = this.#cards.running();
		const runningEntries: TranscriptEntry[] = running.map(card => ({entry: 'card', card}));
		// The model's calls that wait for the ones running: shown, so a person knows they run one after another.
		const queued = this.#fold.queued(QUEUED_CARDS_SHOWN);
		for (const card of queued.cards) {
			runningEntries.push({entry: 'card', card});
		}

		if (queued.more > 0) {
			runningEntries.push({entry: 'notice', seq: -1, time: 0, source: 'queued', summary: `${queued.more} more ${queued.more === 1 ? 'call waits' : 'calls wait'} after these`, revision: 0});
		}

		for (const entry of this.#fold.tail) {
			// Once its message came, a step's `preparing` rows are the calls the queued cards show.
			if (queued.cards.length === 0 || entry.text !== '' || entry.reasoning !== '') {
				runningEntries.push(entry);
			}
		}

		const approval = this.#approvals.current;
		return {
			running,
			runningEntries,
			counts: this.#fold.counts,
			jobsRunning: status.jobsRunning ?? 0,
			...(approval === undefined ? {} : {approval}),
			...(collecting === undefined ? {} : {multiline: {label: collecting.label, lines: collecting.count}}),
			queue,
			...(turn === undefined ? {} : {turn}),
			...(status.model === undefined ? {} : {model: status.model, ...(status.modelConnected === undefined ? {} : {modelConnected: status.modelConnected})}),
			...(held ? {queueHeld: true} : {}),
			...(this.#images.length === 0 ? {} : {attachments: this.#images.map(image => imageRowText(image))}),
			...(status.problem === undefined ? {} : {problem: status.problem}),
			closing,
			...(work === undefined ? {} : {working: true}),
			...(title === undefined ? {} : {title}),
			...(status.agent === undefined ? {} : {agent: status.agent}),
			...(status.context === undefined ? {} : {context: status.context}),
			...(status.mode === undefined ? {} : {mode: status.mode}),
			...(status.confinement === undefined ? {} : {confinement: status.confinement}),
		};
	}
}

/** A piece of work as a notice names it: a message as typed, a shell call as `!command`, a call as `TOOL {json}`. */
function workLabel(work: LiveWork): string {
	if (work.kind === 'prompt') {
		return work.text === '' && work.images !== undefined ? work.images.map(image => imageRowText(image)).join(', ') : work.text;
	}

	if (work.kind === 'task') {
		return work.label;
	}

	const args = work.args as {command?: unknown} | undefined;
	return work.name === 'bash' && typeof args?.command === 'string' ? `!${args.command}` : `${work.name} ${work.rawArgs ?? JSON.stringify(work.args)}`;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function inMemoryLines(): PromptLines {
	const entries: string[] = [];
	return {
		entries,
		add(line) {
			entries.push(line);
		},
	};
}


function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** The system clipboard's image: the tool to read it is looked up once, now, and used at each Ctrl+V. */
function systemClipboard(env: NodeJS.ProcessEnv): () => Promise<ClipboardImage> {
	const reader = clipboardReader(env).catch(() => undefined);
	return async () => {
		const found = await reader;
		return found === undefined ? {none: noReaderLine(env, process.platform)} : readClipboardImage(found, env);
	};
}
