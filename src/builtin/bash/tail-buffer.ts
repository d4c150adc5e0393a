/**
@module A fixed-size ring of the last bytes written: what a flooding command can cost in memory
is the limit, whatever it prints.
*/
import {decodeUtf8, dropLeadingPartial} from './utf8.js';

/** Keeps the last `limit` bytes pushed into it. */
export class TailBuffer {
	readonly limit: number;
	readonly #ring: Buffer;
	/** Next write position in the ring. */
	#position = 0;
	#filled = 0;
	#total = 0;

	constructor(limit: number) {
		if (!Number.isSafeInteger(limit) || limit < 1) {
			throw new Error(`TailBuffer: limit must be a positive integer, got ${limit}`);
		}

		this.limit = limit;
		this.#ring = Buffer.alloc(limit);
	}

	/** Bytes pushed so far, kept or not. */
	get totalBytes(): number {
		return this.#total;
	}

	/** Whether some pushed bytes were dropped. */
	get truncated(): boolean {
		return this.#total > this.#filled;
	}

	/** Bytes currently held. */
	get length(): number {
		return this.#filled;
	}

	push(chunk: Uint8Array): void {
		this.#total += chunk.length;
		const {limit} = this;
		if (chunk.length >= limit) {
			this.#ring.set(chunk.subarray(chunk.length - limit));
			this.#position = 0;
			this.#filled = limit;
			return;
		}

		const first = Math.min(chunk.length, limit - this.#position);
		this.#ring.set(chunk.subarray(0, first), this.#position);
		if (first < chunk.length) {
			this.#ring.set(chunk.subarray(first), 0);
		}

		this.#position = (this.#position + chunk.length) % limit;
		this.#filled = Math.min(limit, this.#filled + chunk.length);
	}

	/** The held bytes, oldest first (a copy). */
	bytes(): Buffer {
		if (this.#filled < this.limit) {
			return Buffer.from(this.#ring.subarray(0, this.#filled));
		}

		return Buffer.concat([this.#ring.subarray(this.#position), this.#ring.subarray(0, this.#position)]);
	}

	/** The held bytes as text; a character cut off at the start of a truncated tail is dropped. */
	text(): string {
		const bytes = this.bytes();
		return decodeUtf8(this.truncated ? dropLeadingPartial(bytes) : bytes);
	}

	/** Forget everything, including the count of dropped bytes. */
	clear(): void {
		this.#position = 0;
		this.#filled = 0;
		this.#total = 0;
	}
}
