/**
Back-pressure on an ACP agent (`incoming-requests.ts`, `frame-reader.ts`, `frame-writer.ts`): the
agent's requests in flight are counted until their answers leave for its stdin; past the cap the
agent's stdout is not read; large answers are built one at a time.
*/
import {PassThrough, Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {readFrames} from '../../src/acp/frame-reader.js';
import {writeFrames} from '../../src/acp/frame-writer.js';
import {IncomingRequests} from '../../src/acp/incoming-requests.js';

const tick = async (): Promise<void> => new Promise(resolve => {
	setImmediate(resolve);
});

describe('the agent\'s requests in flight', () => {
	it('is full at the cap and makes room as answers leave; ids of another type are not counted; a reused id counts twice', () => {
		const incoming = new IncomingRequests(3);
		incoming.received(1);
		incoming.received('a');
		incoming.received({odd: true});
		incoming.received(null);
		expect(incoming.count).toBe(2);
		incoming.received(1);
		expect(incoming.full).toBe(true);
		const woken: string[] = [];
		incoming.whenRoom(() => woken.push('room'));
		incoming.answered('never-asked');
		expect(woken).toEqual([]);
		incoming.answered(1);
		expect(woken).toEqual(['room']);
		expect(incoming.count).toBe(2);
		incoming.answered(1);
		incoming.answered(1);
		expect(incoming.count).toBe(1);
	});

	it('builds large answers one at a time, in the order asked, each once the one before has left; the first at once', async () => {
		const incoming = new IncomingRequests();
		const built: number[] = [];
		for (const id of [1, 2, 3]) {
			incoming.received(id);
		}

		const answers = [1, 2, 3].map(async id => incoming.large(id, () => {
			built.push(id);
			return id;
		}));
		expect(built).toEqual([1]);
		await tick();
		expect(built).toEqual([1]);
		incoming.answered(1);
		await tick();
		expect(built).toEqual([1, 2]);
		incoming.answered(2);
		await tick();
		expect(built).toEqual([1, 2, 3]);
		expect(await Promise.all(answers)).toEqual([1, 2, 3]);
	});

	it('lets every waiter go when the connection closes', async () => {
		const incoming = new IncomingRequests(1);
		incoming.received(1);
		incoming.received(2);
		const room: string[] = [];
		incoming.whenRoom(() => room.push('room'));
		void incoming.large(1, () => 1);
		const second = incoming.large(2, () => 2);
		incoming.close();
		expect(room).toEqual(['room']);
		expect(incoming.full).toBe(false);
		expect(await second).toBe(2);
	});
});

describe('reading and writing the agent\'s frames', () => {
	it('stops reading the agent past the cap of requests in flight, and reads again once an answer leaves', async () => {
		const incoming = new IncomingRequests(2);
		const agentStdout = new PassThrough();
		const reader = readFrames(agentStdout, {onMalformed: () => {}, onUpdate: () => {}, incoming}).getReader();
		const request = (id: number): string => `${JSON.stringify({jsonrpc: '2.0', id, method: 'terminal/output', params: {}})}\n`;
		agentStdout.write(request(1) + request(2));
		await reader.read();
		await reader.read();
		expect(agentStdout.isPaused()).toBe(true);
		agentStdout.write(request(3));
		await tick();
		expect(incoming.count).toBe(2);
		incoming.answered(1);
		expect(agentStdout.isPaused()).toBe(false);
		expect((await reader.read()).value).toMatchObject({id: 3});
		expect(incoming.count).toBe(2);
	});

	it('says an answer left only once the agent\'s stdin took all of it, and waits for the stdin before taking the next', async () => {
		const taken: Array<() => void> = [];
		const written: string[] = [];
		// A stdin that takes a write only when the test says so (an agent that does not read).
		const stdin = new Writable({highWaterMark: 16, write(chunk: Buffer, _encoding, done) {
			written.push(chunk.toString());
			taken.push(done);
		}});
		const left: unknown[] = [];
		const writer = writeFrames(stdin, message => left.push('id' in message ? message.id : undefined)).getWriter();
		const first = writer.write({jsonrpc: '2.0', id: 1, result: {output: 'x'.repeat(100)}});
		await tick();
		expect(written).toHaveLength(1);
		expect(left).toEqual([]);
		let second = false;
		void writer.write({jsonrpc: '2.0', id: 2, result: {}}).then(() => {
			second = true;
		});
		await tick();
		expect(written).toHaveLength(1);
		taken.shift()!();
		await first;
		expect(left).toEqual([1]);
		await tick();
		expect(written).toHaveLength(2);
		taken.shift()!();
		await tick();
		expect(second).toBe(true);
		expect(left).toEqual([1, 2]);
	});
});
