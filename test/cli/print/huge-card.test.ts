/**
Promise 2, huge row counts (issue 11, item 4): a card of 300 000 rows is drawn, not a crash. Spreading
that many rows into `push` overflowed the stack (`replay --print` of a 450 KB log, `cardterm run` of
a script printing 300 000 lines).
*/
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../cli-io-fake.js';

const LINES = 300_000;

/** A log with one bash call whose output is `lines` numbered lines. */
export function hugeOutputLog(lines: number): string {
	const output = Array.from({length: lines}, (_, index) => `row ${index + 1}`).join('\n');
	const events = [
		{type: 'session', version: 0, id: 's-huge', createdAt: 1_790_000_000_000, cwd: '/home/u/proj', delegationDepth: 0},
		{type: 'turn/start', seq: 0, time: 1_790_000_000_001, data: {turn: 1}},
		{type: 'step/start', seq: 1, time: 1_790_000_000_002, data: {turn: 1, step: 1}},
		{type: 'tool/call', seq: 2, time: 1_790_000_000_003, data: {turn: 1, step: 1, callId: 'call_huge', name: 'bash', arguments: JSON.stringify({command: `seq ${lines}`, description: 'Print many lines'})}},
		{type: 'tool/result', seq: 3, time: 1_790_000_000_004, data: {turn: 1, step: 1, message: {id: 'r-1', role: 'user', source: {kind: 'tool', callId: 'call_huge'}, content: [{type: 'tool-result', toolCallId: 'call_huge', content: [{type: 'text', text: `${output}\n[exit code: 0]`}], isError: false}]}}, sourceEventSeqs: [2], surfaceOp: 'append'},
		{type: 'step/end', seq: 4, time: 1_790_000_000_005, data: {turn: 1, step: 1}},
	];
	return `${events.map(event => JSON.stringify(event)).join('\n')}\n`;
}

describe('a 300 000-row card', () => {
	const dir = mkdtempSync(join(tmpdir(), 'cardterm-huge-'));

	it('replays with --print, folded, and with --expand all, every row', async () => {
		const log = join(dir, 'huge.jsonl');
		writeFileSync(log, hugeOutputLog(LINES));
		const folded = fakeIo();
		expect(await main(['replay', log, '--print', '--width', '80'], folded)).toBe(0);
		expect(folded.err()).toBe('');
		expect(folded.out()).toContain('row 1\n');
		expect(folded.out()).toContain(`row ${LINES}\n`);
		expect(folded.out()).toContain('lines hidden (of 300');

		const full = fakeIo();
		expect(await main(['replay', log, '--print', '--width', '80', '--expand', 'all'], full)).toBe(0);
		expect(full.err()).toBe('');
		expect(full.out().split('\n').filter(line => /^row \d+$/.test(line))).toHaveLength(LINES);
	}, 60_000);

	it('comes out of `cardterm run` of a script that prints 300 000 lines', async () => {
		const script = join(dir, 'print.mjs');
		writeFileSync(script, `for (let i = 1; i <= ${LINES}; i++) console.log('x');\nreturn 'printed';\n`);
		const io = fakeIo({cwd: dir});
		expect(await main(['run', script, '--width', '80'], io)).toBe(0);
		expect(io.err()).toBe('');
		expect(io.out()).toMatch(/● run_code Run print\.mjs/);
		expect(io.out()).toContain('lines hidden (of 300');
	}, 60_000);
});
