/**
@module The full output of one stream, written to a file once it outgrows the in-memory tail, so
the truncation marker can name where everything is. Writes are synchronous so memory stays bounded
even when a command floods.
*/
import {closeSync, mkdirSync, openSync, rmSync, writeSync} from 'node:fs';
import {randomBytes} from 'node:crypto';
import {join} from 'node:path';
import {PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE} from '../../session/store/private-mode.js';

/** A lazily created spill file with a size cap. */
export class SpillFile {
	readonly path: string;
	readonly #maxBytes: number;
	#fd: number | undefined;
	#written = 0;
	#failed = false;
	#closed = false;

	/** `name` tells the streams apart (`stdout`, `stderr`); nothing touches the disk before `write`. */
	constructor(directory: string, name: string, maxBytes: number) {
		this.path = join(directory, `bash-${Date.now()}-${randomBytes(4).toString('hex')}-${name}.log`);
		this.#maxBytes = maxBytes;
	}

	/** Whether the file holds everything written to it so far (no I/O error, cap not reached). */
	get complete(): boolean {
		return !this.#failed && this.#written <= this.#maxBytes;
	}

	/** Append bytes; past the cap or after an I/O error, bytes are dropped. */
	write(bytes: Uint8Array): void {
		if (this.#failed || this.#closed) {
			return;
		}

		const room = this.#maxBytes - this.#written;
		this.#written += bytes.length;
		if (room <= 0) {
			return;
		}

		try {
			if (this.#fd === undefined) {
				mkdirSync(join(this.path, '..'), {recursive: true, mode: PRIVATE_FOLDER_MODE});
				this.#fd = openSync(this.path, 'wx', PRIVATE_FILE_MODE);
			}

			const slice = bytes.length > room ? bytes.subarray(0, room) : bytes;
			let offset = 0;
			while (offset < slice.length) {
				offset += writeSync(this.#fd, slice, offset, slice.length - offset);
			}
		} catch {
			this.#failed = true;
		}
	}

	/** Close and delete the file: an incomplete spill is worse than none. */
	discard(): void {
		const created = this.#fd !== undefined;
		this.close();
		if (created) {
			rmSync(this.path, {force: true});
		}
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
