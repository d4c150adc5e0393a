/** Starting cardterm (issue 13 item 10): an unbuilt checkout says how to build it; `--cwd` must name a folder. */
import {spawnSync} from 'node:child_process';
import {copyFileSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {fakeIo} from './cli-io-fake.js';

const bin = fileURLToPath(new URL('../../bin/cardterm', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'cardterm-entry-'));
afterAll(() => rmSync(folder, {recursive: true, force: true}));

describe('bin/cardterm', () => {
	it('in a checkout without dist/, says to run npm install there instead of a module stack', () => {
		const checkout = join(folder, 'a clone');
		mkdirSync(join(checkout, 'bin'), {recursive: true});
		copyFileSync(bin, join(checkout, 'bin', 'cardterm'));
		const ran = spawnSync(process.execPath, [join(checkout, 'bin', 'cardterm'), '--version'], {encoding: 'utf8'});
		expect([ran.status, ran.stdout, ran.stderr]).toEqual([1, '', `cardterm: ${checkout}/ is not built: run npm install (or npm run build) there\n`]);
	});
});

describe('cardterm --cwd', () => {
	it('refuses a path that is not a folder, before it needs a terminal', async () => {
		const io = fakeIo({cwd: folder});
		expect(await main(['--cwd', 'missing'], io)).toBe(2);
		expect(io.err()).toBe(`cardterm --cwd: ${join(folder, 'missing')} is not a directory\n`);
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
