/**
@module What the agent writes, read one line at a time into the messages the SDK's connection
takes (the readable half of its `Stream`; the writable half is the SDK's `ndJsonStream`). A line
that is not a JSON-RPC message (not JSON, not an object, neither a method nor an id) is named
through `onMalformed` and dropped, so the session goes on: the SDK would answer it with an error
and, for some shapes, write to the console, which the live screen owns.

`session/update` is handed on under `UPDATE_METHOD`, a client extension method the SDK does not
validate: the SDK's own schema rejects an update of a kind it does not know (agents send
`usage_update`, `session_info_update`, kinds of newer versions), and such an update must be named
and skipped by the mapping, not lost. The order of messages is kept.
*/
import type {AnyMessage} from '@agentclientprotocol/sdk';

/** The method `session/update` notifications reach the client under (raw params). */
export const UPDATE_METHOD = '_cardterm/session_update';

/** A frame the agent sent that is no JSON-RPC message. */
export type MalformedFrame = {readonly preview: string; readonly reason: string};

/** Characters of a bad frame kept in its notice. */
const PREVIEW_CHARS = 120;

/** Characters one frame may hold (the SDK's own default message limit). */
export const MAX_FRAME_CHARS = 32 * 1024 * 1024;

/** The message a line holds, or why it holds none. */
export function parseFrame(line: string): {readonly message: AnyMessage} | {readonly reason: string} {
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

	if (fields.method === 'session/update' && !('id' in fields)) {
		fields.method = UPDATE_METHOD;
	}

	return {message: fields as AnyMessage};
}

/** The agent's messages, line by line; malformed lines are reported and dropped. */
export function readFrames(input: ReadableStream<Uint8Array>, onMalformed: (frame: MalformedFrame) => void): ReadableStream<AnyMessage> {
	const decoder = new TextDecoder();
	let pending = '';
	/** The rest of an overlong line, already reported, is dropped up to its newline. */
	let skipping = false;
	const emitLine = (line: string, controller: TransformStreamDefaultController<AnyMessage>): void => {
		const trimmed = line.trim();
		if (trimmed === '') {
			return;
		}

		const frame = parseFrame(trimmed);
		if ('message' in frame) {
			controller.enqueue(frame.message);
		} else {
			onMalformed({preview: trimmed.length > PREVIEW_CHARS ? `${trimmed.slice(0, PREVIEW_CHARS)}…` : trimmed, reason: frame.reason});
		}
	};

	return input.pipeThrough(new TransformStream<Uint8Array, AnyMessage>({
		transform(chunk, controller) {
			pending += decoder.decode(chunk, {stream: true});
			let start = 0;
			for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
				if (skipping) {
					skipping = false;
				} else {
					emitLine(pending.slice(start, end), controller);
				}

				start = end + 1;
			}

			pending = pending.slice(start);
			if (pending.length > MAX_FRAME_CHARS) {
				// A line that never ends must not grow without bound: it is dropped whole.
				onMalformed({preview: `${pending.slice(0, PREVIEW_CHARS)}…`, reason: 'longer than the frame limit'});
				pending = '';
				skipping = true;
			}
		},
		flush(controller) {
			pending += decoder.decode();
			if (!skipping) {
				emitLine(pending, controller);
			}
		},
	}));
}
