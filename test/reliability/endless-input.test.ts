/**
Promise 2, endless and blocked inputs (issue 11 item 9): `replay /dev/zero`, `replay - < /dev/zero`
and a header that never ends are refused with exit 65 and one line; a line without end after a good
header is named as soon as it passes the line bound; a FIFO without a writer does not block in
open(): replay says it waits for a writer, reads the log once one writes it, and SIGTERM ends it.
Each runs the CLI in a child process; HANG_MS only stops a hang (the assertions are on the exit and
the messages). Needs dist/ (npm run build; `npm test` builds it).
*/
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {createReadStream, existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtEntry} from '../app/e2e-helpers.js';
import {fixture} from '../session/helpers.js';

/** Generous: each case ends in well under a second when it works. */
const HANG_MS = 30_000;

const bin = fileURLToPath(new URL('../../bin/cardterm', import.meta.url));
const built = existsSync(builtEntry);
const dir = mkdtempSync(join(tmpdir(), 'cardterm-endless-'));

const children = new Set<ChildProcess>();

afterAll(() => {
	for (const child of children) {
		child.kill('SIGKILL');
	}

	rmSync(dir, {recursive: true, force: true});
});

type Ended = {readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly out: string; readonly err: string; readonly hung: boolean};

/** A running `cardterm replay …`; `until` resolves once stderr matches, `ended` when it exits (killed after HANG_MS). */
function start(args: readonly string[], stdin: 'pipe' | 'ignore' | number = 'ignore'): {child: ChildProcess; until: (pattern: RegExp) => Promise<boolean>; ended: Promise<Ended>} {
	const child = spawn(process.execPath, [bin, 'replay', ...args], {stdio: [stdin, 'pipe', 'pipe'], env: {...process.env, NO_COLOR: '1'}});
	children.add(child);
	let out = '';
	let err = '';
	const waiters: Array<() => void> = [];
	child.stdout!.setEncoding('utf8').on('data', (text: string) => {
		out += text;
	});
	child.stderr!.setEncoding('utf8').on('data', (text: string) => {
		err += text;
		for (const wake of waiters.splice(0)) {
			wake();
		}
	});
	let hung = false;
	const timer = setTimeout(() => {
		hung = true;
		child.kill('SIGKILL');
	}, HANG_MS);
	const ended = new Promise<Ended>(resolve => {
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			children.delete(child);
			for (const wake of waiters.splice(0)) {
				wake();
			}

			resolve({code, signal, out, err, hung});
		});
	});
	let closed = false;
	void ended.then(() => {
		closed = true;
	});
	const until = async (pattern: RegExp): Promise<boolean> => {
		while (!pattern.test(err)) {
			if (closed) {
				return false;
			}

			// wait for the next stderr chunk or the exit
			await new Promise<void>(resolve => {
				waiters.push(resolve);
			});
		}

		return true;
	};

	return {child, until, ended};
}

/** Exit 65 with one stderr line. */
function expectRefused(result: Ended, line: RegExp): void {
	expect({hung: result.hung, code: result.code, out: result.out}).toEqual({hung: false, code: 65, out: ''});
	expect(result.err).toMatch(line);
	expect(result.err.split('\n')).toHaveLength(2);
}

describe.skipIf(!built)('endless and blocked inputs (dist/ built)', {timeout: 2 * HANG_MS}, () => {
	let header: string;
	beforeAll(() => {
		header = readFileSync(fixture('basic.jsonl'), 'utf8').split('\n')[0]!;
	});

	it('replay /dev/zero is refused at its first byte', async () => {
		expectRefused(await start(['/dev/zero', '--print']).ended, /^cardterm: \/dev\/zero:1: missing header: line 1 starts with 0x00, not "\{"; this is not a session log\n$/);
	});

	it('replay - < /dev/zero is refused at its first byte', async () => {
		const zero = openSync('/dev/zero', 'r');
		try {
			expectRefused(await start(['-', '--json'], zero).ended, /^cardterm: <stream>:1: missing header: line 1 starts with 0x00/);
		} finally {
			closeSync(zero);
		}
	});

	it('a header line that never ends is refused after MAX_HEADER_BYTES', async () => {
		const run = start(['-', '--print'], 'pipe');
		run.child.stdin!.on('error', () => undefined);
		run.child.stdin!.write('{"type":"session"');
		createReadStream('/dev/zero').on('error', () => undefined).pipe(run.child.stdin!);
		expectRefused(await run.ended, /^cardterm: <stream>:1: missing header: line 1 is longer than the 1048576-byte limit of a header\n$/);
	});

	it('an event line that never ends is named once it passes the line bound, not at a newline that never comes', async () => {
		const run = start(['-', '--print'], 'pipe');
		run.child.stdin!.on('error', () => undefined);
		run.child.stdin!.write(`${header}\n`);
		createReadStream('/dev/zero').on('error', () => undefined).pipe(run.child.stdin!);
		const named = await run.until(/<stream>:2: line longer than the 67108864-byte limit: skipped to its end\n/);
		run.child.kill('SIGTERM');
		const result = await run.ended;
		expect({named, hung: result.hung}).toEqual({named: true, hung: false});
	});

	it('a FIFO without a writer: says it waits, and SIGTERM ends it', async () => {
		const fifo = join(dir, 'no-writer.fifo');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const run = start([fifo, '--print']);
		const waiting = await run.until(/waiting for a writer on FIFO/);
		run.child.kill('SIGTERM');
		const result = await run.ended;
		expect({waiting, hung: result.hung, signal: result.signal, err: result.err}).toEqual({waiting: true, hung: false, signal: 'SIGTERM', err: `cardterm: waiting for a writer on FIFO ${fifo} (Ctrl+C stops)\n`});
	});

	it('a FIFO whose writer comes late: replays what it writes', async () => {
		const fifo = join(dir, 'late-writer.fifo');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const run = start([fifo, '--json']);
		expect(await run.until(/waiting for a writer on FIFO/)).toBe(true);
		// Opening for writing succeeds now that the reader holds the FIFO open (it would block otherwise).
		writeFileSync(fifo, readFileSync(fixture('basic.jsonl')));
		const result = await run.ended;
		expect({hung: result.hung, code: result.code}).toEqual({hung: false, code: 0});
		const entries = result.out.split('\n').filter(line => line !== '').map(line => JSON.parse(line) as {entry: string; callId?: string});
		expect(entries.filter(entry => entry.entry === 'card').map(entry => entry.callId)).toEqual(['call_ls']);
		expect(entries.map(entry => entry.entry)).toEqual(['notice', 'assistant', 'card', 'turn']);
	});
});
