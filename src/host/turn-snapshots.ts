/**
@module The workspace snapshotted at each turn's start and end in the shadow repository
(`shadow-git.ts`), so `/undo` knows what a turn's shell commands changed: the files that differ
between its two snapshots. Snapshots are taken off the turn's path — begun when the turn starts,
while the model thinks — and one after another (the shadow index is one); a command that would run
before its turn's first snapshot is done waits for it (`ready`), so the snapshot is of the files
before any command of the turn touched them. Without git (or a place for the repository) there are
no snapshots, and `unavailable` says why.
*/
import type {SessionEvent} from '../session/events/events.js';
import {ShadowGit, type SnapshotChange} from './shadow-git.js';

/** How long a closing session waits for the snapshots under way. */
const CLOSE_GRACE_MS = 2000;

export class TurnSnapshots {
	readonly #shadow: Promise<ShadowGit | {readonly unavailable: string}>;
	readonly #prefix: string;
	/** Snapshots run in this chain; it never rejects. */
	#chain: Promise<unknown>;
	/** Why a snapshot failed, the last time one did. */
	#failed: string | undefined;
	#closed = false;

	/** Snapshots of `workspace` in the shadow repository `directory` (none when `undefined`), under refs named for `sessionId`. */
	constructor(workspace: string, directory: string | undefined, sessionId: string) {
		this.#shadow = directory === undefined ? Promise.resolve({unavailable: 'no shadow repository'}) : ShadowGit.open(workspace, directory, sessionId);
		this.#chain = this.#shadow;
		this.#prefix = `refs/cardterm/${sessionId.replaceAll(/[^\w.-]/g, '_')}`;
		// The first snapshot hashes every file: taken as the session opens, so no turn waits for it.
		this.#take(`${this.#prefix}/opened`);
	}

	/** Snapshot at a turn's start and end, as the session's events say. */
	apply(event: SessionEvent): void {
		if (event.type === 'turn/start' || event.type === 'turn/end') {
			this.#take(`${this.#prefix}/${event.data.turn}/${event.type === 'turn/start' ? 'start' : 'end'}`);
		}
	}

	/** Resolves when every snapshot begun so far is taken. */
	async ready(): Promise<void> {
		await this.#chain;
	}

	/** Why there are no snapshots, if there are none. */
	async unavailable(): Promise<string | undefined> {
		const shadow = await this.#shadow;
		return 'unavailable' in shadow ? shadow.unavailable : undefined;
	}

	/** The files turn `turn` changed between its snapshots (but those `skip` names), or why that is not known. */
	async changes(turn: number, skip?: (path: string) => boolean): Promise<SnapshotChange[] | {readonly unknown: string}> {
		await this.#chain;
		const shadow = await this.#shadow;
		if ('unavailable' in shadow) {
			return {unknown: shadow.unavailable};
		}

		const start = await shadow.tree(`${this.#prefix}/${turn}/start`);
		const end = await shadow.tree(`${this.#prefix}/${turn}/end`);
		if (start === undefined || end === undefined) {
			return {unknown: this.#failed ?? `turn ${turn} has no snapshot`};
		}

		return shadow.changes(start, end, skip);
	}

	/**
	The session closes: no more snapshots; the ones under way get `graceMs` to finish (the last turn's
	end, for a later `/undo`), then their git is stopped, so closing never waits on a large tree.
	*/
	async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
		this.#closed = true;
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([this.#chain, new Promise(resolve => {
			timer = setTimeout(resolve, graceMs);
		})]);
		clearTimeout(timer);
		const shadow = await this.#shadow;
		if (!('unavailable' in shadow)) {
			shadow.stop();
		}

		await this.#chain;
	}

	#take(ref: string): void {
		if (this.#closed) {
			return;
		}

		this.#chain = this.#chain.then(async () => {
			const shadow = await this.#shadow;
			if (!('unavailable' in shadow)) {
				await shadow.snapshot(ref);
			}
		}).catch((error: unknown) => {
			this.#failed = (error as Error).message;
		});
	}
}
