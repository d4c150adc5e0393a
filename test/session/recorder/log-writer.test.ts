import {spawn, spawnSync} from 'node:child_process';
import {closeSync, existsSync, openSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {createInterface} from 'node:readline';
import {afterAll, afterEach, describe, expect, it, vi} from 'vitest';
import {SessionLogWriter, SYNC_DELAY_MS, type AppendableEvent, type LogFileHandle} from '../../../src/session/recorder/log-writer.js';
import {SessionLogError, SessionLogLockedError, SessionLogWriteError} from '../../../src/session/reader/log-errors.js';
import type {ChunkData, SessionHeader, StreamChunk} from '../../../src/session/events/events.js';
import {compileForChild} from './compile-for-child.js';
import {fixture, openWithWrite, readAll, tempDir, useTempDir, writeTemp} from '../helpers.js';

const header: SessionHeader = {type: 'session', version: 0, id: 's-w', createdAt: 1790000000000, cwd: '/work'};
const turnStart = (turn: number, time = 100 + turn) => ({type: 'turn/start' as const, time, data: {turn}});

let build: {dir: string; cleanup: () => void; url: string} | undefined;
/** The writer compiled once for child processes (Node 20 runs no TypeScript). */
function compiledWriter(): string {
	if (build === undefined) {
		const folder = tempDir();
		build = {...folder, url: compileForChild('src/session/recorder/log-writer.ts', folder.dir)};
	}

	return build.url;
}

afterAll(() => {
	build?.cleanup();
});

let dir: string;
let log: string;
useTempDir((created) => {
	dir = created;
	log = join(dir, 'session.jsonl');
});

describe('SessionLogWriter', () => {
	it('creates a log with its header and appends events with contiguous seqs', async () => {
		const writer = await SessionLogWriter.open(log, header);
		expect(readFileSync(log, 'utf8')).toBe(`${JSON.stringify(header)}\n`);
		const appended = [writer.append(turnStart(1)), writer.append({type: 'step/start', time: 5, data: {turn: 1, step: 1}}), writer.append(turnStart(2))];
		expect(appended).toEqual([
			{type: 'turn/start', seq: 0, time: 101, data: {turn: 1}},
			{type: 'step/start', seq: 1, time: 5, data: {turn: 1, step: 1}},
			{type: 'turn/start', seq: 2, time: 102, data: {turn: 2}},
		]);
		await writer.flush();
		expect(writer.durableUpTo).toBe(3);
		await writer.close();
		expect(await readAll(log)).toEqual({header, events: appended, diagnostics: []});
		expect(existsSync(`${log}.lock`)).toBe(false);
	});

	it('returns each event as a replay reads it back, whether or not JSON changes its data', async () => {
		const writer = await SessionLogWriter.open(log, header);
		let reads = 0;
		const appended = [
			writer.append({type: 'turn/start', time: 1, data: {turn: 1, zero: -0, nested: [{a: 'x', b: null}], ['__proto__']: 'kept'}}),
			writer.append({type: 'turn/start', time: 2, data: {turn: 2, missing: undefined, nan: Number.NaN, when: new Date(0)}}),
			writer.append({type: 'turn/start', time: 3, data: {turn: 3, get counted() {
				reads += 1;
				return reads;
			}}}),
		];
		await writer.close();
		const {events} = await readAll(log);
		expect(appended).toEqual(events);
		expect(appended.map(event => JSON.stringify(event))).toEqual(events.map(event => JSON.stringify(event)));
		expect(Object.is((appended[0]!.data as {zero: number}).zero, 0)).toBe(true);
		expect(appended[1]!.data).toEqual({turn: 2, nan: null, when: '1970-01-01T00:00:00.000Z'});
		expect({reads, counted: (appended[2]!.data as {counted: number}).counted}).toEqual({reads: 1, counted: 1});
	});

	it('stamps events without a time with its clock', async () => {
		const writer = await SessionLogWriter.open(log, header, {now: () => 42});
		expect(writer.append({type: 'turn/start', data: {turn: 1}})).toEqual({type: 'turn/start', seq: 0, time: 42, data: {turn: 1}});
		await writer.close();
	});

	it('continues the seq of an existing log on reopen and keeps its header', async () => {
		const first = await SessionLogWriter.open(log, header);
		first.append(turnStart(1));
		first.append(turnStart(2));
		await first.close();
		const second = await SessionLogWriter.open(log, {...header, id: 'other'});
		expect(second.header).toEqual(header);
		expect(second.nextSeq).toBe(2);
		expect(second.append(turnStart(3)).seq).toBe(2);
		await second.close();
		const {events, diagnostics} = await readAll(log);
		expect(events.map(event => event.seq)).toEqual([0, 1, 2]);
		expect(diagnostics).toEqual([]);
	});

	it('continues after a packed chunk row at the end of an existing log', async () => {
		const row = {type: 'text-chunks', seq0: 0, time0: 1, data: {turn: 1, step: 1, index: 0, dt: [0, 0], texts: ['a', 'b', 'c']}};
		writeTemp(dir, 'session.jsonl', `${JSON.stringify(header)}\n${JSON.stringify(row)}\nnot json\n`);
		const writer = await SessionLogWriter.open(log, undefined);
		expect(writer.nextSeq).toBe(3);
		await writer.close();
	});

	it('refuses a second writer on the same log, naming the file and the holding pid', async () => {
		const writer = await SessionLogWriter.open(log, header);
		const error = await SessionLogWriter.open(log, header).then(() => undefined, (thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionLogLockedError);
		expect((error as Error).message).toBe(`session log ${log} is already being written by process ${process.pid} (lock file ${log}.lock); only one writer may append to a log`);
		await writer.close();
		const again = await SessionLogWriter.open(log, header);
		await again.close();
	});

	it('takes over a stale lock whose process is dead', async () => {
		const dead = spawnSync(process.execPath, ['-e', '']).pid!;
		writeFileSync(`${log}.lock`, `${dead}\n`);
		const writer = await SessionLogWriter.open(log, header);
		expect(readFileSync(`${log}.lock`, 'utf8')).toBe(`${process.pid}\n`);
		await writer.close();
	});

	it('truncates a torn tail on reopen so new lines start on a fresh line', async () => {
		const whole = `${JSON.stringify(header)}\n${JSON.stringify({type: 'turn/start', seq: 0, time: 1, data: {turn: 1}})}\n`;
		writeTemp(dir, 'session.jsonl', `${whole}{"type":"turn/end","se`);
		const writer = await SessionLogWriter.open(log, undefined);
		expect(writer.repairedBytes).toBe(22);
		writer.append({type: 'turn/end', time: 2, data: {turn: 1, reason: {kind: 'completed'}}});
		await writer.close();
		expect(readFileSync(log, 'utf8')).toBe(`${whole}{"type":"turn/end","seq":1,"time":2,"data":{"turn":1,"reason":{"kind":"completed"}}}\n`);
	});

	it('writes a header into a file whose header line was torn', async () => {
		writeTemp(dir, 'session.jsonl', '{"type":"sess');
		const writer = await SessionLogWriter.open(log, header);
		await writer.close();
		expect(readFileSync(log, 'utf8')).toBe(`${JSON.stringify(header)}\n`);
	});

	it('needs a header to create a log', async () => {
		await expect(SessionLogWriter.open(log, undefined)).rejects.toThrow(`session log ${log} has no header; pass one to create it`);
		expect(existsSync(`${log}.lock`)).toBe(false);
	});

	it('refuses to append to a zstd log', async () => {
		writeTemp(dir, 'session.jsonl', readFileSync(fixture('basic.jsonl.zst')));
		const error = await SessionLogWriter.open(log, undefined).then(() => undefined, (thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionLogError);
		expect((error as Error).message).toBe(`${log}: cannot append to a zstd-compressed log; cardterm writes plain .jsonl logs`);
	});

	it('refuses events that the reader would reject, without using a seq', async () => {
		const writer = await SessionLogWriter.open(log, header);
		// What a caller outside TypeScript (or one casting) may pass: the types forbid each of these.
		const append = (event: unknown) => writer.append(event as AppendableEvent);
		expect(() => append({type: 'tool/call', data: {callId: 1}})).toThrow(`cannot append "tool/call" to ${log}: "callId" must be a string`);
		expect(() => append({type: 'session', data: {}})).toThrow(`cannot append an event of type "session" to ${log}`);
		expect(() => append({type: 'x', data: {big: 1n}})).toThrow(TypeError);
		expect(() => append({type: 'turn/start', time: Number.NaN, data: {turn: 1}})).toThrow(`cannot append "turn/start" to ${log}: "time" must be a finite number`);
		expect(() => append({type: 'turn/start', data: {turn: {toJSON: () => 'one'}}})).toThrow(`cannot append "turn/start" to ${log}: "turn" must be an integer`);
		expect(() => append({type: 'x', data: [1]})).toThrow(`cannot append "x" to ${log}: "data" must be a plain object`);
		expect(() => append({type: 'user/message', data: {content: []}, surfaceOp: {op: 'replace', start: 0}})).toThrow(`cannot append "user/message" to ${log}: invalid "surfaceOp"`);
		expect(writer.nextSeq).toBe(0);
		await writer.close();
	});

	it('reports an unwritable location as a write error from open', async () => {
		const erofs = Object.assign(new Error('EROFS: read-only file system, open'), {code: 'EROFS'});
		const error = await SessionLogWriter.open(log, header, {openFile: async () => Promise.reject(erofs)}).then(() => undefined, (thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionLogWriteError);
		expect((error as SessionLogWriteError).message).toBe(`cannot open session log ${log}: EROFS: read-only file system, open`);
		expect((error as SessionLogWriteError).code).toBe('EROFS');
		expect(existsSync(`${log}.lock`)).toBe(false);
	});

	it('surfaces a full disk from flush and onError without throwing from append, then catches up', async () => {
		let failWrites: 'none' | 'all' | 'half' = 'none';
		const openFaulty = async (path: string): Promise<LogFileHandle> => openWithWrite(path, async (real, buffer, offset, length) => {
			if (failWrites === 'half') {
				// A short write lands, then the disk fills.
				failWrites = 'all';
				return real.write(buffer, offset, Math.floor(length / 2));
			}

			if (failWrites === 'all') {
				throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'});
			}

			return real.write(buffer, offset, length);
		});

		const errors: SessionLogWriteError[] = [];
		const writer = await SessionLogWriter.open(log, header, {openFile: openFaulty, onError: error => errors.push(error), retryDelayMs: 60_000});
		writer.append(turnStart(1));
		await writer.flush();
		failWrites = 'half';
		const during = [writer.append(turnStart(2)), writer.append(turnStart(3))];
		expect(during.map(event => event.seq)).toEqual([1, 2]);
		await expect(writer.flush()).rejects.toThrow(`cannot append to session log ${log}: ENOSPC: no space left on device, write`);
		await expect(writer.flush()).rejects.toBeInstanceOf(SessionLogWriteError);
		expect(errors.map(error => [error.code, error.file])).toEqual([['ENOSPC', log]]);
		expect(writer.lastError?.code).toBe('ENOSPC');
		expect((await readAll(log)).events.map(event => event.seq)).toEqual([0]);
		failWrites = 'none';
		writer.append(turnStart(4));
		await writer.flush();
		expect(writer.lastError).toBeUndefined();
		await writer.close();
		const {events, diagnostics} = await readAll(log);
		expect(events.map(event => event.seq)).toEqual([0, 1, 2, 3]);
		expect(diagnostics).toEqual([]);
	});

	it('cancels a pending retry without stopping the process\'s immediates', async () => {
		let fail = false;
		const openFailingOnce = async (path: string): Promise<LogFileHandle> => openWithWrite(path, async (real, buffer, offset, length) => {
			if (fail) {
				fail = false;
				throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'});
			}

			return real.write(buffer, offset, length);
		});
		const writer = await SessionLogWriter.open(log, header, {openFile: openFailingOnce, retryDelayMs: 60_000, onError: () => undefined});
		fail = true;
		writer.append(turnStart(1));
		await until(() => writer.lastError !== undefined);
		// The flush cancels the retry (a timeout): clearing it as an immediate would miscount Node's
		// pending immediates, and the next `setImmediate` would never run.
		await writer.flush();
		expect(await Promise.race([new Promise(resolve => {
			setImmediate(resolve, 'ran');
		}), new Promise(resolve => {
			setTimeout(resolve, 2000, 'never ran');
		})])).toBe('ran');
		await writer.close();
	});

	it('packs a run of three or more deltas of one block into one row that reads back as the same events', async () => {
		const writer = await SessionLogWriter.open(log, header);
		const chunk = (time: number, chunkData: StreamChunk) => ({type: 'assistant/chunk' as const, time, data: {turn: 1, step: 1, chunk: chunkData}});
		const appended = [
			writer.append(chunk(10, {type: 'block-start', index: 0, blockType: 'text'})),
			writer.append(chunk(11, {type: 'text-delta', index: 0, text: 'He'})),
			writer.append(chunk(13, {type: 'text-delta', index: 0, text: 'll'})),
			writer.append(chunk(13, {type: 'text-delta', index: 0, text: 'o'})),
			writer.append(chunk(20, {type: 'block-start', index: 1, blockType: 'tool-call'})),
			writer.append(chunk(21, {type: 'tool-call-delta', index: 1, id: 'c1', name: 'read', argumentsDelta: '{"file_'})),
			writer.append(chunk(22, {type: 'tool-call-delta', index: 1, id: 'c1', argumentsDelta: 'path":'})),
			writer.append(chunk(25, {type: 'tool-call-delta', index: 1, id: 'c1', argumentsDelta: '"a"}'})),
			writer.append(chunk(30, {type: 'reasoning-delta', index: 2, text: 'only'})),
			writer.append(chunk(31, {type: 'reasoning-delta', index: 2, text: 'two'})),
			writer.append(turnStart(2, 40)),
		];
		expect(writer.unwrittenEvents).toBe(11);
		await writer.close();
		const lines = readFileSync(log, 'utf8').trimEnd().split('\n').slice(1).map(line => JSON.parse(line) as {type: string});
		expect(lines.map(line => line.type)).toEqual(['assistant/chunk', 'text-chunks', 'assistant/chunk', 'tool-call-chunks', 'assistant/chunk', 'assistant/chunk', 'turn/start']);
		expect(lines[1]).toEqual({type: 'text-chunks', seq0: 1, time0: 11, data: {turn: 1, step: 1, index: 0, dt: [2, 0], texts: ['He', 'll', 'o']}});
		expect(lines[3]).toEqual({type: 'tool-call-chunks', seq0: 5, time0: 21, data: {turn: 1, step: 1, index: 1, dt: [1, 3], id: 'c1', name: 'read', args: ['{"file_', 'path":', '"a"}']}});
		expect(await readAll(log)).toEqual({header, events: appended, diagnostics: []});
	});

	it('holds an open delta run until flush, then writes it packed', async () => {
		const writer = await SessionLogWriter.open(log, header);
		for (const text of ['a', 'b', 'c', 'd']) {
			writer.append({type: 'assistant/chunk', time: 1, data: {turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text}}});
		}

		await new Promise(resolve => setImmediate(resolve));
		expect(writer.durableUpTo).toBe(0);
		await writer.flush();
		expect(writer.durableUpTo).toBe(4);
		expect(readFileSync(log, 'utf8').split('\n')[1]).toContain('"type":"text-chunks"');
		await writer.close();
	});

	it('does not pack deltas that carry fields a row cannot hold', async () => {
		const writer = await SessionLogWriter.open(log, header);
		for (const text of ['a', 'b', 'c']) {
			writer.append({type: 'assistant/chunk', time: 1, data: {turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text, extra: true}}});
		}

		await writer.close();
		expect(readFileSync(log, 'utf8')).not.toContain('text-chunks');
		expect((await readAll(log)).events).toHaveLength(3);
	});

	it('packs only deltas whose data and chunk hold exactly the fields a row keeps', async () => {
		const writer = await SessionLogWriter.open(log, header);
		const runOf = (data: (index: number) => Record<string, unknown>) => {
			for (let index = 0; index < 3; index++) {
				writer.append({type: 'assistant/chunk', time: 1, data: data(index) as ChunkData});
			}

			writer.append(turnStart(1, 2));
		};

		// An extra field beside the chunk, a tool-call delta with an extra field, one whose name is no string, one without its id.
		runOf(() => ({turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text: 'a'}, extra: 1}));
		runOf(() => ({turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 0, id: 'c1', argumentsDelta: '{', extra: 1}}));
		runOf(() => ({turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 0, id: 'c1', name: 7, argumentsDelta: '{'}}));
		runOf(() => ({turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 0, name: 'read', argumentsDelta: '{'}}));
		// The exact shapes, named and unnamed tool-call deltas in any key order: packed.
		runOf(index => ({chunk: {argumentsDelta: '{', id: 'c1', index: 0, type: 'tool-call-delta', ...(index === 0 ? {name: 'read'} : {})}, step: 1, turn: 1}));
		runOf(() => ({step: 1, chunk: {text: 'b', type: 'text-delta', index: 0}, turn: 1}));
		await writer.close();
		const types = readFileSync(log, 'utf8').trimEnd().split('\n').slice(1).map(line => (JSON.parse(line) as {type: string}).type);
		expect(types.filter(type => type === 'assistant/chunk')).toHaveLength(12);
		expect(types.filter(type => type.endsWith('-chunks'))).toEqual(['tool-call-chunks', 'text-chunks']);
		expect((await readAll(log)).events).toHaveLength(24);
	});

	it('writes a tick\'s batch on its own thread, before the loop\'s next turn', async () => {
		const writer = await SessionLogWriter.open(log, header, {syncDelayMs: 60_000});
		writer.append(turnStart(1));
		writer.append(turnStart(2));
		expect(writer.writtenUpTo).toBe(0);
		// The writer's immediate was queued first: by this one, its batch is in the file (an fs.write
		// through the thread pool would complete in a later turn).
		await new Promise(resolve => setImmediate(resolve));
		expect({written: writer.writtenUpTo, durable: writer.durableUpTo}).toEqual({written: 2, durable: 0});
		expect(seqsInFile()).toEqual([0, 1]);
		await writer.close();
	});

	it.skipIf(!existsSync('/dev/full'))('keeps a batch that its synchronous write could not write, and writes it once the disk has room', async () => {
		const full = openSync('/dev/full', 'w');
		let failing = false;
		const openFull = async (path: string): Promise<LogFileHandle> => openWithWrite(path, async () => {
			throw new Error('the batch goes through fd');
		}, real => (failing ? full : real.fd));

		try {
			const errors: SessionLogWriteError[] = [];
			const writer = await SessionLogWriter.open(log, header, {openFile: openFull, retryDelayMs: 60_000, onError: error => errors.push(error)});
			writer.append(turnStart(1));
			await writer.flush();
			failing = true;
			writer.append(turnStart(2));
			writer.append(turnStart(3));
			await expect(writer.flush()).rejects.toThrow(`cannot append to session log ${log}: ENOSPC: no space left on device, write`);
			expect(errors.map(error => error.code)).toEqual(['ENOSPC']);
			expect({written: writer.writtenUpTo, durable: writer.durableUpTo, unwritten: writer.unwrittenEvents}).toEqual({written: 1, durable: 1, unwritten: 2});
			expect(seqsInFile()).toEqual([0]);
			failing = false;
			await writer.flush();
			expect(writer.lastError).toBeUndefined();
			await writer.close();
			expect(await readAll(log)).toEqual({header, events: [1, 2, 3].map((turn, seq) => ({type: 'turn/start', seq, time: 100 + turn, data: {turn}})), diagnostics: []});
		} finally {
			closeSync(full);
		}
	});

	it('batches appends of one tick into one write', async () => {
		let writes = 0;
		const openCounting = async (path: string): Promise<LogFileHandle> => openWithWrite(path, async (real, buffer, offset, length) => {
			writes += 1;
			return real.write(buffer, offset, length);
		});

		const writer = await SessionLogWriter.open(log, header, {openFile: openCounting});
		writes = 0;
		for (let turn = 1; turn <= 50; turn += 1) {
			writer.append(turnStart(turn));
		}

		await writer.flush();
		expect(writes).toBe(1);
		await writer.close();
	});
});

/** The real file, counting the writer's writes and syncs; `failSyncs` syncs fail with EIO first. */
function countingOpen(counts: {writes: number; syncs: number; failSyncs?: number}): (path: string) => Promise<LogFileHandle> {
	return async path => {
		const handle = await openWithWrite(path, async (real, buffer, offset, length) => {
			counts.writes += 1;
			return real.write(buffer, offset, length);
		});
		return {
			...handle,
			async datasync() {
				counts.syncs += 1;
				if ((counts.failSyncs ?? 0) > 0) {
					counts.failSyncs! -= 1;
					throw Object.assign(new Error('EIO: i/o error, fdatasync'), {code: 'EIO'});
				}

				await handle.datasync();
			},
		};
	};
}

/** Lets the event loop run (real I/O completes) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
	for (let turns = 0; !done(); turns += 1) {
		if (turns > 100_000) {
			throw new Error('the writer did not get there');
		}

		await new Promise(resolve => setImmediate(resolve));
	}
}

/** The seqs of the event lines in the file now (what a follower reads). */
function seqsInFile(): number[] {
	return readFileSync(log, 'utf8').trimEnd().split('\n').slice(1).map(line => (JSON.parse(line) as {seq: number}).seq);
}

describe('syncing a streaming log', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it('writes each tick\'s batch at once and syncs the stream once, when flushed', async () => {
		const counts = {writes: 0, syncs: 0};
		const writer = await SessionLogWriter.open(log, header, {openFile: countingOpen(counts), syncDelayMs: 60_000});
		Object.assign(counts, {writes: 0, syncs: 0});
		for (let turn = 1; turn <= 20; turn += 1) {
			writer.append(turnStart(turn));
			await until(() => writer.writtenUpTo === turn);
			expect(seqsInFile()).toHaveLength(turn);
		}

		expect(counts).toEqual({writes: 20, syncs: 0});
		expect({written: writer.writtenUpTo, durable: writer.durableUpTo, unwritten: writer.unwrittenEvents}).toEqual({written: 20, durable: 0, unwritten: 0});
		await writer.flush();
		expect(counts).toEqual({writes: 20, syncs: 1});
		expect(writer.durableUpTo).toBe(20);
		await writer.close();
		expect(counts).toEqual({writes: 20, syncs: 1});
	});

	it('syncs what streamed once the delay has passed since the first unsynced batch', async () => {
		const counts = {writes: 0, syncs: 0};
		const writer = await SessionLogWriter.open(log, header, {openFile: countingOpen(counts)});
		counts.syncs = 0;
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		for (let turn = 1; turn <= 3; turn += 1) {
			writer.append(turnStart(turn));
			await until(() => writer.writtenUpTo === turn);
		}

		vi.advanceTimersByTime(SYNC_DELAY_MS - 1);
		expect(counts.syncs).toBe(0);
		vi.advanceTimersByTime(1);
		await until(() => writer.durableUpTo === 3);
		expect(counts.syncs).toBe(1);
		// The next batch starts the next delay.
		writer.append(turnStart(4));
		await until(() => writer.writtenUpTo === 4);
		vi.advanceTimersByTime(SYNC_DELAY_MS);
		await until(() => writer.durableUpTo === 4);
		expect(counts.syncs).toBe(2);
		vi.useRealTimers();
		await writer.close();
		expect(counts.syncs).toBe(2);
	});

	it('syncs a turn\'s end at once', async () => {
		const counts = {writes: 0, syncs: 0};
		const writer = await SessionLogWriter.open(log, header, {openFile: countingOpen(counts), syncDelayMs: 60_000});
		counts.syncs = 0;
		writer.append(turnStart(1));
		await until(() => writer.writtenUpTo === 1);
		expect(counts.syncs).toBe(0);
		writer.append({type: 'turn/end', time: 2, data: {turn: 1, reason: {kind: 'completed'}}});
		await until(() => writer.durableUpTo === 2);
		expect(counts.syncs).toBe(1);
		await writer.close();
	});

	it('cuts the file back to the last sync when a sync fails, and writes those lines again', async () => {
		const counts = {writes: 0, syncs: 0, failSyncs: 0};
		const errors: SessionLogWriteError[] = [];
		let recovered = 0;
		const writer = await SessionLogWriter.open(log, header, {openFile: countingOpen(counts), syncDelayMs: 60_000, retryDelayMs: 60_000, onError: error => errors.push(error), onRecover: () => {
			recovered += 1;
		}});
		writer.append(turnStart(1));
		await writer.flush();
		counts.failSyncs = 1;
		writer.append(turnStart(2));
		await until(() => writer.writtenUpTo === 2);
		writer.append(turnStart(3));
		await until(() => writer.writtenUpTo === 3);
		expect(seqsInFile()).toEqual([0, 1, 2]);
		await expect(writer.flush()).rejects.toThrow(`cannot append to session log ${log}: EIO: i/o error, fdatasync`);
		expect(errors.map(error => error.code)).toEqual(['EIO']);
		expect(seqsInFile()).toEqual([0]);
		expect({written: writer.writtenUpTo, durable: writer.durableUpTo, unwritten: writer.unwrittenEvents}).toEqual({written: 1, durable: 1, unwritten: 2});
		await writer.flush();
		expect(recovered).toBe(1);
		expect(writer.durableUpTo).toBe(3);
		await writer.close();
		expect(await readAll(log)).toEqual({header, events: [1, 2, 3].map((turn, seq) => ({type: 'turn/start', seq, time: 100 + turn, data: {turn}})), diagnostics: []});
	});
});

describe('a writer in another process', () => {
	it('refuses a second writer while it lives, naming its pid', async () => {
		const writerUrl = compiledWriter();
		const script = writeTemp(dir, 'hold.mjs', `
const {SessionLogWriter} = await import(${JSON.stringify(writerUrl)});
const writer = await SessionLogWriter.open(process.argv[2], ${JSON.stringify(header)});
process.stdout.write('ready\\n');
process.stdin.on('data', async () => {
	await writer.close();
	process.exit(0);
});
`);
		const child = spawn(process.execPath, [script, log], {stdio: ['pipe', 'pipe', 'inherit']});
		const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));
		const lines = createInterface({input: child.stdout})[Symbol.asyncIterator]();
		expect((await lines.next()).value).toBe('ready');
		const error = await SessionLogWriter.open(log, header).then(() => undefined, (thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionLogLockedError);
		expect({file: (error as SessionLogLockedError).file, pid: (error as SessionLogLockedError).pid}).toEqual({file: log, pid: child.pid});
		child.stdin.write('close\n');
		expect(await exited).toBe(0);
		expect(existsSync(`${log}.lock`)).toBe(false);
		const next = await SessionLogWriter.open(log, header);
		await next.close();
	});
});

describe('a process that exits without closing its writer', () => {
	it('still writes the pending events and removes its lock', async () => {
		const script = writeTemp(dir, 'exit.mjs', `
const {SessionLogWriter} = await import(${JSON.stringify(compiledWriter())});
const writer = await SessionLogWriter.open(process.argv[2], ${JSON.stringify(header)});
for (let turn = 1; turn <= 5; turn += 1) writer.append({type: 'turn/start', time: turn, data: {turn}});
process.exit(0);
`);
		const child = spawn(process.execPath, [script, log], {stdio: 'inherit'});
		expect(await new Promise(resolve => child.on('exit', resolve))).toBe(0);
		const {events, diagnostics} = await readAll(log);
		expect(events.map(event => event.seq)).toEqual([0, 1, 2, 3, 4]);
		expect(diagnostics).toEqual([]);
		expect(existsSync(`${log}.lock`)).toBe(false);
	});
});

describe('a writer killed with SIGKILL', () => {
	it('leaves a log that reads cleanly with every acknowledged event, and a lock the next writer takes over', async () => {
		const writerUrl = compiledWriter();
		const script = writeTemp(dir, 'child.mjs', `
const {SessionLogWriter} = await import(${JSON.stringify(writerUrl)});
const writer = await SessionLogWriter.open(process.argv[2], ${JSON.stringify(header)});
for (let turn = 1; ; turn += 1) {
	let last;
	for (let k = 0; k < 1 + (turn % 7); k += 1) last = writer.append({type: 'turn/start', data: {turn, pad: 'x'.repeat(turn % 300)}});
	await writer.flush();
	process.stdout.write(last.seq + '\\n');
}
`);
		const child = spawn(process.execPath, [script, log], {stdio: ['ignore', 'pipe', 'inherit']});
		const exited = new Promise<NodeJS.Signals | null>(resolve => child.on('exit', (_code, signal) => resolve(signal)));
		let acknowledged = -1;
		for await (const text of createInterface({input: child.stdout})) {
			acknowledged = Number(text);
			if (acknowledged >= 600) {
				child.kill('SIGKILL');
				break;
			}
		}

		expect(await exited).toBe('SIGKILL');
		const {events, diagnostics} = await readAll(log);
		expect(diagnostics.filter(diagnostic => diagnostic.kind !== 'torn-tail')).toEqual([]);
		expect(events.length).toBeGreaterThan(acknowledged);
		expect(events.every((event, index) => event.seq === index)).toBe(true);
		expect(readFileSync(`${log}.lock`, 'utf8')).toBe(`${child.pid}\n`);
		const next = await SessionLogWriter.open(log, undefined);
		expect(next.nextSeq).toBe(events.length);
		await next.close();
	});
});

describe('reopening a log cut at any byte of its last line', () => {
	it('continues from the last whole line and leaves a log that reads cleanly', async () => {
		const whole = `${JSON.stringify(header)}\n${JSON.stringify({type: 'turn/start', seq: 0, time: 1, data: {turn: 1}})}\n`;
		const last = `${JSON.stringify({type: 'turn/end', seq: 1, time: 2, data: {turn: 1, reason: {kind: 'completed'}}})}\n`;
		for (let cut = 0; cut <= last.length; cut += 1) {
			writeTemp(dir, 'session.jsonl', whole + last.slice(0, cut));
			const writer = await SessionLogWriter.open(log, undefined);
			const appended = writer.append({type: 'turn/start', time: 3, data: {turn: 2}});
			await writer.close();
			const complete = cut === last.length;
			expect({seq: appended.seq, repaired: writer.repairedBytes}).toEqual({seq: complete ? 2 : 1, repaired: complete ? 0 : cut});
			const {events, diagnostics} = await readAll(log);
			expect(diagnostics).toEqual([]);
			expect(events.map(event => event.seq)).toEqual(complete ? [0, 1, 2] : [0, 1]);
		}
	});
});
