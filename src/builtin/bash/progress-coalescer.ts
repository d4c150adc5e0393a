/**
@module Live output for a UI: chunks are coalesced per stream and flushed at most once per
interval, each flush bounded to a tail, so a flooding command costs a UI a few events per second.
The final result never depends on what was (or was not) reported here.
*/
import type {ToolProgress} from '../../tools/types.js';
import {TailBuffer} from './tail-buffer.js';
import {decodeUtf8, dropLeadingPartial, splitCompleteUtf8} from './utf8.js';

type Stream = ToolProgress['stream'];

/** Options: flush interval and per-flush bound. */
export type ProgressCoalescerOptions = {readonly intervalMs: number; readonly maxBytesPerFlush: number};

/** Buffers output chunks and reports them through `emit` at most once per interval. */
export class ProgressCoalescer {
	readonly #emit: (update: ToolProgress) => void;
	readonly #options: ProgressCoalescerOptions;
	readonly #pending: Record<Stream, TailBuffer>;
	/** An incomplete character held back from the previous flush, per stream. */
	readonly #carry: Record<Stream, Buffer> = {stdout: Buffer.alloc(0), stderr: Buffer.alloc(0)};
	#timer: NodeJS.Timeout | undefined;
	#closed = false;

	constructor(emit: (update: ToolProgress) => void, options: ProgressCoalescerOptions) {
		this.#emit = emit;
		this.#options = options;
		this.#pending = {stdout: new TailBuffer(options.maxBytesPerFlush), stderr: new TailBuffer(options.maxBytesPerFlush)};
	}

	push(stream: Stream, chunk: Uint8Array): void {
		if (this.#closed) {
			return;
		}

		this.#pending[stream].push(chunk);
		this.#timer ??= setTimeout(() => {
			this.#timer = undefined;
			this.flush(false);
		}, this.#options.intervalMs);
	}

	/** Report what is pending now; `final` also reports a held-back partial character and stops the timer. */
	flush(final: boolean): void {
		for (const stream of ['stdout', 'stderr'] as const) {
			const pending = this.#pending[stream];
			if (pending.length === 0 && (!final || this.#carry[stream].length === 0)) {
				continue;
			}

			const dropped = pending.truncated;
			let bytes = pending.bytes();
			pending.clear();
			bytes = dropped ? dropLeadingPartial(bytes) : Buffer.concat([this.#carry[stream], bytes]);
			const {complete, rest} = final ? {complete: bytes, rest: Buffer.alloc(0)} : splitCompleteUtf8(bytes);
			this.#carry[stream] = Buffer.from(rest);
			const text = decodeUtf8(complete);
			if (text !== '') {
				try {
					this.#emit({kind: 'output', stream, text});
				} catch {
					// A failing listener must not break the command.
				}
			}
		}

		if (final) {
			clearTimeout(this.#timer);
			this.#timer = undefined;
		}
	}

	/** Flush everything and stop reporting. */
	close(): void {
		if (this.#closed) {
			return;
		}

		this.flush(true);
		this.#closed = true;
	}
}
