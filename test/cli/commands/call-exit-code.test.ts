/** `cardterm call`'s exit code follows the one outcome rule (issue 13 item 19), and its help says so. */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import type {CardJson} from '../../../src/presentation/card-json.js';
import {fakeIo} from '../cli-io-fake.js';

const workspace = mkdtempSync(join(tmpdir(), 'cardterm-call-exit-'));
afterAll(() => rmSync(workspace, {recursive: true, force: true}));

async function call(tool: string, args: unknown): Promise<{code: number; card: CardJson}> {
	const io = fakeIo({cwd: workspace});
	const code = await main(['call', tool, JSON.stringify(args), '--json', '--log', join(workspace, 'session.jsonl')], io);
	return {code, card: JSON.parse(io.out()) as CardJson};
}

describe('cardterm call exit code', () => {
	it('is 1 for a command that exits non-zero: the call is ok, its outcome failed', async () => {
		const {code, card} = await call('bash', {command: 'exit 3', description: 'exit three'});
		expect([code, card.status, card.outcome, card.isError]).toEqual([1, 'ok', 'failed', false]);
	});

	it('is 0 for a command that exits 0', async () => {
		const {code, card} = await call('bash', {command: 'true', description: 'succeed'});
		expect([code, card.status, card.outcome]).toEqual([0, 'ok', 'ok']);
	});

	it('is 1 for an error result', async () => {
		const {code, card} = await call('read', {file_path: 'missing.txt'});
		expect([code, card.status, card.outcome]).toEqual([1, 'error', 'error']);
	});

	it('is documented in --help with the rule', async () => {
		const io = fakeIo();
		expect(await main(['call', '--help'], io)).toBe(0);
		expect(io.out()).toContain('Exit code: 0 when the outcome is ok; 1 when it is failed (a non-zero exit, killed by a signal, or\nan HTTP status of 400 or more), error, denied');
	});
});
