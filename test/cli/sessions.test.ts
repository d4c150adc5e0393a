import {mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {fakeIo} from './cli-io-fake.js';

describe('cardterm sessions', () => {
	it('lists sessions recorded by cardterm call, newest first, with card and failure counts', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-sessions-'));
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-ws-'));
		const logA = join(root, '2026-01-01T00-00-00-aaaa', 'session.jsonl');
		const logB = join(root, '2026-01-02T00-00-00-bbbb', 'session.jsonl');
		const {mkdir} = await import('node:fs/promises');
		await mkdir(join(root, '2026-01-01T00-00-00-aaaa'));
		await mkdir(join(root, '2026-01-02T00-00-00-bbbb'));
		expect(await main(['call', 'read', '{"file_path":"missing.txt"}', '--log', logA, '--cwd', workspace], fakeIo())).toBe(1);
		expect(await main(['call', 'glob', '{"pattern":"*"}', '--log', logB, '--cwd', workspace], fakeIo())).toBe(0);
		expect(await main(['call', 'glob', '{"pattern":"*"}', '--log', logB, '--cwd', workspace], fakeIo())).toBe(0);

		const io = fakeIo();
		expect(await main(['sessions', '--session-dir', root, '--json'], io)).toBe(0);
		const sessions = io.out().trim().split('\n').map(line => JSON.parse(line) as {path: string; cards: number; failures: number; cwd: string});
		expect(sessions.map(session => [session.path, session.cards, session.failures, session.cwd])).toEqual([
			[logB, 2, 0, workspace],
			[logA, 1, 1, workspace],
		]);
	});

	it('says where it looked when there are no sessions', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-empty-'));
		const io = fakeIo();
		expect(await main(['sessions', '--session-dir', root], io)).toBe(0);
		expect(io.out()).toBe(`no saved sessions in ${root}\n`);
	});
});
