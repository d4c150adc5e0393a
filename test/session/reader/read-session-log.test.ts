import {readdirSync, existsSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {Readable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {openSessionLog, readSessionLog, RECORD_SLICE_BYTES} from '../../../src/session/reader/read-session-log.js';
import {SessionLogError, type LogDiagnostic} from '../../../src/session/reader/log-errors.js';
import type {SessionEvent, SessionHeader} from '../../../src/session/events/events.js';
import {fixture, fixtureLines, readAll, useTempDir, writeTemp} from '../helpers.js';

const header = fixtureLines('basic.jsonl')[0];
const line = (event: Record<string, unknown>): string => JSON.stringify(event);
const turnStart = (seq: number): string => line({type: 'turn/start', seq, time: 1000 + seq, data: {turn: 1}});

let dir: string;
useTempDir((created) => {
	dir = created;
});

async function headerError(text: string | Uint8Array): Promise<SessionLogError> {
	const path = writeTemp(dir, 'bad.jsonl', text);
	const error = await openSessionLog(path).then(() => undefined, (thrown: unknown) => thrown);
	expect(error).toBeInstanceOf(SessionLogError);
	return error as SessionLogError;
}

describe('the header', () => {
	it('is returned before any event is read', async () => {
		const log = await openSessionLog(fixture('basic.jsonl'));
		expect(log.header).toEqual({type: 'session', version: 0, id: 's-basic', createdAt: 1790000000000, cwd: '/home/u/proj', delegationDepth: 0});
		expect(log.file).toBe(fixture('basic.jsonl'));
		await log.close();
	});

	it('is required: an empty file is an error naming the file and line 1', async () => {
		const error = await headerError('');
		expect(error.message).toBe(`${join(dir, 'bad.jsonl')}:1: missing header: the file is empty`);
		expect({file: error.file, line: error.line, reason: error.reason, exitCode: error.exitCode}).toEqual({file: join(dir, 'bad.jsonl'), line: 1, reason: 'missing header: the file is empty', exitCode: 65});
	});

	it('is required: a log starting with an event is an error', async () => {
		const error = await headerError(`${turnStart(0)}\n`);
		expect(error.message).toBe(`${join(dir, 'bad.jsonl')}:1: missing header: line 1 is a "turn/start" event, not the session header {"type":"session",…}`);
	});

	it('must be JSON', async () => {
		const error = await headerError('{not json\n');
		expect(error.reason).toBe('missing header: line 1 is not valid JSON');
		// Refused at its first byte: a header can only start with "{" (after a BOM and blanks).
		expect((await headerError('not json\n')).reason).toBe('missing header: line 1 starts with 0x6e ("n"), not "{"; this is not a session log');
	});

	it('must be a whole line', async () => {
		const error = await headerError(header);
		expect(error.reason).toBe('missing header: line 1 is incomplete (no newline; the writer stopped before the header was written)');
	});

	it('of a newer version asks to upgrade cardterm', async () => {
		const error = await headerError(`${header.replace('"version":0', '"version":1')}\n${turnStart(0)}\n`);
		expect(error.message).toBe(`${join(dir, 'bad.jsonl')}:1: session log version 1 is newer than this cardterm supports (version 0); upgrade cardterm to read it`);
		expect(error.exitCode).toBe(65);
	});

	it('of another version is refused', async () => {
		const error = await headerError(`${header.replace('"version":0', '"version":"0"')}\n`);
		expect(error.reason).toBe('unsupported session log version "0" (this cardterm reads version 0)');
	});

	it('without a version is refused', async () => {
		const error = await headerError('{"type":"session","id":"x","createdAt":1}\n');
		expect(error.reason).toBe('unsupported session log version undefined (this cardterm reads version 0)');
	});

	it('is reported through readSessionLog as a throw from the first next()', async () => {
		const path = writeTemp(dir, 'bad.jsonl', '');
		await expect(readSessionLog(path).next()).rejects.toThrow(`${path}:1: missing header: the file is empty`);
	});

	it('of a missing file is an error naming the path', async () => {
		const missing = join(dir, 'nope.jsonl');
		await expect(openSessionLog(missing)).rejects.toThrow(`${missing}: cannot open: ENOENT`);
	});
});

describe('events', () => {
	it('expand packed chunk rows with exact seqs and times', async () => {
		const {events, diagnostics} = await readAll(fixture('basic.jsonl'));
		expect(diagnostics).toEqual([]);
		expect(events.map(event => event.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
		expect(events.slice(4, 10)).toEqual([
			{type: 'assistant/chunk', seq: 4, time: 1790000000020, data: {turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text: 'Let'}}},
			{type: 'assistant/chunk', seq: 5, time: 1790000000025, data: {turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text: ' me'}}},
			{type: 'assistant/chunk', seq: 6, time: 1790000000025, data: {turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text: ' look.'}}},
			{type: 'assistant/chunk', seq: 7, time: 1790000000040, data: {turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 1, id: 'call_ls', name: 'bash', argumentsDelta: '{"command":'}}},
			{type: 'assistant/chunk', seq: 8, time: 1790000000041, data: {turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 1, id: 'call_ls', argumentsDelta: '"ls"'}}},
			{type: 'assistant/chunk', seq: 9, time: 1790000000043, data: {turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 1, id: 'call_ls', argumentsDelta: '}'}}},
		]);
	});

	it('expand reasoning rows into reasoning deltas', async () => {
		const path = writeTemp(dir, 'r.jsonl', `${header}\n${line({type: 'reasoning-chunks', seq0: 0, time0: 50, data: {turn: 2, step: 3, index: 0, dt: [7], texts: ['a', 'b']}})}\n`);
		expect((await readAll(path)).events).toEqual([
			{type: 'assistant/chunk', seq: 0, time: 50, data: {turn: 2, step: 3, chunk: {type: 'reasoning-delta', index: 0, text: 'a'}}},
			{type: 'assistant/chunk', seq: 1, time: 57, data: {turn: 2, step: 3, chunk: {type: 'reasoning-delta', index: 0, text: 'b'}}},
		]);
	});

	it('keep non-chunk lines byte-for-byte as parsed JSON', async () => {
		const {events} = await readAll(fixture('basic.jsonl'));
		const lines = fixtureLines('basic.jsonl');
		expect(events[11]).toEqual(JSON.parse(lines[8]));
		expect(events[12]).toEqual(JSON.parse(lines[9]));
	});
});

describe('damaged logs', () => {
	it('ignore a torn tail and report it', async () => {
		const path = writeTemp(dir, 'torn.jsonl', `${header}\n${turnStart(0)}\n{"type":"step/sta`);
		const {events, diagnostics} = await readAll(path);
		expect(events).toEqual([JSON.parse(turnStart(0))]);
		expect(diagnostics).toEqual([{file: path, line: 3, kind: 'torn-tail', reason: 'torn tail: the last line has no newline (17 bytes ignored; the writer stopped mid-append)'}]);
	});

	it('skip a garbage line in the middle and keep reading without a second report for its seq', async () => {
		const path = writeTemp(dir, 'garbage.jsonl', `${header}\n${turnStart(0)}\n\u0000garbage}{\n${turnStart(2)}\n`);
		const {events, diagnostics} = await readAll(path);
		expect(events.map(event => event.seq)).toEqual([0, 2]);
		expect(diagnostics).toEqual([{file: path, line: 3, kind: 'malformed', reason: 'not valid JSON'}]);
	});

	it('name each kind of malformed line', async () => {
		const bad = [
			'[1,2]',
			'{"seq":1,"time":1,"data":{}}',
			'{"type":"turn/start","seq":-1,"time":1,"data":{"turn":1}}',
			'{"type":"turn/start","seq":1,"time":"now","data":{"turn":1}}',
			'{"type":"turn/start","seq":1,"time":1,"data":[]}',
			'{"type":"tool/call","seq":1,"time":1,"data":{"callId":7,"name":"bash","arguments":"{}"}}',
			'{"type":"text-chunks","seq0":1,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a","b"]}}',
			'{"type":"session","version":0,"id":"x","createdAt":1}',
		];
		const path = writeTemp(dir, 'bad.jsonl', `${header}\n${turnStart(0)}\n${bad.join('\n')}\n${turnStart(1)}\n`);
		const {events, diagnostics} = await readAll(path);
		expect(events.map(event => event.seq)).toEqual([0, 1]);
		expect(diagnostics.map(({line, reason}) => ({line, reason}))).toEqual([
			{line: 3, reason: 'not a JSON object'},
			{line: 4, reason: 'missing or invalid "type"'},
			{line: 5, reason: 'missing or invalid "seq"'},
			{line: 6, reason: 'missing or invalid "time"'},
			{line: 7, reason: 'missing or invalid "data" (must be an object)'},
			{line: 8, reason: 'invalid "tool/call" data: "callId" must be a string'},
			{line: 9, reason: 'invalid "text-chunks" data: "dt" must hold at least 1 numbers'},
			{line: 10, reason: 'a second session header (only line 1 may be one)'},
		]);
	});

	it('report a seq gap once and go on from the new seq', async () => {
		const path = writeTemp(dir, 'gap.jsonl', `${header}\n${turnStart(0)}\n${turnStart(5)}\n${turnStart(6)}\n`);
		const {events, diagnostics} = await readAll(path);
		expect(events.map(event => event.seq)).toEqual([0, 5, 6]);
		expect(diagnostics).toEqual([{file: path, line: 3, kind: 'seq-gap', reason: 'seq gap: expected 1, got 5 (4 missing); reading goes on from 5'}]);
	});

	it('skip a duplicated or regressing seq', async () => {
		const path = writeTemp(dir, 'dup.jsonl', `${header}\n${turnStart(0)}\n${turnStart(1)}\n${turnStart(1)}\n${turnStart(0)}\n${turnStart(2)}\n`);
		const {events, diagnostics} = await readAll(path);
		expect(events.map(event => event.seq)).toEqual([0, 1, 2]);
		expect(diagnostics).toEqual([
			{file: path, line: 4, kind: 'seq-repeat', reason: 'seq 1 repeats or goes back (expected 2): line skipped'},
			{file: path, line: 5, kind: 'seq-repeat', reason: 'seq 0 repeats or goes back (expected 2): line skipped'},
		]);
	});

	it('report an unknown event type once and skip its events, but pass ignorable ones through', async () => {
		const unknown = (seq: number) => line({type: 'x/unknown', seq, time: 1, data: {}});
		const ignorable = line({type: 'x/extension', seq: 3, time: 1, data: {a: 1}, ignorable: true});
		const path = writeTemp(dir, 'unknown.jsonl', `${header}\n${turnStart(0)}\n${unknown(1)}\n${unknown(2)}\n${ignorable}\n${turnStart(4)}\n`);
		const {events, diagnostics} = await readAll(path);
		expect(events).toEqual([JSON.parse(turnStart(0)), JSON.parse(ignorable), JSON.parse(turnStart(4))]);
		expect(diagnostics).toEqual([{file: path, line: 3, kind: 'unknown-type', reason: 'unknown event type "x/unknown" without "ignorable": skipped (later "x/unknown" events are skipped without a report)'}]);
	});

	it('quote a hostile type so no control sequence reaches a terminal through a diagnostic', async () => {
		const type = '\u001b]0;owned\u0007\u009b2J\u202e';
		const path = writeTemp(dir, 'hostile.jsonl', `${header}\n${line({type, seq: 0, time: 1, data: {}})}\n`);
		const {diagnostics} = await readAll(path);
		expect(diagnostics.map(({reason}) => reason)).toEqual(['unknown event type "\\u001b]0;owned\\u0007\\u009b2J\\u202e" without "ignorable": skipped (later "\\u001b]0;owned\\u0007\\u009b2J\\u202e" events are skipped without a report)']);
		expect(diagnostics[0].reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
	});

	it('know the types the card layer ignores and report none of them', async () => {
		const types = ['request/header', 'request/context', 'session/title', 'agent/inbox/spliced', 'compaction/start', 'llm/retry', 'hook/invoked', 'plan/mode', 'command/run', 'session/end-seed', 'tool-workflow/run-start', 'user/message', 'assistant/message'];
		const body = types.map((type, seq) => line({type, seq, time: 1, data: {}})).join('\n');
		const path = writeTemp(dir, 'ignored.jsonl', `${header}\n${body}\n`);
		const {events, diagnostics} = await readAll(path);
		expect(diagnostics).toEqual([]);
		expect(events.map(event => event.type)).toEqual(types);
	});

	it('skip a line longer than the limit without holding it', async () => {
		const long = line({type: 'turn/start', seq: 1, time: 1, data: {turn: 1, pad: 'x'.repeat(500)}});
		const path = writeTemp(dir, 'long.jsonl', `${header}\n${turnStart(0)}\n${long}\n${turnStart(2)}\n`);
		const log = await openSessionLog(path, {maxLineBytes: 200});
		const events: SessionEvent[] = [];
		for await (const event of log.events) {
			events.push(event);
		}

		expect(events.map(event => event.seq)).toEqual([0, 2]);
		expect(log.diagnostics).toEqual([{file: path, line: 3, kind: 'overlong', reason: 'line longer than the 200-byte limit: skipped to its end'}]);
	});

	it('fill a missing rootCallId of an old code-dispatch event from its parent', async () => {
		const old = {type: 'tool/code-dispatch-start', seq: 0, time: 1, data: {parentCallId: 'p', subCallId: 'p:code:1', name: 'bash', arguments: {}}};
		const path = writeTemp(dir, 'old.jsonl', `${header}\n${line(old)}\n`);
		expect((await readAll(path)).events).toEqual([{...old, data: {...old.data, rootCallId: 'p'}}]);
	});

	it('read the flat tool/result of older producers in the message shape, and name a shape it cannot read as unsupported', async () => {
		const content = [{type: 'text', text: 'hi'}];
		const flat = {type: 'tool/result', seq: 0, time: 1, data: {turn: 1, step: 2, callId: 'c1', content, isError: false, meta: {exit: 0}, error: {name: 'E', code: 'X'}}};
		const odd = {type: 'tool/result', seq: 1, time: 2, data: {id: 'c2', output: 'hi'}};
		const after = turnStart(2);
		const path = writeTemp(dir, 'flat.jsonl', `${header}\n${line(flat)}\n${line(odd)}\n${after}\n`);
		const log = await readAll(path);
		expect(log.events).toEqual([
			{...flat, data: {turn: 1, step: 2, meta: {exit: 0}, error: {name: 'E', code: 'X'}, message: {role: 'user', source: {kind: 'tool', callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', content, isError: false}]}}},
			JSON.parse(after),
		]);
		expect(log.diagnostics).toEqual([{file: path, line: 3, kind: 'unsupported', reason: 'tool/result in an unsupported result format (neither data.message nor a flat data.callId with content and isError): skipped'}]);
	});
});

describe('sources', () => {
	it('read a zstd log of concatenated frames to the same events as the plain one', async () => {
		const plain = await readAll(fixture('basic.jsonl'));
		const compressed = await readAll(fixture('basic.jsonl.zst'));
		expect(compressed).toEqual(plain);
	});

	it('detect zstd by its magic number whatever the name', async () => {
		const {readFileSync} = await import('node:fs');
		const path = writeTemp(dir, 'renamed.jsonl', readFileSync(fixture('basic.jsonl.zst')));
		expect((await readAll(path)).events).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('report a zstd log cut inside a frame as a torn tail', async () => {
		const {readFileSync} = await import('node:fs');
		const bytes = readFileSync(fixture('basic.jsonl.zst'));
		const path = writeTemp(dir, 'cut.jsonl.zst', bytes.subarray(0, bytes.length - 5));
		const {events, diagnostics} = await readAll(path);
		expect(diagnostics.map(({kind}) => kind)).toEqual(['torn-tail']);
		expect(events.length).toBeLessThan(15);
		expect(events.every((event, index) => event.seq === index)).toBe(true);
	});

	it('read the log inside a session folder', async () => {
		const {header: folderHeader, events} = await readAll(fixture('session-folder'));
		expect(folderHeader.id).toBe('s-basic');
		expect(events).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('say which files it looked for in a folder without a log', async () => {
		await expect(openSessionLog(dir)).rejects.toThrow(`${dir}: no session log in this folder (looked for session.jsonl, session.jsonl.zstd, session.jsonl.zst)`);
	});

	it('read a stream such as stdin, in arbitrary chunk sizes', async () => {
		const {readFileSync} = await import('node:fs');
		const bytes = readFileSync(fixture('basic.jsonl'));
		const chunks = Array.from({length: Math.ceil(bytes.length / 7)}, (_, index) => bytes.subarray(index * 7, index * 7 + 7));
		let seenHeader: SessionHeader | undefined;
		const events: SessionEvent[] = [];
		for await (const event of readSessionLog(Readable.from(chunks), {onHeader: value => {
			seenHeader = value;
		}})) {
			events.push(event);
		}

		expect(seenHeader?.id).toBe('s-basic');
		expect(events).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('stop quietly when the signal aborts', async () => {
		const controller = new AbortController();
		const events: SessionEvent[] = [];
		for await (const event of readSessionLog(fixture('basic.jsonl'), {signal: controller.signal})) {
			events.push(event);
			if (events.length === 3) {
				controller.abort();
			}
		}

		expect(events.map(event => event.seq)).toEqual([0, 1, 2]);
	});
});

const corpusDir = [resolve('/work/shared/corpus/dsh-sessions'), resolve(import.meta.dirname, '../../../../shared/corpus/dsh-sessions')].find(path => existsSync(path));

describe('the dsh corpus', () => {
	it('reads every log with zero diagnostics and contiguous seqs', async () => {
		if (corpusDir === undefined) {
			console.log('corpus folder dsh-sessions not found: corpus read test has nothing to check');
			return;
		}

		const files = readdirSync(corpusDir).filter(name => name.endsWith('.jsonl'));
		expect(files.length).toBeGreaterThan(0);
		const problems: LogDiagnostic[] = [];
		for (const name of files) {
			const log = await openSessionLog(join(corpusDir, name), {onDiagnostic: diagnostic => problems.push(diagnostic)});
			let expected = 0;
			for await (const event of log.events) {
				expect(event.seq).toBe(expected);
				expected += 1;
			}

			expect(expected).toBeGreaterThan(0);
		}

		expect(problems).toEqual([]);
	});
});

describe('memory', () => {
	it('stays bounded while streaming a 100 MB log that never exists as a whole', async () => {
		const pad = 'p'.repeat(1000);
		const total = 100_000;
		const source = Readable.from((function * () {
			yield `${header}\n`;
			for (let seq = 0; seq < total; seq += 50) {
				let text = '';
				for (let k = seq; k < seq + 50; k += 1) {
					text += `{"type":"turn/start","seq":${k},"time":${k},"data":{"turn":${k},"pad":"${pad}"}}\n`;
				}

				yield text;
			}
		})(), {objectMode: false});
		globalThis.gc?.();
		const before = process.memoryUsage().heapUsed;
		let peak = before;
		let count = 0;
		for await (const event of readSessionLog(source)) {
			count += event.seq === count ? 1 : 0;
			if (count % 10_000 === 0) {
				peak = Math.max(peak, process.memoryUsage().heapUsed);
			}
		}

		expect(count).toBe(total);
		// A reader holding the file would need > 100 MB of heap; a streaming one needs a few chunks.
		expect(peak - before).toBeLessThan(60 * 1024 * 1024);
	});
});

describe('event batches', () => {
	/** The batches of a log, and its diagnostics, read through `eventBatches`. */
	async function readBatches(source: Parameters<typeof openSessionLog>[0], options: Parameters<typeof openSessionLog>[1] = {}): Promise<{batches: Array<readonly SessionEvent[]>; diagnostics: LogDiagnostic[]}> {
		const log = await openSessionLog(source, options);
		const batches: Array<readonly SessionEvent[]> = [];
		for await (const batch of log.eventBatches) {
			batches.push([...batch]);
		}

		return {batches, diagnostics: [...log.diagnostics]};
	}

	it('hold the events a chunk completes, in order, as `events` yields them, with the same diagnostics', async () => {
		const lines = Array.from({length: 20_000}, (_, seq) => seq === 5 ? '\u0000garbage}{' : turnStart(seq));
		const path = writeTemp(dir, 'batches.jsonl', `${header}\n${lines.join('\n')}\n{"type":"step/sta`);
		const {batches, diagnostics} = await readBatches(path);
		const all = await readAll(path);
		// 1.3 MB in 1 MiB reads: more than one batch.
		expect(batches.length).toBeGreaterThan(1);
		expect(batches.flat()).toEqual(all.events);
		expect(all.events.length).toBe(19_999);
		expect(diagnostics).toEqual(all.diagnostics);
		expect(diagnostics.map(diagnostic => diagnostic.kind)).toEqual(['malformed', 'torn-tail']);
	});

	it('split a chunk read into slices: no batch holds more than a slice of lines, and a line across slices comes whole', async () => {
		// Multi-byte characters put slice boundaries inside characters as well as inside lines.
		const text = (seq: number): string => line({type: 'user/message', seq, time: 1000 + seq, data: {content: [{type: 'text', text: `日本語 ${'é'.repeat(seq % 97)} ${seq}`}], source: {kind: 'user'}}});
		const lines = Array.from({length: 8000}, (_, seq) => text(seq));
		const path = writeTemp(dir, 'slices.jsonl', `${header}\n${lines.join('\n')}\n`);
		const {batches} = await readBatches(path);
		const longest = Math.max(...lines.map(value => Buffer.byteLength(value) + 1));
		const bytesOf = (batch: readonly SessionEvent[]): number => batch.reduce((sum, event) => sum + Buffer.byteLength(lines[event.seq]!) + 1, 0);
		// ~1.4 MB: two 1 MiB reads, each split into several slices.
		expect(RECORD_SLICE_BYTES).toBeLessThanOrEqual(256 * 1024);
		expect(batches.length).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(lines.join('\n')) / RECORD_SLICE_BYTES));
		expect(Math.max(...batches.map(batch => bytesOf(batch)))).toBeLessThanOrEqual(RECORD_SLICE_BYTES + longest);
		expect(batches.flat().map(event => JSON.stringify(event))).toEqual(lines);
	});

	it('decode a line when the batch reaches it: a damaged line is reported after the events before it', async () => {
		const lines = Array.from({length: 10}, (_, seq) => seq === 5 ? '{not json' : turnStart(seq));
		const path = writeTemp(dir, 'order.jsonl', `${header}\n${lines.join('\n')}\n`);
		const seen: number[] = [];
		const reportedAfter: number[] = [];
		const log = await openSessionLog(path, {onDiagnostic: () => reportedAfter.push(seen.length)});
		for await (const batch of log.eventBatches) {
			for (const event of batch) {
				seen.push(event.seq);
			}
		}

		expect(seen).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
		expect(reportedAfter).toEqual([5]);
	});

	it('read a stream in small chunks to the same events', async () => {
		const {readFileSync} = await import('node:fs');
		const bytes = readFileSync(fixture('basic.jsonl'));
		const chunks = Array.from({length: Math.ceil(bytes.length / 7)}, (_, index) => bytes.subarray(index * 7, index * 7 + 7));
		const {batches} = await readBatches(Readable.from(chunks));
		expect(batches.flat()).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('stop at the next chunk once the signal aborts, and release the file when left early', async () => {
		const lines = Array.from({length: 20_000}, (_, seq) => turnStart(seq));
		const path = writeTemp(dir, 'abort.jsonl', `${header}\n${lines.join('\n')}\n`);
		const controller = new AbortController();
		const log = await openSessionLog(path, {signal: controller.signal});
		const seen: SessionEvent[] = [];
		for await (const batch of log.eventBatches) {
			seen.push(...batch);
			controller.abort();
		}

		expect(seen.length).toBeGreaterThan(0);
		expect(seen.length).toBeLessThan(20_000);
		const early = await openSessionLog(path);
		for await (const batch of early.eventBatches) {
			expect([...batch][0]!.seq).toBe(0);
			break;
		}

		await early.close();
		expect(await early.events.next()).toEqual({done: true, value: undefined});
	});
});
