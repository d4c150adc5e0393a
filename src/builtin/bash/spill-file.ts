/**
@module The full output of one stream, written to a file once it outgrows the in-memory tail, so
the truncation marker can name where everything is. Writes are synchronous so memory stays bounded
even when a command floods. A file is capped, and the files of one tool share a budget (a session's
spill folder cannot grow without bound); a stream that hits either is not kept at all.
*/
import {closeSync, mkdirSync, openSync, rmSync, writeSync} from 'node:fs';
import {randomBytes} from 'node:crypto';
import {join} from 'node:path';
import {PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE} from '../../session/store/private-mode.js';

/** Bytes the spill files of one tool may still hold together (a discarded file gives its bytes back). */
export type SpillBudget = {remaining: number};

/** A lazily created spill file with a size cap. */
export class SpillFile {
	readonly path: string;
	readonly #maxBytes: number;
	readonly #budget: SpillBudget | undefined;
	#fd: number | undefined;
	#written = 0;
	#failed = false;
	#closed = false;

	/** `name` tells the streams apart (`stdout`, `stderr`); nothing touches the disk before `write`. */
	constructor(directory: string, name: string, maxBytes: number, budget?: SpillBudget) {
		this.path = join(directory, `bash-${Date.now()}-${randomBytes(4).toString('hex')}-${name}.log`);
		this.#maxBytes = maxBytes;
		this.#budget = budget;
	}

	/** Whether the file holds everything written to it so far (no I/O error, neither the cap nor the budget reached). */
	get complete(): boolean {
		return !this.#failed;
	}

	/** Append bytes; past the cap or the budget, or after an I/O error, nothing more is kept. */
	write(bytes: Uint8Array): void {
		if (this.#failed || this.#closed) {
			return;
		}

		// A stream cut short is worth nothing as "the full output": once it cannot all be kept, none is.
		if (this.#written + bytes.length > this.#maxBytes || (this.#budget !== undefined && bytes.length > this.#budget.remaining)) {
			this.#failed = true;
			return;
		}

		this.#written += bytes.length;
		if (this.#budget !== undefined) {
			this.#budget.remaining -= bytes.length;
		}

		try {
			if (this.#fd === undefined) {
				// Private: a command's output may hold secrets (the session folder is 0700 too).
				mkdirSync(join(this.path, '..'), {recursive: true, mode: PRIVATE_FOLDER_MODE});
				this.#fd = openSync(this.path, 'wx', PRIVATE_FILE_MODE);
			}

			let offset = 0;
			while (offset < bytes.length) {
				offset += writeSync(this.#fd, bytes, offset, bytes.length - offset);
			}
		} catch {
			this.#failed = true;
		}
	}

	/** Close and delete the file, giving its bytes back to the budget: an incomplete spill is worse than none. */
	discard(): void {
		const created = this.#fd !== undefined;
		this.close();
		if (created) {
			rmSync(this.path, {force: true});
		}

		if (this.#budget !== undefined) {
			this.#budget.remaining += this.#written;
		}

		this.#written = 0;
	}

	close(): void {
		this.#closed = true;
		if (this.#fd !== undefined) {
			try {
				closeSync(this.#fd);
			} catch {
				// Nothing left to do with a file that cannot be closed.
			}

			this.#fd = undefined;
		}
	}
}
