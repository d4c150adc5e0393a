/**
@module What the agent writes, read one line at a time into the messages the SDK's connection
takes (the readable half of its `Stream`; the writable half is the SDK's `ndJsonStream`). A line
that is not a JSON-RPC message (not JSON, not an object, neither a method nor an id) is named
through `onMalformed` and dropped, so the session goes on: the SDK would answer it with an error
and, for some shapes, write to the console, which the live screen owns.

`session/update` notifications go to `onUpdate`, in the order they arrive, and not through the
SDK: its schema drops an update of a kind it does not know (agents send kinds of newer versions),
which must be named and skipped by the mapping instead; and its dispatch costs more per message
than all of cardterm's own work on an update (bench/acp-session.mjs). Requests and responses still
go through the SDK. An agent orders what it sends by awaiting: an update it sends after a request
is answered is read after that answer. With `incoming`, the agent's requests are counted and the
agent is not read while too many of them wait for answers it does not take (`incoming-requests.ts`).
*/
import type {Readable} from 'node:stream';
import type {AnyMessage} from '@agentclientprotocol/sdk';
import type {IncomingRequests} from './incoming-requests.js';

/** The notification handed to `onUpdate` instead of the SDK. */
export const UPDATE_METHOD = 'session/update';

/** A frame the agent sent that is no JSON-RPC message. */
export type MalformedFrame = {readonly preview: string; readonly reason: string};

/** Characters of a bad frame kept in its notice. */
const PREVIEW_CHARS = 120;

/** Longest the reader takes lines apart before it lets the event loop turn. */
const READ_TURN_MS = 16;

/** Characters one frame may hold (the SDK's own default message limit). */
const MAX_FRAME_CHARS = 32 * 1024 * 1024;

/** The message a line holds (an update's params apart), or why it holds none. */
export function parseFrame(line: string): {readonly message: AnyMessage} | {readonly update: unknown} | {readonly reason: string} {
	let value: unknown;
	try {
		value = JSON.parse(line) as unknown;
	} catch {
		return {reason: 'not JSON'};
	}

	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return {reason: Array.isArray(value) ? 'a JSON-RPC batch (ACP has none)' : 'not a JSON object'};
	}

	const fields = value as Record<string, unknown>;
	if (typeof fields.method !== 'string' && !('id' in fields)) {
		return {reason: 'neither a request, a notification nor a response'};
	}

	if (fields.method === UPDATE_METHOD && !('id' in fields)) {
		return {update: fields.params};
	}

	return {message: fields as AnyMessage};
}

/**
The ids of the requests the client sent and the agent has not answered: a response to any other id
is dropped with a notice (the SDK would write it to the console). The agent's own request ids may
equal these; they are requests (they have a method), not responses.
*/
export class OutgoingRequests {
	readonly #pending = new Set<unknown>();
	readonly #onFrame: ((line: string) => void) | undefined;

	/** `onFrame` sees each message the client writes, as JSON (the frame trace). */
	constructor(onFrame?: (line: string) => void) {
		this.#onFrame = onFrame;
	}

	/** Pass-through of what the client writes, noting each request's id. */
	watch(output: WritableStream<AnyMessage>): WritableStream<AnyMessage> {
		const writer = output.getWriter();
		return new WritableStream<AnyMessage>({
			write: async message => {
				if ('method' in message && 'id' in message) {
					this.#pending.add(message.id);
				}

				this.#onFrame?.(JSON.stringify(message));

				await writer.write(message);
			},
			close: async () => writer.close(),
			abort: async reason => writer.abort(reason),
		});
	}

	/** Whether a response with `id` answers a request still open (and forget it). */
	answer(id: unknown): boolean {
		return this.#pending.delete(id);
	}
}

/**
The agent's messages, line by line, from its stdout; malformed lines are reported and dropped. The
Node stream is read with `data` events, not through web streams: an update costs one callback,
not a chain of promises per chunk (bench/acp-session.mjs).
*/
export function readFrames(input: Readable, handlers: {readonly onMalformed: (frame: MalformedFrame) => void; readonly onUpdate: (params: unknown) => void; readonly requests?: OutgoingRequests; readonly incoming?: IncomingRequests; readonly onLine?: (line: string) => void}): ReadableStream<AnyMessage> {
	const {onMalformed, onUpdate, requests, incoming, onLine} = handlers;
	// The line being read, in the pieces it came in: each chunk is scanned once for its newlines, and a
	// long frame is joined once when it ends (appending to one string and rescanning it from the start
	// made a frame of 16 MB in 64 KiB reads cost over a second).
	let pieces: string[] = [];
	let piecesLength = 0;
	/** The rest of an overlong line, already reported, is dropped up to its newline. */
	let skipping = false;
	let done = false;
	const emitLine = (line: string, controller: ReadableStreamDefaultController<AnyMessage>): void => {
		const trimmed = line.trim();
		if (trimmed === '') {
			return;
		}

		onLine?.(trimmed);
		const frame = parseFrame(trimmed);
		if ('message' in frame) {
			const {message} = frame;
			if (requests !== undefined && !('method' in message) && !requests.answer(message.id)) {
				onMalformed({preview: trimmed.length > PREVIEW_CHARS ? `${trimmed.slice(0, PREVIEW_CHARS)}…` : trimmed, reason: 'a response to no request the client sent'});
				return;
			}

			if ('method' in message && 'id' in message) {
				incoming?.received(message.id);
			}

			controller.enqueue(message);
		} else if ('update' in frame) {
			onUpdate(frame.update);
		} else {
			onMalformed({preview: trimmed.length > PREVIEW_CHARS ? `${trimmed.slice(0, PREVIEW_CHARS)}…` : trimmed, reason: frame.reason});
		}
	};

	/** Text read but not yet taken apart, while the reader lets the event loop turn. */
	let pending = '';
	/** Two reasons pause the agent's output: a busy reader's turn, and too many of its requests waiting; it resumes when neither holds. */
	const resumeUnlessFull = (): void => {
		if (done || pending !== '') {
			return;
		}

		if (incoming?.full === true) {
			incoming.whenRoom(resumeUnlessFull);
			return;
		}

		input.resume();
	};
	return new ReadableStream<AnyMessage>({
		start(controller) {
			/**
			Takes the lines of `text` apart; a reader busy for `READ_TURN_MS` sets the rest aside and
			lets the event loop turn (the agent's output waits, paused), so a flooding agent leaves
			room for keys (Esc), frames and signals. `untilDone`: the output ended, take all of it.
			*/
			const take = (text: string, untilDone = false): void => {
				const started = performance.now();
				let start = 0;
				for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
					if (skipping) {
						skipping = false;
					} else {
						const tail = text.slice(start, end);
						emitLine(pieces.length === 0 ? tail : pieces.join('') + tail, controller);
					}

					pieces = [];
					piecesLength = 0;
					start = end + 1;
					if (!untilDone && start < text.length && performance.now() - started > READ_TURN_MS) {
						pending = text.slice(start);
						input.pause();
						setImmediate(() => {
							const rest = pending;
							pending = '';
							take(rest);
							if (pending === '') {
								resumeUnlessFull();
							}
						});
						return;
					}
				}

				if (start < text.length && !skipping) {
					pieces.push(start === 0 ? text : text.slice(start));
					piecesLength += text.length - start;
					if (piecesLength > MAX_FRAME_CHARS) {
						// A line that never ends must not grow without bound: it is dropped whole.
						onMalformed({preview: `${previewOf(pieces)}…`, reason: 'longer than the frame limit'});
						pieces = [];
						piecesLength = 0;
						skipping = true;
					}
				}
			};

			// A character split across chunks is joined by the stream's decoder.
			input.setEncoding('utf8');
			input.on('data', (text: string) => {
				if (pending === '') {
					take(text);
				} else {
					// Read while the rest of a chunk waits for its turn: it comes after that rest.
					pending += text;
				}

				if (incoming?.full === true && !done) {
					input.pause();
					incoming.whenRoom(resumeUnlessFull);
				}
			});
			const finish = (): void => {
				if (done) {
					return;
				}

				done = true;
				if (pending !== '') {
					const rest = pending;
					pending = '';
					take(rest, true);
				}

				if (!skipping) {
					emitLine(pieces.join(''), controller);
				}

				pieces = [];
				controller.close();
			};

			input.once('end', finish);
			// An agent that dies without ending its stdout (or a read error): what it wrote so far is read, then the stream ends.
			input.once('close', finish);
			input.once('error', finish);
		},
		cancel() {
			done = true;
			input.destroy();
		},
	});
}

/** The first `PREVIEW_CHARS` of a line held in pieces (without joining all of them). */
function previewOf(pieces: readonly string[]): string {
	let preview = '';
	for (const piece of pieces) {
		preview += piece.slice(0, PREVIEW_CHARS - preview.length);
		if (preview.length >= PREVIEW_CHARS) {
			break;
		}
	}

	return preview;
}
