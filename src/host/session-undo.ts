/**
@module `/undo` and `/redo` of a session, native or ACP alike (issue 20): the change groups the
session's history names (`change-history.ts`) are taken back on disk (`undo-files.ts`), and each file
taken back is a settled `cardterm_undo` card appended to the log (`undo-card.ts`): the log is never
rewritten, and a redo is the undo of an undo. The model or agent is told what was taken back, as a
durable note in the conversation, so its next step does not assume the old files.
*/
import {changeMeta, UNDO_TOOL, undoPresenter, type FileChange, type UndoArgs} from '../builtin/fs/undo-card.js';
import type {Card} from '../presentation/card.js';
import {cardResult, pendingCard, settleCard} from '../presentation/compose-card.js';
import {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import type {EventDraft, EventLog} from '../session/events/event-log.js';
import type {SessionRuntime} from '../session/recorder/session-runtime.js';
import {READ_ONLY_TOOLS, type ChangeGroup, type ChangeHistory} from './change-history.js';
import type {OpenedSession} from './open-session.js';
import {withCommandChanges} from './command-changes.js';
import {TurnSnapshots} from './turn-snapshots.js';
import {applyStepBack, planStepBack, stepChange, type FileStep} from './undo-files.js';

/** One card of a step back: its arguments, the change it made, what its result says. */
export type UndoCard = {readonly args: UndoArgs; readonly change: FileChange; readonly text: string};

/** How a session records a step back: the cards, then the note for the model or agent. */
export type StepRecorder = {
	/** An id no other step back of this log has. */
	nextOp(): string;
	record(cards: readonly UndoCard[], note: string): Promise<void>;
};

/** What a step back did, for the person. */
export type StepOutcome = {readonly tone: 'info' | 'error'; readonly message: string};

/** What `u` on a card in the pager would append (the undo cards, unconfirmed), or why it cannot. */
export type CardUndoPreview = {readonly ok: true; readonly cards: readonly Card[]} | {readonly ok: false; readonly message: string};

/** `u` in the pager of a live session: the preview of taking one card back, then the step itself. */
export type CardUndo = {
	preview(callId: string): Promise<CardUndoPreview>;
	apply(callId: string): Promise<StepOutcome>;
};

/** Most turns one `/undo N` takes back. */
export const UNDO_MAX_TURNS = 100;

export type SessionUndoOptions = {
	readonly history: ChangeHistory;
	readonly guard: WorkspaceGuard;
	readonly recorder: StepRecorder;
	/** The turns' shadow snapshots: what commands changed. */
	readonly snapshots: TurnSnapshots;
};

export class SessionUndo {
	readonly #history: ChangeHistory;
	readonly #guard: WorkspaceGuard;
	readonly #recorder: StepRecorder;
	readonly #snapshots: TurnSnapshots;

	constructor(options: SessionUndoOptions) {
		this.#history = options.history;
		this.#guard = options.guard;
		this.#recorder = options.recorder;
		this.#snapshots = options.snapshots;
	}

	/** Take back the file changes of the last `turns` turns that changed files (through cards or, with the shadow snapshots, commands). */
	async undo(turns = 1): Promise<StepOutcome> {
		return this.#undo(this.#history.done(), turns);
	}

	/** Take back every file change made from seq `seq` on (`/rewind` to just before a message). */
	async undoSince(seq: number): Promise<StepOutcome> {
		const since = this.#history.done().filter(group => group.seq >= seq);
		return this.#undo(since, since.length);
	}

	async #undo(candidates: readonly ChangeGroup[], turns: number): Promise<StepOutcome> {
		const groups: ChangeGroup[] = [];
		const skipped: string[] = [];
		for (const group of candidates) {
			if (groups.length === turns) {
				break;
			}

			// eslint-disable-next-line no-await-in-loop -- newest first, until enough turns changed files
			const full = await withCommandChanges(group, this.#snapshots, this.#guard.workspace, skipped);
			if (full.changes.length > 0) {
				groups.push(full);
			}
		}

		const unavailable = await this.#snapshots.unavailable();
		const caveat = unavailable === undefined ? '' : ` (${unavailable}: what shell commands changed is not taken back, only edits and writes)`;
		if (groups.length === 0) {
			return {tone: 'info', message: `nothing to undo: no file changes in this session are left to take back${caveat}`};
		}

		const outcome = await this.#stepBack('undo', groups);
		const left = skipped.length === 0 ? '' : `; not taken back (not text): ${skipped.join(', ')}`;
		return {...outcome, message: `${outcome.message}${left}${caveat}`};
	}

	/**
	What taking back the change of one card alone (`u` in the pager) would append: the undo cards, as
	the log would record them, or why it cannot (a conflict names the file and its lines). Writes nothing.
	*/
	async previewCard(callId: string): Promise<CardUndoPreview> {
		const group = this.#history.cardGroup(callId);
		if ('unavailable' in group) {
			return {ok: false, message: `cannot undo this card alone: ${group.unavailable}`};
		}

		const plan = await planStepBack(this.#guard, [group]);
		if (!plan.ok) {
			return {ok: false, message: `undo refused: ${plan.refusal}`};
		}

		if (plan.files.length === 0) {
			return {ok: false, message: 'nothing to undo: the file already holds what taking this card back would give it'};
		}

		return {ok: true, cards: plan.files.map(file => previewCard(this.#cardOf('undo', file, 'preview', [group.key])))};
	}

	/** Take back the change of one card alone, planned again on the files as they are now (a file changed since the preview is refused as `/undo` refuses it). */
	async undoCard(callId: string): Promise<StepOutcome> {
		const group = this.#history.cardGroup(callId);
		if ('unavailable' in group) {
			return {tone: 'error', message: `cannot undo this card alone: ${group.unavailable}`};
		}

		const first = group.changes[0]!;
		return this.#stepBack('undo', [group], `the ${first.tool} of ${first.path} (that card alone)`);
	}

	/** The session closes: the snapshots under way end (briefly waited for). */
	async close(): Promise<void> {
		await this.#snapshots.close();
	}

	/** Take back the last undo (a change made since leaves nothing to redo). */
	async redo(): Promise<StepOutcome> {
		const group = this.#history.redoable();
		if (group === undefined) {
			return {tone: 'info', message: 'nothing to redo: no undo since the last change'};
		}

		return this.#stepBack('redo', [group]);
	}

	async #stepBack(action: 'undo' | 'redo', groups: readonly ChangeGroup[], named?: string): Promise<StepOutcome> {
		const plan = await planStepBack(this.#guard, groups);
		if (!plan.ok) {
			return {tone: 'error', message: `${named === undefined ? `/${action}` : action} refused: ${plan.refusal}`};
		}

		const what = named ?? (action === 'undo' ? `the file changes of the last ${groups.length === 1 ? 'turn' : `${groups.length} turns`}` : 'the last undo');
		if (plan.files.length === 0) {
			return {tone: 'info', message: `nothing to ${action}: the files already hold what ${what} would give them`};
		}

		const failed = await applyStepBack(this.#guard, plan.files);
		if (failed !== undefined) {
			return {tone: 'error', message: `${named === undefined ? `/${action}` : action} refused: ${failed}`};
		}

		const op = this.#recorder.nextOp();
		const targets = groups.map(group => group.key);
		const cards = plan.files.map(file => this.#cardOf(action, file, op, targets));
		await this.#recorder.record(cards, noteText(action, what, plan.files));
		return {tone: 'info', message: `${action === 'undo' ? 'undid' : 'redid'} ${what}: ${plan.files.map(file => file.path).join(', ')}`};
	}


	#cardOf(action: 'undo' | 'redo', file: FileStep, op: string, targets: readonly string[]): UndoCard {
		return {args: {action, undoes: file.tools.join('+'), path: file.path, op, targets}, change: stepChange(file), text: cardText(action, file)};
	}
}

/** The undo card a step would append, as the pager shows it before it is confirmed (the same presenter as the log's card). */
function previewCard(card: UndoCard): Card {
	const pending = pendingCard({callId: `preview-${card.args.path}`, name: UNDO_TOOL, argsRaw: JSON.stringify(card.args), seq: -1, time: null}, undoPresenter);
	return settleCard(pending, cardResult([{type: 'text', text: card.text}], false, undefined, changeMeta(card.change)), null, undoPresenter);
}

/** What an undo card's result says (the model never sees it; the note tells it). */
function cardText(action: 'undo' | 'redo', file: FileStep): string {
	const done = file.after === undefined ? 'removed' : (file.before === undefined ? 'created again' : 'restored');
	return `${action === 'undo' ? 'Undid' : 'Redid'} the ${file.tools.join(' and ')} of ${file.path}: ${done}`;
}

function noteText(action: 'undo' | 'redo', what: string, files: readonly FileStep[]): string {
	const lines = files.map(file => `- ${file.path}: ${file.after === undefined ? 'removed' : (file.before === undefined ? 'back in place' : `its ${file.tools.join(' and ')} taken back`)}`);
	const head = action === 'undo'
		? `The person undid ${what}. These files are now as they were before:`
		: 'The person redid what their last undo took back. These files hold the changes again:';
	return [head, ...lines, 'Read a file again before relying on its content.'].join('\n');
}

/** The note as the log records it: a message from cardterm, which the model is told as a note. */
export function undoNoteDraft(note: string, seq: number): EventDraft {
	return {type: 'user/message', data: {id: `undo-note-${seq}`, role: 'user', content: [{type: 'text', text: note}], source: {kind: 'plugin', plugin: 'undo'}}, surfaceOp: 'append'};
}

/** A native session's recorder: the cards in a turn of their own, the note in it for the model. */
export function runtimeRecorder(session: {readonly runtime: SessionRuntime; readonly log: EventLog}): StepRecorder {
	return {
		nextOp: () => `op-${session.log.nextSeq}`,
		async record(cards, note) {
			const signal = new AbortController().signal;
			await session.runtime.turn(async step => {
				for (const card of cards) {
					// eslint-disable-next-line no-await-in-loop -- cards in file order
					await step.call(UNDO_TOOL, card.args, {signal, settled: {isError: false, value: null, content: [{type: 'text', text: card.text}], meta: changeMeta(card.change)}});
				}

				session.log.emit(undoNoteDraft(note, session.log.nextSeq));
			});
		},
	};
}

/**
The turns' snapshots of a session in the shadow repository `shadowDir` (none without one, or without
git): taken as its turns start and end, and waited for by a command that would run before its
turn's first snapshot is done.
*/
export function sessionSnapshots(session: Pick<OpenedSession, 'id' | 'log' | 'registry'>, cwd: string, shadowDir: string | undefined): TurnSnapshots {
	const snapshots = new TurnSnapshots(cwd, shadowDir, session.id);
	session.log.listen(event => {
		snapshots.apply(event);
	});
	session.registry.on('tools/pre-execute', async (exec, next) => {
		if (!READ_ONLY_TOOLS.has(exec.name)) {
			await snapshots.ready();
		}

		return next();
	});
	return snapshots;
}

/** `/undo` of a native session: files in its workspace, the cards and the note through its runtime, commands' changes through the shadow snapshots in `shadowDir`. */
export function nativeUndo(session: Pick<OpenedSession, 'id' | 'runtime' | 'log' | 'changes' | 'registry'>, cwd: string, shadowDir?: string): SessionUndo {
	return new SessionUndo({history: session.changes, guard: new WorkspaceGuard({workspace: cwd}), recorder: runtimeRecorder(session), snapshots: sessionSnapshots(session, cwd, shadowDir)});
}
