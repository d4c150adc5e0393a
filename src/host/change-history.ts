/**
@module What `/undo` and `/redo` may take back, read from the session's events alone (so a resumed
session and a replay know it as the live one did): the file changes each turn made through cards —
an `edit`, a `write` (a created file's whole text), an ACP agent's write through cardterm
(`acp/write` with its change), an undo card — grouped by turn, and two stacks: the groups done (the
newest is what `/undo` takes back) and the undo groups that `/redo` may take back in turn. A new
change of anyone's empties the redo stack, as in every editor.
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {diffsFromMeta} from '../builtin/fs/hunks.js';
import {changeFromMeta, UNDO_TOOL, undoArgs, type FileChange} from '../builtin/fs/undo-card.js';
import {contentText} from '../session/fold/entry-facts.js';
import type {SessionEvent} from '../session/events/events.js';
import {parseCallArguments} from '../session/recorder/session-runtime.js';

/** One recorded change: what made it (`edit`, `write`, `acp write`, `command`; an undo card's: what it took back) and the change, or why it cannot be taken back. */
export type RecordedChange = {
	readonly tool: string;
	/** The call that made it (absent for a command's change, found in the snapshots). */
	readonly callId?: string;
	readonly path: string;
	readonly change: FileChange | {readonly unknown: string};
};

/** The changes of one turn (`turn:N`), of one call made outside a turn, or of one undo or redo (its op id). */
export type ChangeGroup = {
	readonly key: string;
	readonly kind: 'change' | 'undo' | 'redo';
	/** Where it starts in the log: its first call (after the message that began its turn: `/rewind` takes back what starts after a message). */
	readonly seq: number;
	readonly changes: readonly RecordedChange[];
	/** Changes of its cards taken back alone since (`u` in the pager): not taken back again, and not a command's change either. */
	readonly takenBack?: readonly RecordedChange[];
};

type OpenCall = {readonly name: string; readonly callId: string; readonly args: unknown; readonly key: string; readonly seq: number};
type Group = {key: string; kind: ChangeGroup['kind']; seq: number; changes: RecordedChange[]; takenBack: RecordedChange[]};

/** Tools that change no file: a turn of only these has nothing to take back, and they never wait for a snapshot. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['read', 'grep', 'glob', 'web_fetch', 'web_search', 'todo_write', 'job_list', 'job_output', 'acp_read', 'acp_search', 'acp_fetch', 'acp_think']);

export class ChangeHistory {
	readonly #groups = new Map<string, Group>();
	readonly #calls = new Map<string, OpenCall>();
	/** Keys of the groups done, oldest first. */
	#done: string[] = [];
	/** Keys of the undo groups a redo may take back, oldest first. */
	#undone: string[] = [];
	#openTurn: number | undefined;
	/** Each card's changes still standing, by call id, with the group they are in (`u` in the pager takes one card back). */
	readonly #byCall = new Map<string, {readonly group: string; readonly changes: RecordedChange[]}>();
	/** Cards taken back alone (`card:ID` targets of undo cards): their changes left their turn's group. */
	readonly #cardsUndone = new Set<string>();

	apply(event: SessionEvent): void {
		switch (event.type) {
			case 'turn/start': {
				this.#openTurn = event.data.turn;
				break;
			}

			case 'turn/end': {
				this.#openTurn = undefined;
				break;
			}

			case 'tool/call': {
				const {name, callId, turn} = event.data;
				if (name === 'edit' || name === 'write' || name === UNDO_TOOL) {
					this.#calls.set(callId, {name, callId, args: parseCallArguments(event.data.arguments), key: this.#key(turn, callId), seq: event.seq});
				} else if (!READ_ONLY_TOOLS.has(name) && (turn ?? this.#openTurn) !== undefined) {
					// A command may change files: its turn is one `/undo` looks at (its shadow snapshots say what changed).
					this.#commandTurn(this.#key(turn, callId), event.seq);
				}

				break;
			}

			case 'tool/result': {
				const block = event.data.message.content[0];
				const call = block === undefined ? undefined : this.#calls.get(block.toolCallId);
				if (call !== undefined && block !== undefined) {
					this.#calls.delete(block.toolCallId);
					if (!block.isError) {
						this.#settled(call, event.data.meta, contentText(block.content));
					}
				}

				break;
			}

			default: {
				if (event.type === 'acp/write') {
					this.#acpWrite(event.seq, event.data);
				}

				break;
			}
		}
	}

	/** The groups `/undo` takes back, newest first. */
	done(): ChangeGroup[] {
		return this.#done.map(key => this.#groups.get(key)!).reverse();
	}

	/** The undo group `/redo` takes back next, if any. */
	redoable(): ChangeGroup | undefined {
		const key = this.#undone.at(-1);
		return key === undefined ? undefined : this.#groups.get(key);
	}

	/**
	The change group of one card alone (`card:ID`), for `u` in the pager: the edit's or write's change
	(an ACP agent's writes of that call), or why that card cannot be taken back alone.
	*/
	cardGroup(callId: string): ChangeGroup | {readonly unavailable: string} {
		if (this.#cardsUndone.has(callId)) {
			return {unavailable: 'this card was taken back already (its undo card, or a redo of it, is the step to take back now: /undo, /redo)'};
		}

		const recorded = this.#byCall.get(callId);
		if (recorded === undefined || recorded.changes.length === 0) {
			return {unavailable: 'only an edit or a write that changed a file can be taken back alone (/undo takes back a turn, commands included)'};
		}

		if (!this.#done.includes(recorded.group)) {
			return {unavailable: 'its turn was already taken back (/redo puts it back)'};
		}

		const {seq} = this.#groups.get(recorded.group)!;
		return {key: cardKey(callId), kind: 'change', seq, changes: recorded.changes};
	}

	#key(turn: number | undefined, callId: string): string {
		const open = turn ?? this.#openTurn;
		return open === undefined ? `call:${callId}` : `turn:${open}`;
	}

	#settled(call: OpenCall, meta: unknown, text: string): void {
		if (call.name === UNDO_TOOL) {
			const args = undoArgs(call.args);
			const change = args === undefined ? undefined : changeFromMeta(args.path, meta);
			if (args !== undefined && change !== undefined) {
				// Taking an undo card back names what it took back: a redo of an edit is `Redo edit …`.
				this.#undoCard(args.action, args.op, args.targets, call.seq, {tool: args.undoes, path: args.path, change});
			}

			return;
		}

		const args = isPlainRecord(call.args) ? call.args : {};
		const path = typeof args.file_path === 'string' ? args.file_path : undefined;
		if (path === undefined) {
			return;
		}

		this.#change(call.key, call.seq, {tool: call.name, callId: call.callId, path, change: cardChange(call.name, path, args.content, meta, text)});
	}

	#acpWrite(seq: number, data: Record<string, unknown>): void {
		const {path, callId, change} = data;
		const recorded = typeof path === 'string' ? changeFromMeta(path, change) : undefined;
		if (typeof path === 'string' && typeof callId === 'string') {
			this.#change(this.#key(undefined, callId), seq, {tool: 'acp write', callId, path, change: recorded ?? {unknown: 'the log holds no record of its earlier text'}});
		}
	}

	/** A turn that ran a command: done, though what it changed is known only from its snapshots (nothing undone is lost to it). */
	#commandTurn(key: string, seq: number): void {
		this.#group(key, 'change', seq);
		if (!this.#done.includes(key)) {
			this.#done.push(key);
		}
	}

	/** A change of a person's or an agent's: its group is done, and nothing undone can be redone any more. */
	#change(key: string, seq: number, change: RecordedChange): void {
		this.#group(key, 'change', seq).changes.push(change);
		if (change.callId !== undefined) {
			const recorded = this.#byCall.get(change.callId) ?? {group: key, changes: []};
			recorded.changes.push(change);
			this.#byCall.set(change.callId, recorded);
		}

		if (!this.#done.includes(key)) {
			this.#done.push(key);
		}

		this.#undone = [];
	}

	#undoCard(action: 'undo' | 'redo', op: string, targets: readonly string[], seq: number, change: RecordedChange): void {
		this.#group(op, action, seq).changes.push(change);
		for (const target of targets) {
			this.#cardTakenBack(target);
		}

		if (action === 'undo') {
			this.#done = this.#done.filter(key => !targets.includes(key));
			if (!this.#undone.includes(op)) {
				this.#undone.push(op);
			}
		} else {
			this.#undone = this.#undone.filter(key => !targets.includes(key));
			if (!this.#done.includes(op)) {
				this.#done.push(op);
			}
		}
	}

	/** An undo of one card alone: its changes leave its turn's group, so `/undo` of the turn does not take them back twice. */
	#cardTakenBack(target: string): void {
		const callId = target.startsWith(CARD_KEY) ? target.slice(CARD_KEY.length) : undefined;
		const recorded = callId === undefined ? undefined : this.#byCall.get(callId);
		if (callId === undefined || recorded === undefined || this.#cardsUndone.has(callId)) {
			return;
		}

		this.#cardsUndone.add(callId);
		const group = this.#groups.get(recorded.group);
		if (group !== undefined) {
			group.changes = group.changes.filter(change => !recorded.changes.includes(change));
			group.takenBack = [...group.takenBack, ...recorded.changes];
		}
	}

	#group(key: string, kind: ChangeGroup['kind'], seq: number): Group {
		let group = this.#groups.get(key);
		if (group === undefined) {
			group = {key, kind, seq, changes: [], takenBack: []};
			this.#groups.set(key, group);
		}

		return group;
	}
}

/** The prefix of the group key of one card taken back alone. */
const CARD_KEY = 'card:';

function cardKey(callId: string): string {
	return `${CARD_KEY}${callId}`;
}

/** The change an `edit` or `write` card recorded. */
function cardChange(name: string, path: string, content: unknown, meta: unknown, text: string): RecordedChange['change'] {
	if (name === 'write' && /\nCreated file\n/.test(text) && typeof content === 'string') {
		return {operation: 'create', path, content};
	}

	if (isPlainRecord(meta) && meta.basis === false) {
		return {unknown: 'the file was too large or not text, so its earlier text was not recorded'};
	}

	const diffs = diffsFromMeta(meta);
	// A write that changed nothing has no hunks; an edit always has some.
	return diffs === undefined && !(isPlainRecord(meta) && Array.isArray(meta.diffs)) ? {unknown: 'its card holds no hunks'} : {operation: 'update', path, diffs: diffs ?? []};
}
