import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../cli-io-fake.js';

const folder = mkdtempSync(join(tmpdir(), 'cardterm-colours-'));
afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

/** A command that prints `ls --color=always`'s black-on-green name, then truecolor and 256-colour text. */
const args = JSON.stringify({description: 'print colours', command: 'printf \'\\033[30;42mtmp\\033[0m \\033[38;2;255;0;128mpink\\033[0m \\033[38;5;208morange\\033[0m\\n\''});

async function callWith(env: NodeJS.ProcessEnv, ...flags: string[]): Promise<string> {
	const io = fakeIo({cwd: folder, env});
	const code = await main(["call", "bash", args, ...flags], io);
	expect(code, io.err() + io.out()).toBe(0);
	return io.out();
}

describe('tool output colours through cardterm call', () => {
	it('keeps the background and writes extended colours at the depth the environment gives', async () => {
		const truecolor = await callWith({FORCE_COLOR: '1', COLORTERM: 'truecolor'}, '--color');
		expect(truecolor).toContain('\u001B[30;42mtmp\u001B[0m');
		// FORCE_COLOR=1 says 16 colours outright, whatever COLORTERM says.
		expect(truecolor).not.toContain('\u001B[38;2;');
		expect(truecolor).toContain('\u001B[35mpink');
		const direct = await callWith({COLORTERM: 'truecolor'}, '--color');
		expect(direct).toContain('\u001B[38;2;255;0;128mpink');
		expect(direct).toContain('\u001B[38;5;208morange');
		const palette = await callWith({TERM: 'xterm-256color'}, '--color');
		expect(palette).toContain('\u001B[30;42mtmp');
		expect(palette).toContain('\u001B[38;5;198mpink');
		expect(palette).toContain('\u001B[38;5;208morange');
		const sixteen = await callWith({TERM: 'xterm'}, '--color');
		expect(sixteen).toContain('\u001B[30;42mtmp');
		expect(sixteen).toContain('\u001B[35mpink');
		expect(sixteen).toContain('\u001B[33morange');
		const none = await callWith({TERM: 'xterm-256color'}, '--no-color');
		expect(none).toContain('tmp pink orange');
		expect(none).not.toContain('\u001B[');
	});
});
