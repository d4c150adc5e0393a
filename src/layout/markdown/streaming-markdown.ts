/**
@module The Markdown rows of an assistant entry that is still streaming. The fold makes a new entry
object per delta, so a per-object cache never hits; instead each stream (keyed by its step and anchor
seq) keeps a `MarkdownStream`, and an entry whose text extends the stream's appends only the new
characters: the re-layout costs the open tail block, not the message.
*/
import {createMarkdownStream, type MarkdownStream} from './markdown-stream.js';
import type {MarkdownLayoutOptions} from './markdown-layout.js';
import type {StyledLine} from '../text/styled-line.js';
import type {AssistantEntry} from '../../presentation/entry.js';

/** Streams kept at most (a session streams one step at a time; a few views may look at old ones). */
const STREAMS_KEPT = 16;

/** Least recently used first. */
const streams = new Map<string, MarkdownStream>();

/** The rows of a streaming entry's text, and the indices of the rows that begin a line (as `markdownRows`). */
export function streamingMarkdownRows(entry: AssistantEntry, options: MarkdownLayoutOptions): {readonly rows: readonly StyledLine[]; readonly lineStarts: number[]} {
	const key = `${entry.turn ?? ''}:${entry.step ?? ''}:${entry.seq}`;
	let stream = streams.get(key);
	streams.delete(key);
	if (stream === undefined || !entry.text.startsWith(stream.text)) {
		// A new stream, or one whose text was replaced (a retried attempt): start over.
		stream = createMarkdownStream(entry.text);
	} else if (entry.text.length > stream.text.length) {
		stream.append(entry.text.slice(stream.text.length));
	}

	streams.set(key, stream);
	for (const oldest of streams.keys()) {
		if (streams.size <= STREAMS_KEPT) {
			break;
		}

		streams.delete(oldest);
	}

	const rows = stream.lines(options);
	const lineStarts: number[] = [];
	for (let index = 0; index < rows.length; index++) {
		if (rows[index]!.softWrap !== true) {
			lineStarts.push(index);
		}
	}

	return {rows, lineStarts};
}
