/**
@module Raw bytes → line records, decompressing zstd on the way (detected by extension or by the
frame magic number). One chunk is in memory at a time plus at most one unfinished line.
*/
import {LineSplitter, type SplitRecord, type TornTail} from './line-splitter.js';
import {hasZstdExtension, startsWithZstdMagic, ZstdStreamDecoder, type ZstdEnd} from './zstd-decoder.js';

/** A line, an overlong line, or how the input ended. */
export type LogRecord =
	| SplitRecord
	| ({readonly kind: 'torn'} & TornTail)
	| {readonly kind: 'zstd-truncated'; readonly line: number}
	| {readonly kind: 'zstd-corrupt'; readonly line: number; readonly message: string};

/** Options of `logRecords`. */
export type LogRecordOptions = {
	/** Path or name of the source, for extension-based zstd detection. */
	readonly name?: string;
	readonly maxLineBytes?: number;
};

/** Streams line records out of raw log bytes. */
export async function* logRecords(chunks: AsyncIterable<Uint8Array | string>, options: LogRecordOptions = {}): AsyncGenerator<LogRecord, void, undefined> {
	const splitter = new LineSplitter({maxLineBytes: options.maxLineBytes});
	let zstd: ZstdStreamDecoder | undefined = options.name !== undefined && hasZstdExtension(options.name) ? new ZstdStreamDecoder() : undefined;
	// Until 4 bytes arrived we cannot tell plain text from a zstd frame.
	let head: Buffer | undefined = zstd === undefined ? Buffer.alloc(0) : undefined;

	const feed = function * (bytes: Uint8Array): Generator<LogRecord> {
		if (zstd === undefined) {
			yield * splitter.push(bytes);
			return;
		}

		for (const part of zstd.push(bytes)) {
			yield * splitter.push(part);
		}
	};

	for await (const raw of chunks) {
		const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
		if (head !== undefined) {
			head = Buffer.concat([head, chunk]);
			if (head.length < 4) {
				continue;
			}

			if (startsWithZstdMagic(head)) {
				zstd = new ZstdStreamDecoder();
			}

			const first = head;
			head = undefined;
			yield * feed(first);
		} else {
			yield * feed(chunk);
		}

		if (zstd?.corrupt !== undefined) {
			yield {kind: 'zstd-corrupt', line: splitter.nextLine, message: zstd.corrupt};
			return;
		}
	}

	if (head !== undefined && head.length > 0) {
		yield * feed(head);
	}

	let end: ZstdEnd = {kind: 'complete'};
	if (zstd !== undefined) {
		const finished = zstd.end();
		for (const part of finished.output) {
			yield * splitter.push(part);
		}

		end = finished.end;
	}

	if (end.kind === 'corrupt') {
		yield {kind: 'zstd-corrupt', line: splitter.nextLine, message: end.message};
		return;
	}

	const torn = splitter.end();
	if (end.kind === 'truncated') {
		// The frame's partial line, if any, is part of the same torn tail.
		yield {kind: 'zstd-truncated', line: splitter.nextLine};
		return;
	}

	if (torn !== undefined) {
		yield {kind: 'torn', ...torn};
	}
}
