import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';

const folder = mkdtempSync(join(tmpdir(), 'cardterm-bench-'));
const generator = join(import.meta.dirname, '../../bench/generate-log.mjs');

function generate(name: string, seed: number, events: number): string {
	const out = join(folder, name);
	execFileSync(process.execPath, [generator, '--events', String(events), '--seed', String(seed), '--out', out], {stdio: 'ignore'});
	return out;
}

afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

describe('bench/generate-log.mjs', () => {
	it('writes the same bytes for the same seed and other bytes for another seed', () => {
		const first = readFileSync(generate('a.jsonl', 7, 300));
		const again = readFileSync(generate('b.jsonl', 7, 300));
		const other = readFileSync(generate('c.jsonl', 8, 300));
		expect(again.equals(first)).toBe(true);
		expect(other.equals(first)).toBe(false);
	});

	it('writes a log the reader accepts: a version 0 header, then exactly N events with contiguous seq and no damaged line', async () => {
		const log = await openSessionLog(generate('d.jsonl', 11, 500));
		const seqs: number[] = [];
		const types = new Set<string>();
		for await (const event of log.events) {
			seqs.push(event.seq);
			types.add(event.type);
		}

		expect(log.header).toEqual({type: 'session', version: 0, id: 's-bench-11', createdAt: 1_790_000_000_000, cwd: '/home/u/proj', delegationDepth: 0});
		expect(seqs).toEqual(Array.from({length: 500}, (_, index) => index));
		expect(log.diagnosticCount).toBe(0);
		expect([...types].sort()).toEqual(['assistant/message', 'step/end', 'step/start', 'todo/write', 'tool/call', 'tool/result', 'turn/end', 'turn/start', 'user/message']);
	});
});
