/**
@module The effectful half of `write` and `edit`: load the prior file through the workspace guard,
then replace it atomically with its permission bits kept.
*/
import type {Stats} from 'node:fs';
import {stat} from 'node:fs/promises';
import {FsError, ioFailure, isErrno} from '../workspace/fs-error.js';
import type {ContainedPath, WorkspaceGuard} from '../workspace/workspace-guard.js';
import {writeFileAtomic} from './atomic-write.js';
import {versionOf, type ObservationLedger} from './observation-ledger.js';
import {applyEdit, type EditInput, type EditValue} from './edit-card.js';
import {decodeUtf8Text} from './text-decode.js';
import type {WriteValue} from './write-card.js';

/** Default largest prior file (and new text) that still gets a contextual diff, and the largest file `edit` loads. */
export const DIFF_BASIS_MAX_BYTES = 10 * 1024 * 1024;

/** Caps of the mutating tools. */
export type MutateCaps = {
	/** A prior file or new text at or over this many bytes gets a whole-file diff (`before: null`). */
	readonly diffBasisMaxBytes: number;
	/** `edit` refuses files at or over this many bytes. */
	readonly editMaxBytes: number;
	/** The opt-in read-before-edit policy; absent: edits and overwrites need no prior read. */
	readonly ledger?: ObservationLedger;
};

/** Record the version just written, so the session may edit its own file again. */
async function recordWritten(caps: MutateCaps, target: ContainedPath): Promise<void> {
	if (caps.ledger !== undefined) {
		caps.ledger.record(target.real, versionOf(await stat(target.real)));
	}
}

/** The prior file's metadata, or `undefined` when nothing exists there. */
async function priorStat(target: ContainedPath, operation: string): Promise<Stats | undefined> {
	try {
		return await stat(target.real);
	} catch (error) {
		if (isErrno(error, 'ENOENT')) {
			return undefined;
		}

		throw ioFailure(operation, target.absolute, error);
	}
}

/** The prior bytes, read through a re-checked descriptor; `undefined` when the file changed size while being read. */
async function readStable(guard: WorkspaceGuard, target: ContainedPath, signal: AbortSignal): Promise<{bytes: Buffer; mode: number} | undefined> {
	const handle = await guard.openForRead(target);
	try {
		const before = await handle.stat();
		if (!before.isFile()) {
			throw new FsError(`cannot modify "${target.absolute}": not a regular file`, 'FS_NOT_A_FILE');
		}

		signal.throwIfAborted();
		const bytes = await handle.readFile();
		const after = await handle.stat();
		const stable = bytes.length === after.size && after.mtimeMs === before.mtimeMs;
		return stable ? {bytes, mode: before.mode} : undefined;
	} finally {
		await handle.close();
	}
}

/**
The file `write` or `edit` would act on, with what is there now; throws the `FsError` the tool
refuses the path with (outside the workspace, not a regular file, and for `edit` missing). The
interactive `/write` and `/edit` ask it before collecting any text; the tools ask it again when they run.
*/
export async function mutationTarget(guard: WorkspaceGuard, filePath: string, operation: 'write' | 'edit'): Promise<{readonly target: ContainedPath; readonly prior: Stats | undefined}> {
	const target = await guard.resolve(filePath);
	const display = target.absolute;
	const prior = await priorStat(target, operation);
	if (prior === undefined && operation === 'edit') {
		throw new FsError(`cannot edit "${display}": not found`, 'FS_NOT_FOUND');
	}

	if (prior !== undefined && !prior.isFile()) {
		throw new FsError(`cannot ${operation} "${display}": not a regular file`, 'FS_NOT_A_FILE');
	}

	return {target, prior};
}

/**
`write`: create or replace the file with `content`. The prior text becomes the diff basis only when
it is UTF-8 text, both sides are under `diffBasisMaxBytes`, and it did not change while being read.
*/
export async function writeWorkspaceFile(
	guard: WorkspaceGuard,
	input: {readonly filePath: string; readonly content: string},
	caps: MutateCaps,
	signal: AbortSignal,
): Promise<WriteValue> {
	const {target, prior} = await mutationTarget(guard, input.filePath, 'write');
	const display = target.absolute;

	let before: string | null = null;
	let mode: number | undefined;
	try {
		if (prior !== undefined) {
			caps.ledger?.check(target.real, versionOf(prior), display, 'write');
			mode = prior.mode;
			const fits = prior.size < caps.diffBasisMaxBytes && Buffer.byteLength(input.content, 'utf8') < caps.diffBasisMaxBytes;
			const loaded = fits ? await readStable(guard, target, signal) : undefined;
			before = loaded === undefined ? null : (decodeUtf8Text(loaded.bytes) ?? null);
			mode = loaded?.mode ?? mode;
		}

		signal.throwIfAborted();
		await writeFileAtomic(guard, target, input.content, mode === undefined ? {} : {mode});
		await recordWritten(caps, target);
	} catch (error) {
		if (error instanceof FsError || signal.aborted) {
			throw error;
		}

		throw ioFailure('write', display, error);
	}

	return {path: display, operation: prior === undefined ? 'create' : 'update', before, after: input.content};
}

/** `edit`: replace literal text in an existing UTF-8 file. */
export async function editWorkspaceFile(guard: WorkspaceGuard, input: EditInput, caps: MutateCaps, signal: AbortSignal): Promise<EditValue> {
	const {target, prior: found} = await mutationTarget(guard, input.filePath, 'edit');
	const display = target.absolute;
	// mutationTarget refuses a missing file for `edit`.
	const prior = found!;

	if (prior.size >= caps.editMaxBytes) {
		throw new FsError(`cannot edit "${display}": the file has ${prior.size} bytes, over the ${caps.editMaxBytes}-byte edit limit`, 'FS_FILE_TOO_LARGE');
	}

	caps.ledger?.check(target.real, versionOf(prior), display, 'edit');
	try {
		const loaded = await readStable(guard, target, signal);
		if (loaded === undefined) {
			throw new FsError(`cannot edit "${display}": the file changed while it was being read; retry`, 'FS_IO_FAILED');
		}

		const before = decodeUtf8Text(loaded.bytes);
		if (before === undefined) {
			throw new FsError(`cannot edit "${display}": not a UTF-8 text file`, 'FS_BINARY_FILE');
		}

		const after = applyEdit(before, input, display);
		signal.throwIfAborted();
		await writeFileAtomic(guard, target, after, {mode: loaded.mode});
		await recordWritten(caps, target);
		return {path: display, before, after};
	} catch (error) {
		if (error instanceof FsError || signal.aborted) {
			throw error;
		}

		if (isErrno(error, 'ENOENT')) {
			throw new FsError(`cannot edit "${display}": not found`, 'FS_NOT_FOUND');
		}

		throw ioFailure('edit', display, error);
	}
}
