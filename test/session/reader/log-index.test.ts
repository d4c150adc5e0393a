import {existsSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {indexSessionLog, readEventAt} from '../../../src/session/reader/log-index.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import type {LogDiagnostic} from '../../../src/session/reader/log-errors.js';
import {fixture, fixtureLines, readAll, useTempDir, writeTemp} from '../helpers.js';

let dir: string;
useTempDir((created) => {
	dir = created;
});

async function eventsThroughIndex(source: string): Promise<SessionEvent[]> {
	const index = await indexSessionLog(source);
	const events: SessionEvent[] = [];
	for (let i = 0; i < index.count; i += 1) {
		events.push(...(await readEventAt(index.path, index.offsets[i], index.lengths[i])));
	}

	await index.dispose();
	return events;
}

describe('indexSessionLog', () => {
	it('records the offset, length, type and first seq of every event line', async () => {
		const lines = fixtureLines('basic.jsonl');
		const index = await indexSessionLog(fixture('basic.jsonl'));
		expect(index.header.id).toBe('s-basic');
		expect(index.count).toBe(lines.length - 1);
		const starts = lines.map((_, i) => lines.slice(0, i).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0));
		expect([...index.offsets.subarray(0, index.count)]).toEqual(starts.slice(1));
		expect([...index.lengths.subarray(0, index.count)]).toEqual(lines.slice(1).map(line => Buffer.byteLength(line)));
		expect([...index.seqs.subarray(0, index.count)]).toEqual([0, 1, 2, 3, 4, 7, 10, 11, 12, 13, 14]);
		expect(index.types).toEqual(['turn/start', 'step/start', 'session/title', 'assistant/chunk', 'assistant/chunk', 'assistant/chunk', 'assistant/message', 'tool/call', 'tool/result', 'step/end', 'turn/end']);
		expect(index.path).toBe(fixture('basic.jsonl'));
	});

	it('reads back through the index exactly the events the reader yields', async () => {
		expect(await eventsThroughIndex(fixture('basic.jsonl'))).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('indexes a zstd log through a temporary plain copy that dispose removes', async () => {
		const index = await indexSessionLog(fixture('basic.jsonl.zst'));
		expect(index.path).not.toBe(fixture('basic.jsonl.zst'));
		expect(existsSync(index.path)).toBe(true);
		expect(index.count).toBe(11);
		await index.dispose();
		expect(existsSync(index.path)).toBe(false);
		expect(await eventsThroughIndex(fixture('basic.jsonl.zst'))).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('leaves damaged lines out and reports them', async () => {
		const [header, first, second] = fixtureLines('basic.jsonl');
		const path = writeTemp(dir, 'd.jsonl', `${header}\n${first}\nnope\n${second}\n{"torn`);
		const diagnostics: LogDiagnostic[] = [];
		const index = await indexSessionLog(path, {onDiagnostic: d => diagnostics.push(d)});
		expect(index.count).toBe(2);
		expect(diagnostics.map(({line, kind}) => ({line, kind}))).toEqual([{line: 3, kind: 'malformed'}, {line: 5, kind: 'torn-tail'}]);
	});

	it('grows past its initial capacity and reports progress', async () => {
		const [header] = fixtureLines('basic.jsonl');
		const body = Array.from({length: 3000}, (_, seq) => JSON.stringify({type: 'turn/start', seq, time: seq, data: {turn: seq, pad: 'p'.repeat(400)}})).join('\n');
		const path = writeTemp(dir, 'big.jsonl', `${header}\n${body}\n`);
		const progress: number[] = [];
		const index = await indexSessionLog(path, bytes => progress.push(bytes));
		expect(index.count).toBe(3000);
		expect(index.seqs[2999]).toBe(2999);
		expect(progress.length).toBeGreaterThan(0);
		expect(await readEventAt(path, index.offsets[1234], index.lengths[1234])).toEqual([{type: 'turn/start', seq: 1234, time: 1234, data: {turn: 1234, pad: 'p'.repeat(400)}}]);
	});
});
