import {watch} from 'node:fs';
import {chmod, mkdtemp, readFile, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {grepWithRipgrep} from '../../../src/builtin/search/grep-ripgrep.js';
import {runGrep} from '../../../src/builtin/search/search-run.js';
import {SearchError} from '../../../src/builtin/search/search-error.js';
import {WorkspaceGuard} from '../../../src/builtin/workspace/workspace-guard.js';

/** Stand-in `rg` executables: the engine's process handling is tested without ripgrep installed. */
let directory: string;

beforeEach(async () => {
	directory = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-fake-rg-')));
});

afterEach(async () => {
	await rm(directory, {recursive: true, force: true});
});

async function fakeRg(script: string): Promise<string> {
	const file = path.join(directory, 'rg');
	await writeFile(file, `#!/bin/sh\n${script}\n`);
	await chmod(file, 0o755);
	return file;
}

function request(signal: AbortSignal, rawOutputMaxBytes = 1_000_000) {
	return {pattern: 'x', target: directory, targetIsFile: false, workspace: directory, signal, rawOutputMaxBytes};
}

const records = [
	{type: 'begin', data: {path: {text: 'a.ts'}}},
	{type: 'match', data: {path: {text: 'a.ts'}, lines: {text: 'one x\n'}, line_number: 1, submatches: []}},
	{type: 'match', data: {path: {text: 'sub/b.ts'}, lines: {text: 'two x\n'}, line_number: 7, submatches: []}},
	{type: 'summary', data: {}},
]
	.map((record) => JSON.stringify(record))
	.join('\n');

describe('the ripgrep engine process', () => {
	it('parses streamed match records into absolute paths', async () => {
		const rg = await fakeRg(`cat <<'EOF'\n${records}\nEOF`);
		expect(await grepWithRipgrep(rg, request(new AbortController().signal))).toEqual([
			{file: path.join(directory, 'a.ts'), lineNumber: 1, line: 'one x'},
			{file: path.join(directory, 'sub/b.ts'), lineNumber: 7, line: 'two x'},
		]);
	});

	it('treats exit 1 as no matches', async () => {
		const rg = await fakeRg('exit 1');
		expect(await grepWithRipgrep(rg, request(new AbortController().signal))).toEqual([]);
	});

	it('classifies a rejected pattern and other failures with their stderr', async () => {
		const invalid = await fakeRg("echo 'regex parse error:\n    (x\n    ^\nerror: unclosed group' >&2; exit 2");
		await expect(grepWithRipgrep(invalid, request(new AbortController().signal))).rejects.toEqual(
			new SearchError('grep pattern rejected by ripgrep: regex parse error:\n    (x\n    ^\nerror: unclosed group', 'SEARCH_INVALID_PATTERN'),
		);
		const broken = await fakeRg("echo 'boom' >&2; exit 3");
		await expect(grepWithRipgrep(broken, request(new AbortController().signal))).rejects.toEqual(new SearchError('grep failed (ripgrep exit 3): boom', 'SEARCH_FAILED'));
	});

	it('kills the process and rejects with the abort reason when cancelled', async () => {
		const pidFile = path.join(directory, 'pid');
		const rg = await fakeRg(`echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exec sleep 30`);
		// Abort once the stand-in has started: it announces itself by renaming its pid file into place.
		const watcher = watch(directory);
		const started = new Promise<void>((resolve) => {
			watcher.on('change', (_event, name) => {
				if (name === 'pid') {
					watcher.close();
					resolve();
				}
			});
		});
		const controller = new AbortController();
		const running = grepWithRipgrep(rg, request(controller.signal));
		const reason = new SearchError('grep was cancelled', 'SEARCH_ABORTED');
		await started;
		controller.abort(reason);
		await expect(running).rejects.toBe(reason);
		const pid = Number((await readFile(pidFile, 'utf8')).trim());
		expect(() => process.kill(pid, 0)).toThrow();
	});

	it('stops reading and fails past the raw output cap', async () => {
		const rg = await fakeRg(`cat <<'EOF'\n${records}\nEOF`);
		await expect(grepWithRipgrep(rg, request(new AbortController().signal, 100))).rejects.toMatchObject({code: 'SEARCH_RAW_OUTPUT_OVERFLOW'});
	});

	it('reports a binary that cannot start', async () => {
		await expect(grepWithRipgrep(path.join(directory, 'missing-rg'), request(new AbortController().signal))).rejects.toMatchObject({code: 'SEARCH_FAILED'});
	});
});

describe('the grep budget', () => {
	it('kills ripgrep and fails with SEARCH_ABORTED when the 30 s budget runs out', async () => {
		const pidFile = path.join(directory, 'pid');
		await fakeRg(`echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exec sleep 30`);
		const watcher = watch(directory);
		const started = new Promise<void>((resolve) => {
			watcher.on('change', (_event, name) => {
				if (name === 'pid') {
					watcher.close();
					resolve();
				}
			});
		});
		const savedPath = process.env.PATH;
		process.env.PATH = `${directory}${path.delimiter}${savedPath ?? ''}`;
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		try {
			const running = runGrep(new WorkspaceGuard({workspace: directory}), {pattern: 'x'}, {useRipgrep: true, timeoutMs: 30_000, rawOutputMaxBytes: 1000}, new AbortController().signal);
			await started;
			vi.advanceTimersByTime(30_000);
			await expect(running).rejects.toEqual(new SearchError('grep timed out after 30000 ms; narrow pattern or path and retry', 'SEARCH_ABORTED'));
		} finally {
			vi.useRealTimers();
			process.env.PATH = savedPath;
		}

		const pid = Number((await readFile(pidFile, 'utf8')).trim());
		expect(() => process.kill(pid, 0)).toThrow();
	});
});
