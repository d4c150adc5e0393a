/**
@module The classed error of the file tools (read, write, edit, and the path checks grep and glob share).
Its `{name: 'FsError', code}` lands on failed results so a UI or a policy can branch without parsing text.
*/
import {HarnessError} from '../../tools/errors.js';

/** Stable codes of `FsError`. */
export type FsErrorCode =
	/** The path (or a symlink on it) leads outside the workspace and every extra allowed root. */
	| 'FS_OUTSIDE_WORKSPACE'
	/** The path contains a byte no file name may hold (NUL). */
	| 'FS_INVALID_PATH'
	/** Nothing exists at the path, or a read offset lies past the end of the file. */
	| 'FS_NOT_FOUND'
	/** The path exists but is not a regular file (a directory, a device, a socket…). */
	| 'FS_NOT_A_FILE'
	/** A search root exists but is not a directory where one is required (glob). */
	| 'FS_NOT_A_DIRECTORY'
	/** The file holds NUL bytes or is not UTF-8 text, so a text tool refuses it. */
	| 'FS_BINARY_FILE'
	/** The file is larger than the tool is willing to load. */
	| 'FS_FILE_TOO_LARGE'
	/** `edit`: `old_string` does not occur in the file. */
	| 'FS_EDIT_NOT_FOUND'
	/** `edit`: `old_string` occurs more than once and `replace_all` is not set. */
	| 'FS_AMBIGUOUS_EDIT'
	/** Read-before-edit policy (opt-in): the file was not read in this session. */
	| 'FS_NOT_OBSERVED'
	/** Read-before-edit policy (opt-in): the file changed on disk since it was read. */
	| 'FS_STALE_VERSION'
	/** The operating system refused the operation (permissions, read-only file system, full disk…). */
	| 'FS_IO_FAILED';

/** A file-tool failure with a stable code. The message names the operation and the path. */
export class FsError extends HarnessError {
	declare readonly code: FsErrorCode;

	constructor(message: string, code: FsErrorCode, options?: ErrorOptions) {
		super(message, code, options);
	}
}

/** Whether `error` is a Node system error with the given `code` (`ENOENT`, `ELOOP`…). */
export function isErrno(error: unknown, ...codes: readonly string[]): boolean {
	return typeof error === 'object' && error !== null && codes.includes((error as {code?: unknown}).code as string);
}

/** Plain words for the system errors a file tool meets most. */
const ERRNO_REASONS: Readonly<Record<string, string>> = {
	EACCES: 'permission denied',
	EPERM: 'operation not permitted',
	EROFS: 'read-only file system',
	ENOSPC: 'no space left on device',
	EDQUOT: 'disk quota exceeded',
	EISDIR: 'is a directory',
	ENAMETOOLONG: 'file name too long',
	EMFILE: 'too many open files',
};

/** Wrap an unexpected operating-system error as `FS_IO_FAILED`, naming the operation and the path. */
export function ioFailure(operation: string, displayPath: string, error: unknown): FsError {
	if (error instanceof FsError) {
		return error;
	}

	const code = typeof error === 'object' && error !== null ? (error as {code?: unknown}).code : undefined;
	const known = typeof code === 'string' ? ERRNO_REASONS[code] : undefined;
	const reason = known === undefined ? (typeof code === 'string' ? code : error instanceof Error ? error.message : String(error)) : `${known} (${code as string})`;
	return new FsError(`cannot ${operation} "${displayPath}": ${reason}`, 'FS_IO_FAILED', {cause: error});
}
