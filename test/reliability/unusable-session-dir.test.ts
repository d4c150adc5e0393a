/**
Promise 3, the session folder: a sessions folder that cannot be used starts the session in memory
with the problem in the status line, and the closing line says the log was not saved. The class: a
file, a path under /proc (where Node's recursive mkdir never settles), a read-only folder, a
dangling symbolic link, a name too long. (The real binary in tmux: test/app/e2e-tmux.test.ts.)

The read-only folder is chmod 0o500 when not running as root; as root (chmod does not stop root) it
is a read-only tmpfs, and the case is skipped, saying so, where mounting is not permitted.
*/
import {spawnSync} from 'node:child_process';
import {cardsOf} from '../../src/presentation/entry.js';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {logOutcomeMessage} from '../../src/host/log-outcome.js';
import {openInteractiveSession} from '../../src/cli/interactive/open-interactive-session.js';
import {makeDirectory, makeDirectorySync} from '../../src/session/store/make-directory.js';

const isRoot = process.getuid?.() === 0;
let dir = '';
let readOnly: string | undefined;
let mounted = false;

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'cardterm-session-dir-'));
	writeFileSync(join(dir, 'a-file'), '');
	symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
	const folder = join(dir, 'read-only');
	mkdirSync(folder);
	if (!isRoot) {
		chmodSync(folder, 0o500);
		readOnly = folder;
	} else if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', folder]).status === 0) {
		mounted = true;
		readOnly = folder;
	}
});

afterAll(() => {
	if (mounted) {
		spawnSync('umount', [join(dir, 'read-only')]);
	}

	chmodSync(join(dir, 'read-only'), 0o700);
	rmSync(dir, {recursive: true, force: true});
});

const unusable: Array<[string, () => string | undefined]> = [
	['a file', () => join(dir, 'a-file')],
	['a path under /proc', () => `/proc/cardterm-test-${process.pid}/sessions`],
	['a read-only folder', () => readOnly === undefined ? undefined : join(readOnly, 'sessions')],
	['a dangling symbolic link', () => join(dir, 'dangling')],
	['a name too long', () => join(dir, 'x'.repeat(300))],
	['a path longer than PATH_MAX', () => join(dir, ...Array.from({length: 40}, () => 'y'.repeat(200)))],
];

describe('an unusable sessions folder', () => {
	it.each(unusable)('%s: the session starts in memory, the status line names the problem, calls run, the closing line says not saved', async (_name, rootOf) => {
		const root = rootOf();
		if (root === undefined) {
			// eslint-disable-next-line no-console -- say why the case did not run
			console.warn('skipped: running as root and a read-only tmpfs cannot be mounted here, so no folder is read-only');
			return;
		}

		const {session, controller, logOutcome} = await openInteractiveSession({root, cwd: dir, id: 'unusable'});
		const problem = controller.getSnapshot().problem ?? '';
		expect(problem).toMatch(/^session log not saved: cannot create .+ — the session goes on in memory$/);
		expect(problem).toContain(join(root, 'unusable').slice(0, 40));
		expect(session.logPath).toBeUndefined();

		const settled = new Promise<void>(resolve => {
			controller.onScrollback(entry => {
				if (entry.kind === 'entry' && entry.entry.entry === 'card') {
					resolve();
				}
			});
		});
		controller.submit('!echo still here');
		await settled;
		expect(cardsOf(session.fold.entries).map(card => [card.name, card.status])).toEqual([['bash', 'ok']]);
		await controller.close();
		expect(logOutcomeMessage(logOutcome())).toMatch(/^session log not saved: cannot create /);
	});
});

describe('makeDirectory', () => {
	it('creates missing parents, accepts an existing folder, and fails once for each unusable path', async () => {
		const nested = join(dir, 'made', 'a', 'b');
		await makeDirectory(nested);
		await makeDirectory(nested);
		makeDirectorySync(join(nested, 'c'));
		for (const [, rootOf] of unusable) {
			const root = rootOf();
			if (root !== undefined) {
				await expect(makeDirectory(join(root, 'x'))).rejects.toThrow();
				expect(() => {
					makeDirectorySync(join(root, 'x'));
				}).toThrow();
			}
		}
	});
});
