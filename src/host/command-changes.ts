/**
@module A turn's changes with what its commands changed (issue 20): the files that differ between
the turn's shadow snapshots, and that no card of the turn changed, join the changes its cards
recorded, named `command`, so the undo card says which changes came from commands. A file that is
not text on either side is left as it is, and named.
*/
import path from 'node:path';
import {computeHunks} from '../builtin/fs/hunks.js';
import {decodeUtf8Text} from '../builtin/fs/text-decode.js';
import type {FileChange} from '../builtin/fs/undo-card.js';
import type {ChangeGroup, RecordedChange} from './change-history.js';
import type {SnapshotChange} from './shadow-git.js';
import type {TurnSnapshots} from './turn-snapshots.js';

/** `group` with its commands' changes, when it is a turn with snapshots; binary files left are pushed on `skipped`. */
export async function withCommandChanges(group: ChangeGroup, snapshots: TurnSnapshots, workspace: string, skipped: string[]): Promise<ChangeGroup> {
	const turn = /^turn:(\d+)$/.exec(group.key)?.[1];
	if (group.kind !== 'change' || turn === undefined) {
		return group;
	}

	const where = (named: string): string => path.resolve(workspace, named);
	// A file a card changed is taken back by the card's own change: it is exact about what the tool
	// did, where the turn's end snapshot may already hold what someone wrote right after the turn.
	const carded = new Set([...group.changes, ...group.takenBack ?? []].map(change => where(change.path)));
	const found = await snapshots.changes(Number(turn), changed => carded.has(where(changed)));
	if ('unknown' in found) {
		return group;
	}

	const commands: RecordedChange[] = [];
	for (const change of found) {
		const text = textChange(change);
		if (text === undefined) {
			skipped.push(change.path);
			continue;
		}

		commands.push({tool: 'command', path: change.path, change: text});
	}

	return {...group, changes: [...group.changes, ...commands]};
}

/** A snapshot change as a text change; `undefined` when a side is not text. */
function textChange(change: SnapshotChange): FileChange | undefined {
	const before = change.before === undefined ? undefined : decodeUtf8Text(change.before);
	const after = change.after === undefined ? undefined : decodeUtf8Text(change.after);
	if ((change.before !== undefined && before === undefined) || (change.after !== undefined && after === undefined)) {
		return undefined;
	}

	if (before === undefined) {
		return {operation: 'create', path: change.path, content: after ?? ''};
	}

	if (after === undefined) {
		return {operation: 'delete', path: change.path, content: before};
	}

	return {operation: 'update', path: change.path, diffs: computeHunks(change.path, before, after)};
}
