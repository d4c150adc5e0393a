import {PassThrough, Readable} from 'node:stream';
import type {ReadableStream as NodeReadableStream} from 'node:stream/web';
import {describe, expect, it} from 'vitest';
import {OutgoingRequests, parseFrame, readFrames, UPDATE_METHOD, type MalformedFrame} from '../../src/acp/frame-reader.js';

async function readAll(chunks: readonly string[]): Promise<{messages: unknown[]; bad: MalformedFrame[]; updates: unknown[]}> {
	const bad: MalformedFrame[] = [];
	const updates: unknown[] = [];
	const encoder = new TextEncoder();
	const input = new ReadableStream<Uint8Array>({start(controller) {
		for (const chunk of chunks) {
			controller.enqueue(encoder.encode(chunk));
		}

		controller.close();
	}});
	const messages: unknown[] = [];
	const reader = readFrames(Readable.fromWeb(input as NodeReadableStream<Uint8Array>), {onMalformed: frame => bad.push(frame), onUpdate: params => updates.push(params)}).getReader();
	for (let next = await reader.read(); !next.done; next = await reader.read()) {
		messages.push(next.value);
	}

	return {messages, bad, updates};
}

describe('the agent\'s frames', () => {
	it('splits lines across chunk boundaries (also inside a character) and keeps their order', async () => {
		const line = JSON.stringify({jsonrpc: '2.0', id: 1, result: {text: 'héllo'}});
		const bytes = `${line}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`;
		const {messages, bad} = await readAll([bytes.slice(0, 30), bytes.slice(30, 60), bytes.slice(60)]);
		expect(messages).toEqual([JSON.parse(line), {jsonrpc: '2.0', id: 2, result: {}}]);
		expect(bad).toEqual([]);
	});

	it('hands session/update notifications to onUpdate (unvalidated), a request of that name to the SDK', async () => {
		expect(parseFrame('{"jsonrpc":"2.0","id":4,"method":"session/update"}')).toEqual({message: {jsonrpc: '2.0', id: 4, method: UPDATE_METHOD}});
		const {messages, updates} = await readAll(['{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"future"}}}\n{"id":1,"result":{}}\n']);
		expect(updates).toEqual([{update: {sessionUpdate: 'future'}}]);
		expect(messages).toEqual([{id: 1, result: {}}]);
	});

	it('names and drops what is not a message, a last line without a newline included', async () => {
		const {messages, bad} = await readAll(['oops\n\n', '"text"\n', '{"id":1,"result":{}}\n', '[]\n', '{"a":1}']);
		expect(messages).toEqual([{id: 1, result: {}}]);
		expect(bad.map(frame => frame.reason)).toEqual(['not JSON', 'not a JSON object', 'a JSON-RPC batch (ACP has none)', 'neither a request, a notification nor a response']);
	});

	it('reads a frame of many megabytes that comes in many reads, whole', async () => {
		const text = 'é'.repeat(4 * 1024 * 1024);
		const bytes = `${JSON.stringify({jsonrpc: '2.0', id: 1, result: {text}})}\n{"id":2,"result":{}}\n`;
		const chunks: string[] = [];
		for (let at = 0; at < bytes.length; at += 65_536) {
			chunks.push(bytes.slice(at, at + 65_536));
		}

		const {messages, bad} = await readAll(chunks);
		expect(bad).toEqual([]);
		expect(messages).toHaveLength(2);
		expect((messages[0] as {result: {text: string}}).result.text === text).toBe(true);
		expect(messages[1]).toEqual({id: 2, result: {}});
	});

	it('drops a frame past the limit once, named, and reads the frames after it', async () => {
		const mib = 'x'.repeat(1024 * 1024);
		// 70 MiB without a newline (over twice the limit), in 1 MiB reads, then its end and a frame.
		const chunks = [...Array.from({length: 70}, () => mib), 'tail of the long one\n{"id":1,"result":{}}\n'];
		const {messages, bad} = await readAll(chunks);
		expect(bad).toEqual([{preview: `${'x'.repeat(120)}…`, reason: 'longer than the frame limit'}]);
		expect(messages).toEqual([{id: 1, result: {}}]);
	});

	it('cuts a long frame\'s preview', async () => {
		const {bad} = await readAll([`${'x'.repeat(500)}\n`]);
		expect(bad).toEqual([{preview: `${'x'.repeat(120)}…`, reason: 'not JSON'}]);
	});
});

describe('responses', () => {
	it('passes a response to a request the client sent once, and names one to no request', async () => {
		const requests = new OutgoingRequests();
		const written: unknown[] = [];
		const writer = requests.watch(new WritableStream({write(message) {
			written.push(message);
		}})).getWriter();
		await writer.write({jsonrpc: '2.0', id: 0, method: 'initialize', params: {}});
		await writer.write({jsonrpc: '2.0', method: 'session/cancel', params: {}});
		expect(written).toHaveLength(2);
		const bad: MalformedFrame[] = [];
		const encoder = new TextEncoder();
		const input = new ReadableStream<Uint8Array>({start(controller) {
			// The agent's own request with the same id is a request, not an answer.
			controller.enqueue(encoder.encode('{"jsonrpc":"2.0","id":0,"method":"fs/read_text_file","params":{}}\n{"jsonrpc":"2.0","id":0,"result":{}}\n{"jsonrpc":"2.0","id":0,"result":{}}\n'));
			controller.close();
		}});
		const reader = readFrames(Readable.fromWeb(input as NodeReadableStream<Uint8Array>), {onMalformed: frame => bad.push(frame), onUpdate: () => {}, requests}).getReader();
		const messages: unknown[] = [];
		for (let next = await reader.read(); !next.done; next = await reader.read()) {
			messages.push(next.value);
		}

		expect(messages).toEqual([{jsonrpc: '2.0', id: 0, method: 'fs/read_text_file', params: {}}, {jsonrpc: '2.0', id: 0, result: {}}]);
		expect(bad.map(frame => frame.reason)).toEqual(['a response to no request the client sent']);
	});
});

describe('an agent that floods its output', () => {
	it('lets the event loop turn between the frames of one long read', async () => {
		const frames = 200_000;
		const update = `${JSON.stringify({jsonrpc: '2.0', method: UPDATE_METHOD, params: {update: {sessionUpdate: 'agent_message_chunk', content: {type: 'text', text: 'word '}}}})}\n`;
		let taken = 0;
		let takenWhenTurned: number | undefined;
		// One read holds every frame; the agent's output stays open (it has not ended) until all are taken.
		const input = new PassThrough();
		input.write(update.repeat(frames));
		const reader = readFrames(input, {onMalformed: () => {}, onUpdate: () => {
			if (taken++ === 0) {
				// Queued behind the read that holds every frame: it runs once the reader lets the loop turn.
				setImmediate(() => {
					takenWhenTurned = taken;
				});
			}

			if (taken === frames) {
				input.end();
			}
		}}).getReader();
		while (!(await reader.read()).done) {
			// Only updates: nothing reaches the SDK.
		}

		expect(taken).toBe(frames);
		expect(takenWhenTurned).toBeLessThan(frames);
	});
});
