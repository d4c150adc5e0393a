/**
Output that is not a terminal (issue 13 items 17, 18): a reader that closes the pipe early ends the
command quietly with 0, and `--print` keeps each line whole unless `--width` asks for rows.
Item 17 spawns the built binary (`npm run build`) with a real pipe.
*/
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {displayWidth} from '../../../src/layout/text/text-width.js';
import {fakeIo} from '../cli-io-fake.js';

const bin = fileURLToPath(new URL('../../../bin/cardterm', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'cardterm-pipe-'));
afterAll(() => rmSync(folder, {recursive: true, force: true}));

const header = {type: 'session', version: 0, id: 's-pipe', createdAt: 1_790_000_000_000, cwd: '/tmp', delegationDepth: 0};

/** A log of `cards` bash calls, each answered with `text(i)`. */
function writeLog(name: string, cards: number, text: (index: number) => string): string {
	const lines = [JSON.stringify(header)];
	let seq = 0;
	for (let index = 0; index < cards; index++) {
		const callId = `c${index}`;
		lines.push(JSON.stringify({type: 'tool/call', seq: seq++, time: 1_790_000_000_000 + seq, data: {callId, name: 'bash', arguments: JSON.stringify({command: `echo ${index}`, description: 'echo'})}}));
		lines.push(JSON.stringify({type: 'tool/result', seq: seq++, time: 1_790_000_000_000 + seq, data: {message: {role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content: [{type: 'text', text: text(index)}], isError: false}]}}}));
	}

	const path = join(folder, name);
	writeFileSync(path, `${lines.join('\n')}\n`);
	return path;
}

/** Runs the binary, reads its first chunk of stdout, then closes the pipe; resolves with how it ended. */
async function readALittle(args: readonly string[]): Promise<{code: number | null; signal: NodeJS.Signals | null; stderr: string; read: string}> {
	const child = spawn(process.execPath, [bin, ...args], {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, NO_COLOR: '1'}});
	let stderr = '';
	let read = '';
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	child.stdout.once('data', (chunk: Buffer) => {
		read = chunk.toString();
		child.stdout.destroy();
	});
	return new Promise(resolve => {
		child.on('close', (code, signal) => {
			resolve({code, signal, stderr, read});
		});
	});
}

describe('a reader that closes the pipe early', () => {
	// Far more than a pipe buffer holds, so the writer is still writing when the reader leaves.
	const log = writeLog('big.jsonl', 3000, index => `${'x'.repeat(200)} line ${index}`);

	it.each([['--json'], ['--print']])('ends replay %s with exit 0 and nothing on stderr', async mode => {
		const ended = await readALittle(['replay', log, mode]);
		expect(ended.read.length).toBeGreaterThan(0);
		expect(ended).toMatchObject({code: 0, signal: null, stderr: ''});
	});
});

describe('--print to a pipe or a file', () => {
	const long = Array.from({length: 40}, (_, index) => `word${index}`).join(' ');
	const log = writeLog('long.jsonl', 1, () => `${long}\n2000p x limit`);

	async function print(args: readonly string[]): Promise<string> {
		const io = fakeIo({isTTY: false});
		expect(await main(['replay', log, '--print', ...args], io)).toBe(0);
		return io.out();
	}

	it('keeps each line whole, so grep finds it', async () => {
		const lines = (await print([])).split('\n');
		expect(lines).toContain(long);
		expect(lines).toContain('2000p x limit');
	});

	it('cuts rows at --width N when asked', async () => {
		const lines = (await print(['--width', '40'])).split('\n');
		expect(lines).not.toContain(long);
		expect(lines.filter(line => line !== '').every(line => displayWidth(line) <= 40)).toBe(true);
		expect(lines.join('')).toContain(long);
	});
});
