/**
Promise 3 (issue 8), the missing piece: a log that cannot be written — a read-only directory, a full
disk — is a clear error naming the file, handed to `onLogError`, and the session keeps running in
memory: calls complete and fold into cards. (SIGKILL mid-run and the second writer are covered by
test/session/recorder/log-writer.test.ts.)

The read-only directory uses chmod 0o500 when not running as root. As root, chmod does not stop
writes, so the same failure (EACCES on creating files in the directory) is simulated by a log path
whose parent is a regular file (ENOTDIR), and the full disk by the writer's injectable `openFile`.
*/
import {chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {cardsOf} from '../../src/presentation/entry.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {logOutcomeMessage} from '../../src/host/log-outcome.js';
import {openInteractiveSession} from '../../src/cli/interactive/open-interactive-session.js';
import type {LiveSession} from '../../src/live/live-session.js';
import {openSession} from '../../src/host/open-session.js';
import type {SessionLogWriteError} from '../../src/session/reader/log-errors.js';
import type {LogFileHandle} from '../../src/session/recorder/log-writer.js';
import {openWithWrite, readAll} from '../session/helpers.js';

const isRoot = process.getuid?.() === 0;

let dir: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'cardterm-unwritable-'));
});

afterEach(() => {
	if (existsSync(join(dir, 'read-only'))) {
		chmodSync(join(dir, 'read-only'), 0o700);
	}

	rmSync(dir, {recursive: true, force: true});
});

/** A log path that cannot be created, and the system error code expected for it. */
function unwritableLogPath(): {path: string; code: string} {
	if (isRoot) {
		// Root ignores directory permissions: a parent that is a file fails the same way for everyone.
		writeFileSync(join(dir, 'not-a-dir'), '');
		return {path: join(dir, 'not-a-dir', 'session.jsonl'), code: 'ENOTDIR'};
	}

	const readOnly = join(dir, 'read-only');
	mkdirSync(readOnly);
	chmodSync(readOnly, 0o500);
	return {path: join(readOnly, 'session.jsonl'), code: 'EACCES'};
}

describe('a session whose log cannot be written', () => {
	it(`reports the error naming the file and keeps running in memory (${isRoot ? 'running as root: a file as parent directory stands in for chmod 0o500' : 'read-only directory, chmod 0o500'})`, async () => {
		const {path, code} = unwritableLogPath();
		const errors: SessionLogWriteError[] = [];
		const session = await openSession({cwd: dir, logPath: path, onLogError: error => errors.push(error)});
		const signal = new AbortController().signal;
		await session.runtime.runCall('bash', {command: 'echo still here', description: 'Runs in memory'}, {signal});
		await session.runtime.runCall('todo_write', {todos: [{content: 'Keep going', status: 'in_progress'}]}, {signal});
		await session.close();

		expect(errors.map(error => [error.file, error.code, error.message.includes(path)])).toEqual([[path, code, true]]);
		expect(cardsOf(session.fold.entries).map(card => [card.name, card.status])).toEqual([['bash', 'ok'], ['todo_write', 'ok']]);
		expect(cardsOf(session.fold.entries)[0]!.resultView).toEqual({card: 'terminal', output: 'still here\n', exitCode: 0});
	});

	it('without an onLogError listener, refuses to open with the error naming the file (cardterm call --log)', async () => {
		const {path} = unwritableLogPath();
		await expect(openSession({cwd: dir, logPath: path})).rejects.toThrow(path);
	});

	it('reports a disk that fills up mid-session once, keeps folding cards, and writes them when space returns', async () => {
		const logPath = join(dir, 'session.jsonl');
		let full = false;
		const openFaulty = async (path: string): Promise<LogFileHandle> => openWithWrite(path, async (real, buffer, offset, length) => {
			if (full) {
				throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'});
			}

			return real.write(buffer, offset, length);
		});

		const errors: SessionLogWriteError[] = [];
		const session = await openSession({cwd: dir, logPath, onLogError: error => errors.push(error), openLogFile: openFaulty});
		const signal = new AbortController().signal;
		full = true;
		await session.runtime.runCall('bash', {command: 'echo one', description: 'First'}, {signal});
		await session.runtime.runCall('bash', {command: 'echo two', description: 'Second'}, {signal});
		expect(cardsOf(session.fold.entries).map(card => [card.name, card.status])).toEqual([['bash', 'ok'], ['bash', 'ok']]);
		// The writer writes in the background: two quick calls can end before a write in flight (the
		// header's) comes back and the next one fails. A flush makes the attempt, and fails with it.
		await expect(session.flush()).rejects.toThrow('ENOSPC');
		expect(errors.map(error => [error.file, error.code, error.message])).toEqual([[logPath, 'ENOSPC', `cannot append to session log ${logPath}: ENOSPC: no space left on device, write`]]);
		full = false;
		await session.close();
		const {events, diagnostics} = await readAll(logPath);
		expect(diagnostics).toEqual([]);
		expect(events.filter(event => event.type === 'tool/result').length).toBe(2);
	});
});

/** Runs `!command` lines one after the other in the interactive session and waits for their cards. */
async function runPrompts(controller: LiveSession, lines: readonly string[]): Promise<void> {
	for (const line of lines) {
		const settled = new Promise<void>(resolve => {
			const stop = controller.onScrollback(entry => {
				if (entry.kind === 'entry' && entry.entry.entry === 'card') {
					stop();
					resolve();
				}
			});
		});
		controller.submit(line);
		await settled;
	}
}

describe('the closing line of an interactive session says what is on disk', () => {
	/** An interactive session on a disk that is full while `full()` says so. */
	async function sessionOnFlakyDisk(full: () => boolean) {
		const openFaulty = async (path: string): Promise<LogFileHandle> => openWithWrite(path, async (real, buffer, offset, length) => {
			if (full()) {
				throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'});
			}

			return real.write(buffer, offset, length);
		});
		const opened = await openInteractiveSession({root: join(dir, 'sessions'), cwd: dir, id: 'flaky', openLogFile: openFaulty});
		return {...opened, logPath: join(dir, 'sessions', 'flaky', 'session.jsonl')};
	}

	it('a disk that filled up and has room again by the end: "session saved: PATH (N events)", and the status line clears', async () => {
		let full = false;
		const {session, controller, logOutcome, logPath} = await sessionOnFlakyDisk(() => full);
		await runPrompts(controller, ['!echo before']);
		full = true;
		await runPrompts(controller, ['!echo during', '!echo still during']);
		await expect(session.flush()).rejects.toThrow('ENOSPC');
		expect(controller.getSnapshot().problem).toMatch(/^session log not saved: cannot append to session log .*ENOSPC.* — the session goes on in memory$/);
		full = false;
		await controller.close();

		const {events, diagnostics} = await readAll(logPath);
		expect(diagnostics).toEqual([]);
		expect(events.filter(event => event.type === 'tool/result').length).toBe(3);
		expect(logOutcomeMessage(logOutcome())).toBe(`session saved: ${logPath} (${events.length} events)`);
		expect(controller.getSnapshot().problem).toBeUndefined();
	});

	it('a disk still full at the end: "session log incomplete: K events not written, PATH", K counted from the file', async () => {
		let full = false;
		const {session, controller, logOutcome, logPath} = await sessionOnFlakyDisk(() => full);
		await runPrompts(controller, ['!echo before']);
		await session.flush();
		full = true;
		await runPrompts(controller, ['!echo during']);
		await controller.close();
		const emitted = session.log.nextSeq;

		const {events} = await readAll(logPath);
		const missing = emitted - events.length;
		expect(missing).toBeGreaterThan(0);
		expect(logOutcomeMessage(logOutcome())).toBe(`session log incomplete: ${missing} events not written, ${logPath}`);
	});
});
