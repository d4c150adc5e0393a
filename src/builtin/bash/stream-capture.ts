/**
@module One captured output stream: the bounded tail kept in memory and, when a spill directory is
configured, the full stream in a file from the moment the tail overflows.
*/
import {SpillFile, type SpillBudget} from './spill-file.js';
import {TailBuffer} from './tail-buffer.js';

/** The value's view of a captured stream (contract.md §E2.1). */
export type CapturedStream = {readonly text: string; readonly truncated: boolean; readonly spillPath?: string};

/** Where full output may be spilled: a file's cap, and the budget the tool's files share. */
export type SpillOptions = {readonly directory: string; readonly maxBytes: number; readonly budget?: SpillBudget};

/** Captures one stream of a running command. */
export class StreamCapture {
	readonly #tail: TailBuffer;
	readonly #spill: SpillFile | undefined;
	#spilling = false;

	constructor(name: string, limit: number, spill?: SpillOptions) {
		this.#tail = new TailBuffer(limit);
		this.#spill = spill === undefined ? undefined : new SpillFile(spill.directory, name, spill.maxBytes, spill.budget);
	}

	push(chunk: Uint8Array): void {
		if (this.#spill !== undefined) {
			if (!this.#spilling && this.#tail.totalBytes + chunk.length > this.#tail.limit) {
				// Nothing was dropped yet: the tail still holds the whole stream so far.
				this.#spilling = true;
				this.#spill.write(this.#tail.bytes());
			}

			if (this.#spilling) {
				this.#spill.write(chunk);
			}
		}

		this.#tail.push(chunk);
	}

	/** Close the spill file and describe the stream. `spillPath` only when the file holds all of it. */
	finish(): CapturedStream {
		const truncated = this.#tail.truncated;
		const spillPath = truncated && this.#spill !== undefined && this.#spill.complete ? this.#spill.path : undefined;
		if (spillPath === undefined) {
			this.#spill?.discard();
		} else {
			this.#spill?.close();
		}

		return {text: this.#tail.text(), truncated, ...(spillPath === undefined ? {} : {spillPath})};
	}
}
