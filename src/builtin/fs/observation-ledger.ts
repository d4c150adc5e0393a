/**
@module The opt-in read-before-edit policy (off by default): with it, `edit` and an overwriting
`write` are refused until the file was read (or written) in this session, and again when it changed
on disk since. Files are keyed by real path and versioned by modification time and size.
*/
import type {Stats} from 'node:fs';
import {FsError} from '../workspace/fs-error.js';

/** What identifies one version of a file. */
export type FileVersion = {readonly mtimeMs: number; readonly size: number};

/** The version of `info`. */
export function versionOf(info: Pick<Stats, 'mtimeMs' | 'size'>): FileVersion {
	return {mtimeMs: info.mtimeMs, size: info.size};
}

/** The files a session has observed, with the version it saw. */
export class ObservationLedger {
	readonly #seen = new Map<string, FileVersion>();

	/** Remember that the session saw `real` at `version`. */
	record(real: string, version: FileVersion): void {
		this.#seen.set(real, version);
	}

	/**
	Throw unless `real` was observed at exactly `current`: `FS_NOT_OBSERVED` when never read,
	`FS_STALE_VERSION` when it changed since.
	*/
	check(real: string, current: FileVersion, displayPath: string, tool: 'edit' | 'write'): void {
		const seen = this.#seen.get(real);
		if (seen === undefined) {
			throw new FsError(`${tool} requires reading "${displayPath}" first — read the file, then retry`, 'FS_NOT_OBSERVED');
		}

		if (seen.mtimeMs !== current.mtimeMs || seen.size !== current.size) {
			throw new FsError(`"${displayPath}" changed since it was last read — read it again, then retry`, 'FS_STALE_VERSION');
		}
	}
}
