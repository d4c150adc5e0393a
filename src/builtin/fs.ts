/**
@module The file tools `read`, `write` and `edit`, confined to the session workspace (and any extra
allowed roots). Spec: contract.md §E2.3–§E2.5, §E5.1.
*/
import type {ToolDefinition} from '../tools/types.js';
import {editTool} from './fs/edit-tool.js';
import {DIFF_BASIS_MAX_BYTES} from './fs/mutate-file.js';
import {ObservationLedger} from './fs/observation-ledger.js';
import {READ_LIMIT, READ_MAX_BYTES, READ_MAX_LINE_LENGTH} from './fs/read-window.js';
import {readTool} from './fs/read-tool.js';
import {writeTool} from './fs/write-tool.js';
import {WorkspaceGuard} from './workspace/workspace-guard.js';
export {mutationTarget} from './fs/mutate-file.js';
export {WorkspaceGuard} from './workspace/workspace-guard.js';

/** Configuration of the file tools. Every cap has the spec's default. */
export type FsToolsOptions = {
	/** The session workspace; relative paths resolve against it and nothing may escape it. */
	readonly workspace: string;
	/** Extra directories the tools may reach besides the workspace. */
	readonly allowedRoots?: readonly string[];
	/** A guard to share with other tool families (built from `workspace`/`allowedRoots` when absent). */
	readonly guard?: WorkspaceGuard;
	/** Default and largest `read` limit in lines (2000). */
	readonly readLimit?: number;
	/** Characters kept per read line (2000). */
	readonly readMaxLineLength?: number;
	/** Bytes of selected lines per read (50 KiB). */
	readonly readMaxBytes?: number;
	/** Prior files and new texts at or over this size get a whole-file diff (10 MiB). */
	readonly diffBasisMaxBytes?: number;
	/** Largest file `edit` loads (10 MiB). */
	readonly editMaxBytes?: number;
	/**
	Opt-in policy: `edit` and an overwriting `write` need the file to have been read (or written) by
	these tools first, unchanged since (`FS_NOT_OBSERVED`, `FS_STALE_VERSION`). Off by default.
	*/
	readonly requireReadBeforeEdit?: boolean;
};

/** The `read`, `write` and `edit` tools for one session. */
export function fsTools(options: FsToolsOptions): ToolDefinition[] {
	const guard = options.guard ?? new WorkspaceGuard(options);
	const ledger = options.requireReadBeforeEdit === true ? new ObservationLedger() : undefined;
	const mutate = {
		diffBasisMaxBytes: options.diffBasisMaxBytes ?? DIFF_BASIS_MAX_BYTES,
		editMaxBytes: options.editMaxBytes ?? DIFF_BASIS_MAX_BYTES,
		...(ledger === undefined ? {} : {ledger}),
	};
	return [
		readTool(guard, {
			readLimit: options.readLimit ?? READ_LIMIT,
			maxLineLength: options.readMaxLineLength ?? READ_MAX_LINE_LENGTH,
			maxBytes: options.readMaxBytes ?? READ_MAX_BYTES,
			...(ledger === undefined ? {} : {ledger}),
		}),
		writeTool(guard, mutate),
		editTool(guard, mutate),
	];
}
