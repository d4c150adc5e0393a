import type {Card} from '../src/presentation/card.js';
import type {OutcomeCounts} from '../src/presentation/card-outcome.js';
import type {EntrySource} from '../src/transcript/entry-source.js';
import type {ChildSessionLinks} from '../src/transcript/child-session-links.js';
import type {TranscriptEntry} from '../src/presentation/entry.js';
import type {StyledLine} from '../src/layout/text/styled-line.js';
import type {PendingApproval, ApprovalAnswer} from '../src/host/approvals.js';
import type {TurnProgress} from '../src/session/fold/turn-progress.js';

import type {CardUndo} from '../src/host/session-undo.js';
import type {PathPicks} from '../src/host/path-index.js';

export type {ApprovalAnswer, PendingApproval} from '../src/host/approvals.js';

/** What the live screen shows; replaced (not mutated) on every change. */
export type LiveSnapshot = {
	/** Running top-level cards, in transcript order. */
	readonly running: readonly Card[];
	/**
	What the live frame draws, in transcript order: the running cards, then the open tail of a step
	that is still streaming (the model's partial text and reasoning, its `preparing <tool>…` rows).
	Absent: draw `running`.
	*/
	readonly runningEntries?: readonly TranscriptEntry[];
	/** Top-level cards by outcome (`card-outcome.ts`). */
	readonly counts: OutcomeCounts;
	/** Background jobs still running. */
	readonly jobsRunning: number;
	readonly approval?: PendingApproval;
	/** Set while the prompt collects a multi-line text (for /write and /edit). */
	readonly multiline?: {readonly label: string; readonly lines: number};
	/** Work waiting for the running one, oldest (next to run) first; each row as typed. */
	readonly queue: readonly QueuedRow[];
	/** The model's turn while it runs: its elapsed time, usage so far, latency to first token, a retry's countdown. */
	readonly turn?: TurnProgress;
	/** The agent's model (`provider:model`), or how to connect one; absent when the session has no agent. */
	readonly model?: string;
	/** Whether a prompt line that is not a command goes to a model (the prompt's hint says so). */
	readonly modelConnected?: boolean;
	/** The queued work is held after a cancel: Enter runs it, Ctrl+C drops it. */
	readonly queueHeld?: boolean;
	/** A standing problem shown in the status line (e.g. the log cannot be written). */
	readonly problem?: string;
	/** Set once the session is closing. */
	readonly closing: boolean;
	/** Set while a piece of work the person asked for runs (a model turn, a command, a call): the title says working. */
	readonly working?: boolean;
	/** The session's title (an ACP agent's `session_info_update`, a continued log's), for the window title. */
	readonly title?: string;
	/** What an ACP agent reports about itself (its mode, its cost): shown in the status line. */
	readonly agent?: string;
	/** The session's mode (`ask`, `accept edits`, `plan`, `bypass`, or an ACP agent's): the status line always shows it. */
	readonly mode?: string;
	/** Whether the commands of the mode are confined (`commands unconfined (bwrap: …)`): after the place as the row narrows. */
	readonly confinement?: string;
	/** How full the model's window is (`42% · 54k/128k`): the native agent's ledger, or an ACP agent's `usage_update`. */
	readonly context?: string;
	/** Images attached at the prompt for the next message, one row each (`image · PNG · 312.0 KB · 1280×800 · shot.png`). */
	readonly attachments?: readonly string[];
};

/** The workspace's files and folders for the `@` picker: `find` ranks what is indexed so far (the first one starts the index, off the keystroke path). */
export type PathSource = {
	find(query: string, limit: number): PathPicks;
	/** Hear when more is indexed. */
	onChange(listener: () => void): () => void;
};

/** The session's log as far as it is durable: its path and how many of its bytes are written and synced. */
export type DurableLog = {readonly path: string; readonly bytes: number};

/** A piece of work waiting its turn: its number, and the line that asks for it (as typed, or `TOOL {json}`). */
export type QueuedRow = {readonly id: number; readonly label: string};

/** Rows for the terminal's scrollback: settled cards and notices, each written once; `clear` scrolls the screen clear. */
export type ScrollbackEntry = {readonly kind: 'entry'; readonly entry: TranscriptEntry} | {
	readonly kind: 'lines';
	readonly lines: readonly StyledLine[];
	/** The same rows laid out for the terminal's width when it is written (a table that must fit). */
	readonly fit?: (width: number) => readonly StyledLine[];
} | {readonly kind: 'clear'};

/** The interactive session as the app sees it; implemented once for both drivers by src/live/live-session.ts. */
export type SessionModel = {
	readonly cwd: string;
	readonly sessionId: string;
	subscribe(listener: () => void): () => void;
	getSnapshot(): LiveSnapshot;
	/** Scrollback entries, delivered in order to one listener (the app writes them). */
	onScrollback(listener: (entry: ScrollbackEntry) => void): () => void;
	/**
	The transcript so far, for the pager (Ctrl+O). A session with a log reads it back from the log, so
	settled entries need not stay in memory; `close` the source when the pager closes.
	*/
	pagerSource(): Promise<EntrySource & {close?(): unknown}>;
	submit(line: string): void;
	/** Cancel the running call (lines queued after it are held), or drop held lines; false when there was nothing. */
	cancel(): boolean;
	/** Answer the shown approval question: the choice's answer, and the words typed for a choice that takes them. */
	answerApproval(answer: ApprovalAnswer, words?: string): void;
	/** Alt+↑: take the newest queued work back to edit it; its line, or undefined when nothing waits. */
	editQueued?(): string | undefined;
	/** Alt+↓: drop the newest queued work (a notice names it); false when nothing waits. */
	dropQueued?(): boolean;
	/** A paste that names an image file attaches it (true) instead of being typed (false: type it). */
	pasteImage?(text: string): boolean;
	/** Ctrl+V: attach the clipboard's image (or say why none). */
	pasteClipboardImage?(): void;
	/** Backspace on an empty prompt: take the newest attached image off; false when none is attached. */
	detachImage?(): boolean;
	/** Shift+Tab: switch to the session's next mode. */
	cycleMode?(): void;
	/** Clear the screen (Ctrl+L): its rows move into the scrollback, in order with the entries written there. */
	clearScreen?(): void;
	/** The session asks the screen to open the pager (`/pager`, as Ctrl+O does). */
	onOpenPager?(listener: () => void): () => void;
	/** Completions for the word before the cursor. */
	complete(line: string, cursor: number): Promise<readonly string[]>;
	/** The `@` picker's paths (absent: no picker). */
	readonly paths?: PathSource;
	readonly history: readonly string[];
	/** `u` in the pager: one diff card taken back after a preview; absent where the session cannot change files. */
	readonly cardUndo?: CardUndo;
	/** The child sessions of the session's subagent cards, for the pager (Enter opens one). */
	readonly childSessions?: ChildSessionLinks;
	/** Flush the log and say how much of it is durable (the pager's `x` exports that much); absent without a log. */
	readonly durableLog?: () => Promise<DurableLog>;
	/** What the empty prompt says (default: the reference tools' commands). */
	readonly placeholder?: string;
	/** Flush the log and release everything; resolves when durable. */
	close(): Promise<void>;
};
