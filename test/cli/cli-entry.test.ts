/** Starting cardterm (issue 13 item 10): `--cwd` must name a folder; the tmux test (test/app/e2e-session-files.test.ts) runs a session in one. */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {fakeIo} from './cli-io-fake.js';

const folder = mkdtempSync(join(tmpdir(), 'cardterm-entry-'));
afterAll(() => rmSync(folder, {recursive: true, force: true}));

describe('cardterm --cwd', () => {
	it('refuses a path that is not a folder, before it needs a terminal', async () => {
		const io = fakeIo({cwd: folder});
		expect(await main(['--cwd', 'missing'], io)).toBe(2);
		expect(io.err()).toBe(`cardterm: --cwd: ${join(folder, 'missing')} is not a directory\n`);
	});

	it('is a known flag of the interactive session, named in its help', async () => {
		const io = fakeIo({cwd: folder});
		expect(await main(['--cwd', '.'], io)).toBe(2);
		expect(io.err()).toContain('the interactive session needs a terminal');
		const help = fakeIo();
		expect(await main(['--help'], help)).toBe(0);
		expect(help.out()).toContain('--cwd DIR');
	});
});
