/**
@module The live screen's model (`SessionModel`) for an ACP agent: a thin adapter. A prompt line is
one `session/prompt` (lines typed meanwhile wait their turn), Ctrl+C cancels the turn and a second
one kills the agent's process tree (lines that waited are held, not lost: Enter runs them, Ctrl+C
drops them, as in the native session), the approval dialog answers with the agent's options (by kind),
Tab completes the agent's slash commands. Everything shown comes from the fold of the log.
*/
import type {ApprovalAnswer, LiveSnapshot, ScrollbackEntry, SessionModel} from '../../../components/session-model.js';
import type {AcpClient} from '../../acp/acp-client.js';
import type {Approvals} from '../../host/approvals.js';
import type {AcpCommand} from '../../acp/acp-events.js';
import type {Card} from '../../presentation/card.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import type {SessionEvent} from '../../session/events.js';
import type {FoldChange, SessionFold} from '../../session/fold.js';
import type {OpenedSession} from '../../host/open-session.js';
import {arrayEntrySource, type EntrySource} from '../../transcript/entry-source.js';
import {LiveCards} from '../interactive/live-cards.js';
import {LiveChannel} from '../interactive/live-channel.js';
import {LivePagers} from '../interactive/live-pagers.js';
import {noticeLines} from '../interactive/notice-lines.js';
import {hiddenHistoryText, HISTORY_ENTRIES, historyWindow} from '../interactive/resumed-history.js';
import {droppedNotice, heldNotice, shortInline} from '../interactive/queued-lines.js';

export type AcpControllerOptions = {
	readonly cwd: string;
	readonly sessionId: string;
	readonly fold: SessionFold;
	readonly onFoldChange: (listener: (change: FoldChange) => void) => () => void;
	/** Every event as the log records it (the agent's commands arrive as one). */
	readonly onEvent: (listener: (event: SessionEvent) => void) => () => void;
	/** The session's approval questions (the agent's permission requests): the dialog shows and answers them. */
	readonly approvals: Approvals;
	readonly client: () => AcpClient | undefined;
	/** The agent's mode when the session started. */
	readonly mode?: string;
	/** Stop the agent (its tree, its terminals). */
	readonly stopAgent: () => Promise<void>;
	/** Flush and close the log (after the last turn's end is recorded). */
	readonly closeLog: () => Promise<void>;
	readonly pagerSource?: () => Promise<EntrySource & {close?(): unknown}>;
};

/** What the controller reads of an opened session: its id, its fold and its events. */
export function sessionFeeds(session: OpenedSession): Pick<AcpControllerOptions, 'sessionId' | 'fold' | 'onFoldChange' | 'onEvent' | 'approvals'> {
	return {
		sessionId: session.id,
		fold: session.fold,
		approvals: session.approvals,
		onFoldChange: listener => session.onFoldChange(listener),
		onEvent: listener => session.log.listen(listener),
	};
}

/** An ACP `usage_update` for the status line: the share of the context in use, and the cost. */
export function usageText(data: Record<string, unknown>): string | undefined {
	const {used, size, cost} = data;
	const parts: string[] = [];
	if (typeof used === 'number' && typeof size === 'number' && size > 0) {
		parts.push(`context ${Math.round(used / size * 100)}% of ${size >= 1000 ? `${Math.round(size / 1000)}k` : size}`);
	}

	if (typeof cost === 'object' && cost !== null && typeof (cost as {amount?: unknown}).amount === 'number') {
		const {amount, currency} = cost as {amount: number; currency?: unknown};
		parts.push(`${amount.toFixed(2)} ${typeof currency === 'string' ? currency : ''}`.trim());
	}

	return parts.length === 0 ? undefined : parts.join(' · ');
}

export class AcpController implements SessionModel {
	readonly cwd: string;
	readonly sessionId: string;
	readonly history: string[] = [];
	readonly placeholder = 'message the agent (Tab completes its /commands; Ctrl+C cancels a turn)';
	readonly #options: AcpControllerOptions;
	readonly #channel = new LiveChannel();
	readonly #cards = new LiveCards();
	readonly #pagers = new LivePagers();
	readonly #queue: string[] = [];
	#commands: readonly AcpCommand[] = [];
	#mode: string | undefined;
	#usage: string | undefined;
	#busy = false;
	#cancelled = false;
	/** A cancel stopped the turn with lines waiting: they stay queued until Enter runs or Ctrl+C drops them. */
	#held = false;
	#problem: string | undefined;
	#closing = false;
	#closed: Promise<void> | undefined;
	#draining: Promise<void> | undefined;
	#snapshot: LiveSnapshot;

	constructor(options: AcpControllerOptions) {
		this.#options = options;
		this.cwd = options.cwd;
		this.sessionId = options.sessionId;
		this.#mode = options.mode;
		this.#snapshot = this.#build();
		options.approvals.subscribe(() => {
			this.#changed();
		});
		this.#showHistory();
		options.onFoldChange(change => {
			this.#pagers.changed(change.entries);
			for (const entry of change.entries) {
				this.#pagers.saw(entry);
				if (entry.entry === 'card') {
					this.#track(entry.card);
				} else {
					this.#emit({kind: 'entry', entry});
				}
			}

			// A streaming message's tail changes the live frame (the agent's chunks as they come), nothing else until it settles.
			if (change.entries.length > 0 || change.tailChanged === true) {
				this.#changed();
			}
		});
		options.onEvent(event => {
			const data = event.data as Record<string, unknown>;
			switch (event.type) {
				case 'acp/commands': {
					this.#commands = Array.isArray(data.commands) ? data.commands as AcpCommand[] : [];
					break;
				}

				case 'acp/mode': {
					const mode = data.modeId;
					if (typeof mode === 'string') {
						this.#mode = mode;
						this.#changed();
					}

					break;
				}

				case 'acp/usage': {
					this.#usage = usageText(data);
					this.#changed();
					break;
				}

				default: {
					break;
				}
			}
		});
	}

	/**
	A resumed session's history (the agent's `session/load` replay, in the fold before the screen
	opens) goes to the scrollback as the native session's does: its newest `HISTORY_ENTRIES`, the
	rest named in a line above them (the pager has all of it).
	*/
	#showHistory(): void {
		const {entries} = this.#options.fold;
		const {from, hidden} = historyWindow(entries.length, HISTORY_ENTRIES);
		if (hidden > 0) {
			this.#emit({kind: 'lines', lines: noticeLines(hiddenHistoryText(hidden), 'info')});
		}

		for (const [index, entry] of entries.entries()) {
			this.#pagers.saw(entry);
			if (entry.entry !== 'card') {
				if (index >= from) {
					this.#emit({kind: 'entry', entry});
				}
			} else if (index >= from || entry.card.status === 'running') {
				this.#track(entry.card);
			} else {
				this.#cards.skip(entry.card.seq);
			}
		}
	}

	/** The agent is gone: said in the status line; prompts are refused from now on. */
	agentExited(message: string): void {
		this.#problem = message;
		this.#changed();
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

	/** The transcript for the pager, kept current by the fold's changes until it is closed. */
	async pagerSource(): Promise<EntrySource & {close?(): unknown}> {
		const {fold, pagerSource} = this.#options;
		return this.#pagers.open(async () => pagerSource?.() ?? arrayEntrySource([...fold.entries, ...fold.tail ?? []] as TranscriptEntry[]), () => fold.counts);
	}

	submit(line: string): void {
		if (this.#closing) {
			return;
		}

		if (line.trim() === '') {
			// Enter on an empty prompt runs the held lines.
			if (this.#held) {
				this.#held = false;
				this.#startDraining();
			}

			return;
		}

		this.history.push(line);
		if (line.trim() === '/exit' || line.trim() === '/quit') {
			void this.close();
			return;
		}

		// A new line runs after the held ones.
		this.#held = false;
		this.#queue.push(line);
		this.#startDraining();
	}

	#startDraining(): void {
		this.#changed();
		if (!this.#busy) {
			this.#draining = this.#drain();
		}
	}

	/** Ctrl+C: cancel the turn (and answer an open dialog `cancelled`); again while it ends: kill the agent's tree. */
	cancel(): boolean {
		if (!this.#busy) {
			if (!this.#held) {
				return false;
			}

			const dropped = this.#queue.splice(0);
			this.#held = false;
			this.#emit({kind: 'lines', lines: noticeLines(droppedNotice(dropped), 'info')});
			this.#changed();
			return true;
		}

		const client = this.#options.client();
		// Lines queued behind the turn are kept, not sent: the person stopped the work and decides.
		this.#held ||= this.#queue.length > 0;
		if (this.#cancelled) {
			this.#emit({kind: 'lines', lines: noticeLines('stopping the agent and every process it started', 'info')});
			void client?.kill();
			return true;
		}

		this.#cancelled = true;
		this.#options.approvals.cancelAll();
		client?.cancel();
		this.#emit({kind: 'lines', lines: noticeLines('cancelling… (Ctrl+C again stops the agent)', 'info')});
		this.#changed();
		return true;
	}

	answerApproval(answer: ApprovalAnswer): void {
		this.#options.approvals.answer(answer);
	}

	/** Slash commands the agent announced, for the word at the start of the line. */
	async complete(line: string, cursor: number): Promise<readonly string[]> {
		const word = line.slice(0, cursor);
		if (!word.startsWith('/') || word.includes(' ')) {
			return [];
		}

		return this.#commands.map(command => `/${command.name}`).filter(name => name.startsWith(word));
	}

	async close(): Promise<void> {
		this.#closed ??= (async () => {
			this.#closing = true;
			this.#queue.length = 0;
			this.#options.approvals.close();

			if (this.#busy) {
				this.#options.client()?.cancel();
			}

			this.#changed();
			// The agent goes first, so a turn it never ends is ended (and recorded) before the log closes.
			await this.#options.stopAgent();
			await this.#draining;
			await this.#options.closeLog();
		})();
		return this.#closed;
	}

	async #drain(): Promise<void> {
		this.#busy = true;
		try {
			while (this.#queue.length > 0 && !this.#closing && !this.#held) {
				const line = this.#queue.shift()!;
				const client = this.#options.client();
				this.#cancelled = false;
				this.#changed();
				if (client === undefined || this.#problem !== undefined) {
					this.#emit({kind: 'lines', lines: noticeLines(`not sent: ${shortInline(line)} — ${this.#problem ?? 'the agent is not running'}`, 'error')});
					continue;
				}

				// eslint-disable-next-line no-await-in-loop -- one prompt turn at a time, in order
				await client.prompt(line);
			}

			if (this.#held && !this.#closing) {
				this.#emit({kind: 'lines', lines: noticeLines(heldNotice(this.#queue), 'info')});
			}
		} finally {
			this.#busy = false;
			this.#changed();
		}
	}

	#track(card: Card): void {
		if (this.#cards.settles(card)) {
			this.#emit({kind: 'entry', entry: {entry: 'card', card}});
		}
	}

	#emit(entry: ScrollbackEntry): void {
		this.#channel.emit(entry);
	}

	#changed(): void {
		this.#snapshot = this.#build();
		this.#channel.notify();
	}

	#build(): LiveSnapshot {
		const running = this.#cards.running();
		const runningEntries: TranscriptEntry[] = running.map(card => ({entry: 'card', card}));
		for (const entry of this.#options.fold.tail ?? []) {
			runningEntries.push(entry);
		}

		return {
			running,
			runningEntries,
			counts: this.#options.fold.counts,
			jobsRunning: 0,
			...(this.#options.approvals.current === undefined ? {} : {approval: this.#options.approvals.current}),
			queued: this.#queue.length,
			...(this.#held ? {queueHeld: true} : {}),
			...(this.#problem === undefined ? {} : {problem: this.#problem}),
			closing: this.#closing,
			...(this.#mode === undefined && this.#usage === undefined ? {} : {agent: [this.#mode === undefined ? undefined : `mode ${this.#mode}`, this.#usage].filter(part => part !== undefined).join(' · ')}),
		};
	}
}
