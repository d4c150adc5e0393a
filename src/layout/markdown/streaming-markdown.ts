/**
@module The rows of an assistant entry that is still streaming. The fold makes a new entry object per
delta, so a per-object cache never hits; instead each stream (keyed by its step and anchor seq)
keeps a `MarkdownStream` for its text and a count of its reasoning's lines, and an entry whose text
extends the stream's appends only the new characters: the re-layout costs the open tail block, not
the message. A view that shows only the end of the entry (the live region, a bounded view) asks for
its tail, whose cost is the rows shown, however long the answer grows.
*/
import {readableText} from '../cards/body-text.js';
import {lastRows, type MessageTail} from '../entries/entry-rows.js';
import {countBreaks, createMarkdownStream, type MarkdownStream} from './markdown-stream.js';
import {TAIL_WINDOW_CHARS, type MarkdownLayoutOptions} from './markdown-layout.js';
import {sanitizeLines} from '../text/sanitize.js';
import {span, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import type {AssistantEntry} from '../../presentation/entry.js';

/** Streams kept at most (a session streams one step at a time; a few views may look at old ones). */
const STREAMS_KEPT = 16;

type Stream = {
	readonly markdown: MarkdownStream;
	/** The reasoning seen so far and its line breaks, counted as it grows. */
	reasoning: string;
	reasoningBreaks: number;
};

/** Least recently used first. */
const streams = new Map<string, Stream>();

/** The stream of `entry`, brought up to its text and reasoning. */
function streamOf(entry: AssistantEntry): Stream {
	const key = `${entry.turn ?? ''}:${entry.step ?? ''}:${entry.seq}`;
	let stream = streams.get(key);
	streams.delete(key);
	if (stream === undefined || !entry.text.startsWith(stream.markdown.text) || !entry.reasoning.startsWith(stream.reasoning)) {
		// A new stream, or one whose text was replaced (a retried attempt): start over.
		stream = {markdown: createMarkdownStream(entry.text), reasoning: entry.reasoning, reasoningBreaks: countBreaks(entry.reasoning)};
	} else {
		if (entry.text.length > stream.markdown.text.length) {
			stream.markdown.append(entry.text.slice(stream.markdown.text.length));
		}

		if (entry.reasoning.length > stream.reasoning.length) {
			stream.reasoningBreaks += countBreaks(entry.reasoning.slice(stream.reasoning.length));
			stream.reasoning = entry.reasoning;
		}
	}

	streams.set(key, stream);
	for (const oldest of streams.keys()) {
		if (streams.size <= STREAMS_KEPT) {
			break;
		}

		streams.delete(oldest);
	}

	return stream;
}

/** The rows of a streaming entry's text, and the indices of the rows that begin a line (as `markdownRows`). */
export function streamingMarkdownRows(entry: AssistantEntry, options: MarkdownLayoutOptions): {readonly rows: readonly StyledLine[]; readonly lineStarts: number[]} {
	const rows = streamOf(entry).markdown.lines(options);
	const lineStarts: number[] = [];
	for (let index = 0; index < rows.length; index++) {
		if (rows[index]!.softWrap !== true) {
			lineStarts.push(index);
		}
	}

	return {rows, lineStarts};
}

/** The last `count` rows of a streaming entry's text and the lines above them. */
export function streamingMarkdownTail(entry: AssistantEntry, options: MarkdownLayoutOptions, count: number): MessageTail {
	return streamOf(entry).markdown.tail(options, count);
}

/**
The last `count` rows of a streaming entry's reasoning as a full view wraps it (each line in the
reasoning style), laid out from its last window of characters, and the lines above them.
*/
export function streamingReasoningTail(entry: AssistantEntry, options: {readonly width: number; readonly theme: Theme}, count: number): MessageTail {
	const stream = streamOf(entry);
	const {reasoning} = stream;
	if (count <= 0) {
		return {rows: [], more: true, startsAbove: stream.reasoningBreaks + 1};
	}

	const window = Math.max(TAIL_WINDOW_CHARS, 2 * count * options.width);
	let from = Math.max(0, reasoning.length - window);
	if (from > 0) {
		const line = reasoning.indexOf('\n', from);
		from = line >= 0 && line < reasoning.length - 1 ? line + 1 : from;
	}

	// All of it: as a full view keeps it readable (`readableText`); a window of it: as it streamed.
	const shown = from === 0 ? readableText(reasoning) : reasoning.slice(from).trimEnd();
	const rows: StyledLine[] = [];
	for (const line of shown === '' ? [] : sanitizeLines(shown)) {
		for (const row of wrapProseSpans(line === '' ? [] : [span(line, options.theme.reasoning)], options.width)) {
			rows.push(row);
		}
	}

	// A window that starts inside a line continues it.
	const inside = from > 0 && reasoning[from - 1] !== '\n';
	if (inside && rows.length > 0) {
		rows[0] = {...rows[0]!, softWrap: true};
	}

	return lastRows(rows, count, stream.reasoningBreaks - countBreaks(reasoning.slice(from)) + (inside ? 1 : 0), from > 0);
}
