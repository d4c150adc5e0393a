import {mkdir, mkdtemp, realpath, rename, rm, symlink, utimes, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {grepInProcess, YIELD_WORK} from '../../../src/builtin/search/grep-fallback.js';
import {compileGrepRegex} from '../../../src/builtin/search/grep-regex.js';
import {findRipgrep, parseRipgrepRecord, ripgrepArgs} from '../../../src/builtin/search/grep-ripgrep.js';
import {compileGlob} from '../../../src/builtin/search/include-matcher.js';
import {assertStillContained, runGlob, runGrep, type SearchRunOptions} from '../../../src/builtin/search/search-run.js';
import {SearchError} from '../../../src/builtin/search/search-error.js';
import {WorkspaceGuard} from '../../../src/builtin/workspace/workspace-guard.js';

const fallback: SearchRunOptions = {useRipgrep: false, timeoutMs: 30_000, rawOutputMaxBytes: 20_000_000};
const ripgrep: SearchRunOptions = {...fallback, useRipgrep: true};
const signal = new AbortController().signal;
const rgPath = await findRipgrep();

let base: string;
let workspace: string;
let guard: WorkspaceGuard;

/** A tree exercising every walk rule: ignores (nested, negated, directory), hidden entries, VCS metadata, binaries, symlinks, CRLF, bad UTF-8. */
async function buildTree(): Promise<void> {
	const files: Record<string, string | Buffer> = {
		'.gitignore': 'dist/\n*.log\n!keep.log\n!.env\n',
		'vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
		'vendor/lib/debug.log': 'DEBUG nested repository log\n',
		'src/config.ts': "export const config = {\n  DEBUG: false,\n  level: 'info',\n}\n",
		'src/log.ts': 'import {config} from "./config"\n\n\n\n\n\n\n\n\nif (config.DEBUG) console.debug(msg)\n',
		'src/nested/.gitignore': 'secret.ts\n',
		'src/nested/secret.ts': 'DEBUG secret\n',
		'src/nested/open.tsx': 'const DEBUG = 1\nconst other = DEBUG + 1\n',
		'src/windows.txt': 'DEBUG crlf\r\nplain\r\n',
		'src/latin1.txt': Buffer.concat([Buffer.from('DEBUG caf'), Buffer.from([0xe9]), Buffer.from('\nDEBUG ok\n')]),
		'dist/out.ts': 'DEBUG built\n',
		'app.log': 'DEBUG log\n',
		'keep.log': 'DEBUG kept\n',
		'.hidden/h.ts': 'DEBUG hidden\n',
		'.env': 'DEBUG=1\n',
		'.git/config': 'DEBUG in git\n',
		'blob.bin': Buffer.from([0x44, 0x45, 0x42, 0x55, 0x47, 0x00, 0x01]),
		'docs/guide.md': '# DEBUG guide\n',
		'Ünïcode/naïve.ts': 'DEBUG ünï\n',
	};
	for (const [name, text] of Object.entries(files)) {
		await mkdir(path.dirname(path.join(workspace, name)), {recursive: true});
		await writeFile(path.join(workspace, name), text);
	}

	await writeFile(path.join(base, 'outside.ts'), 'DEBUG outside\n');
	await symlink(path.join(base, 'outside.ts'), path.join(workspace, 'src', 'link-out.ts'));
	await symlink(base, path.join(workspace, 'dir-out'));
}

beforeEach(async () => {
	base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-search-')));
	workspace = path.join(base, 'ws');
	await mkdir(workspace);
	await buildTree();
	guard = new WorkspaceGuard({workspace});
});

afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

afterAll(() => {
	if (rgPath === undefined) {
		console.log('ripgrep (rg) is not on PATH: the rg engine and the rg/fallback parity tests were not run (CI installs ripgrep)');
	}
});

const expectedDebug = [
	{path: '.env', lineNumber: 1, line: 'DEBUG=1'},
	{path: 'docs/guide.md', lineNumber: 1, line: '# DEBUG guide'},
	{path: 'keep.log', lineNumber: 1, line: 'DEBUG kept'},
	{path: 'src/config.ts', lineNumber: 2, line: '  DEBUG: false,'},
	{path: 'src/latin1.txt', lineNumber: 1, line: '(line is not valid UTF-8)'},
	{path: 'src/latin1.txt', lineNumber: 2, line: 'DEBUG ok'},
	{path: 'src/log.ts', lineNumber: 10, line: 'if (config.DEBUG) console.debug(msg)'},
	{path: 'src/nested/open.tsx', lineNumber: 1, line: 'const DEBUG = 1'},
	{path: 'src/nested/open.tsx', lineNumber: 2, line: 'const other = DEBUG + 1'},
	{path: 'src/windows.txt', lineNumber: 1, line: 'DEBUG crlf'},
	{path: 'vendor/lib/debug.log', lineNumber: 1, line: 'DEBUG nested repository log'},
	{path: 'Ünïcode/naïve.ts', lineNumber: 1, line: 'DEBUG ünï'},
];

describe('grep, in-process engine', () => {
	it('honours .gitignore (nested, negated, stopping at a nested repository), skips hidden, VCS, binary and symlinked entries, and sorts by path', async () => {
		expect(await runGrep(guard, {pattern: 'DEBUG'}, fallback, signal)).toEqual({matches: expectedDebug});
	});

	it('applies include like ripgrep: base names at any depth, and whitelisting hidden or ignored files', async () => {
		expect((await runGrep(guard, {pattern: 'DEBUG', include: '*.{ts,tsx}'}, fallback, signal)).matches.map((match) => match.path)).toEqual([
			'src/config.ts',
			'src/log.ts',
			'src/nested/open.tsx',
			'src/nested/open.tsx',
			'src/nested/secret.ts',
			'Ünïcode/naïve.ts',
		]);
		expect((await runGrep(guard, {pattern: 'DEBUG', include: 'src/*.ts'}, fallback, signal)).matches.map((match) => match.path)).toEqual([
			'src/config.ts',
			'src/log.ts',
		]);
	});

	it('searches a sub-directory or a single file given as path', async () => {
		expect((await runGrep(guard, {pattern: 'DEBUG', path: 'src/nested'}, fallback, signal)).matches).toEqual([
			{path: 'src/nested/open.tsx', lineNumber: 1, line: 'const DEBUG = 1'},
			{path: 'src/nested/open.tsx', lineNumber: 2, line: 'const other = DEBUG + 1'},
		]);
		expect((await runGrep(guard, {pattern: 'level', path: path.join(workspace, 'src/config.ts')}, fallback, signal)).matches).toEqual([
			{path: 'src/config.ts', lineNumber: 3, line: "  level: 'info',"},
		]);
	});

	it('matches per line with JavaScript regular expressions, including a leading (?i)', async () => {
		expect((await runGrep(guard, {pattern: '(?i)^debug (crlf|ok)$'}, fallback, signal)).matches).toEqual([
			{path: 'src/latin1.txt', lineNumber: 2, line: 'DEBUG ok'},
		]);
	});

	it('refuses paths outside the workspace and reports missing roots', async () => {
		await expect(runGrep(guard, {pattern: 'x', path: '..'}, fallback, signal)).rejects.toMatchObject({name: 'FsError', code: 'FS_OUTSIDE_WORKSPACE'});
		await expect(runGrep(guard, {pattern: 'x', path: 'dir-out'}, fallback, signal)).rejects.toMatchObject({code: 'FS_OUTSIDE_WORKSPACE'});
		await expect(runGrep(guard, {pattern: 'x', path: 'nope'}, fallback, signal)).rejects.toMatchObject({
			code: 'FS_NOT_FOUND',
			message: `cannot search "${workspace}/nope": not found`,
		});
	});

	it('rejects an invalid pattern with SEARCH_INVALID_PATTERN', async () => {
		await expect(runGrep(guard, {pattern: '(unclosed'}, fallback, signal)).rejects.toMatchObject({name: 'SearchError', code: 'SEARCH_INVALID_PATTERN'});
	});

	it('rejects look-around and backreferences, as ripgrep does, naming them', async () => {
		await expect(runGrep(guard, {pattern: 'DEBUG(?= ok)'}, fallback, signal)).rejects.toEqual(
			new SearchError('grep pattern uses look-around `(?=`, which ripgrep\'s dialect does not support', 'SEARCH_INVALID_PATTERN'),
		);
		await expect(runGrep(guard, {pattern: '(D)\\1'}, fallback, signal)).rejects.toEqual(
			new SearchError('grep pattern uses a backreference `\\1`, which ripgrep\'s dialect does not support', 'SEARCH_INVALID_PATTERN'),
		);
	});

	describe('yielding to the event loop while it matches', () => {
		// One 244 KB file (one read, so no file I/O between its first and last line) and a pattern
		// of about 200 instructions: matching it is about 50 M engine steps.
		const pattern = '\\w{200}z';
		const line = `${'word '.repeat(12)}DEBUG`;
		const lines = 4000;
		const request = (requestSignal: AbortSignal) => ({pattern, target: path.join(workspace, 'big.txt'), targetIsFile: true, workspace, signal: requestSignal, rawOutputMaxBytes: 1e9});
		const expectedPauses = () => Math.floor((compileGrepRegex(pattern).testWork(line) * lines) / YIELD_WORK);
		// The engine the fallback loads (the same module instance), to see when each line is matched.
		const {RE2JS} = createRequire(import.meta.url)('re2js') as typeof import('re2js');

		/** Runs `search`, counting event-loop turns (each lets timers, input and the timeout run) and the lines matched so far at each. */
		async function watchTurns<T>(search: () => Promise<T>, onTurn: (linesMatched: number) => void = () => {}) {
			const test = vi.spyOn(RE2JS.prototype, 'test');
			const matchedAtTurn: number[] = [];
			let done = false;
			const turn = () => {
				if (!done) {
					matchedAtTurn.push(test.mock.calls.length);
					onTurn(test.mock.calls.length);
					setImmediate(turn);
				}
			};

			setImmediate(turn);
			try {
				const [result] = await Promise.allSettled([search()]);
				return {result: result!, linesMatched: test.mock.calls.length, turnsWhileMatching: matchedAtTurn.filter(count => count > 0 && count < test.mock.calls.length).length};
			} finally {
				done = true;
				test.mockRestore();
			}
		}

		beforeEach(async () => {
			await writeFile(path.join(workspace, 'big.txt'), `${line}\n`.repeat(lines));
		});

		it('lets the event loop turn every YIELD_WORK engine steps, also inside one read of one file', async () => {
			expect(expectedPauses()).toBeGreaterThan(20);
			const watched = await watchTurns(async () => grepInProcess(request(signal)));
			expect(watched).toMatchObject({result: {status: 'fulfilled', value: []}, linesMatched: lines});
			expect(watched.turnsWhileMatching).toBeGreaterThanOrEqual(expectedPauses() - 1);
		});

		it('stops mid-file when cancelled while it matches', async () => {
			const controller = new AbortController();
			const reason = new SearchError('grep was cancelled', 'SEARCH_ABORTED');
			const watched = await watchTurns(async () => grepInProcess(request(controller.signal)), (linesMatched) => {
				if (linesMatched > 0) {
					controller.abort(reason);
				}
			});
			expect(watched.result).toEqual({status: 'rejected', reason});
			expect(watched.linesMatched).toBeLessThan(lines / 2);
		});
	});

	it('searches an extra allowed root and reports its files by absolute path', async () => {
		const extra = new WorkspaceGuard({workspace, allowedRoots: [base]});
		expect((await runGrep(extra, {pattern: 'outside', path: base, include: '*.ts'}, fallback, signal)).matches).toEqual([
			{path: path.join(base, 'outside.ts'), lineNumber: 1, line: 'DEBUG outside'},
		]);
	});

	it('stops with SEARCH_ABORTED when the caller has cancelled', async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(runGrep(guard, {pattern: 'DEBUG'}, fallback, controller.signal)).rejects.toEqual(new SearchError('grep was cancelled', 'SEARCH_ABORTED'));
	});

	it('fails clearly past the raw output cap', async () => {
		await expect(runGrep(guard, {pattern: 'DEBUG'}, {...fallback, rawOutputMaxBytes: 50}, signal)).rejects.toMatchObject({code: 'SEARCH_RAW_OUTPUT_OVERFLOW'});
	});

	it('fails when ripgrep is required but missing', async () => {
		const saved = process.env.PATH;
		process.env.PATH = '';
		try {
			await expect(runGrep(guard, {pattern: 'x'}, ripgrep, signal)).rejects.toMatchObject({code: 'SEARCH_FAILED'});
		} finally {
			process.env.PATH = saved;
		}
	});
});

describe.runIf(rgPath !== undefined)('grep, ripgrep engine and parity', () => {
	const cases = [
		{pattern: 'DEBUG'},
		{pattern: 'DEBUG', include: '*.{ts,tsx}'},
		{pattern: 'DEBUG', include: 'src/*.ts'},
		{pattern: 'DEBUG', path: 'src/nested'},
		{pattern: 'level', path: 'src/config.ts'},
		{pattern: '^const \\w+ = \\d'},
		{pattern: 'no such text anywhere'},
		{pattern: '(?i)debug (ok|crlf)'},
		{pattern: 'DEBUG', include: '*'},
		{pattern: 'DEBUG', include: '*.log'},
		{pattern: 'DEBUG', path: 'vendor'},
		// Where JavaScript's RegExp and ripgrep disagree: `.` matches `\r`, Unicode classes, POSIX
		// classes, \A, \x{…}, a named group, a flag group in the middle.
		{pattern: 'crlf.$'},
		{pattern: 'DEBUG \\pL{3}$'},
		{pattern: '^[[:upper:]]{5} ok'},
		{pattern: '\\ADEBUG \\x{6B}'},
		{pattern: '(?P<word>DEBUG) (?i:OK)'},
	];

	it.each(cases)('gives the same result as the fallback for %j', async (args) => {
		const viaRipgrep = await runGrep(guard, args, ripgrep, signal);
		expect(viaRipgrep).toEqual(await runGrep(guard, args, fallback, signal));
	});

	it('rejects an invalid pattern with SEARCH_INVALID_PATTERN', async () => {
		await expect(runGrep(guard, {pattern: '(unclosed'}, ripgrep, signal)).rejects.toMatchObject({code: 'SEARCH_INVALID_PATTERN'});
	});

	it.each(['DEBUG(?= ok)', '(D)\\1'])('rejects %s in both engines', async (pattern) => {
		await expect(runGrep(guard, {pattern}, ripgrep, signal)).rejects.toMatchObject({code: 'SEARCH_INVALID_PATTERN'});
		await expect(runGrep(guard, {pattern}, fallback, signal)).rejects.toMatchObject({code: 'SEARCH_INVALID_PATTERN'});
	});
});

describe('ripgrep plumbing', () => {
	it('builds a shell-free argv with the model values behind flags and the target after --', () => {
		expect(ripgrepArgs({pattern: '-e x', include: '*.ts', target: '-rf'})).toEqual([
			'--json',
			'--no-config',
			'--no-require-git',
			'--no-ignore-global',
			'--no-ignore-exclude',
			'--no-ignore-dot',
			'--regexp=-e x',
			'--glob=*.ts',
			'--glob=!.git',
			'--glob=!.svn',
			'--glob=!.hg',
			'--glob=!.bzr',
			'--glob=!.jj',
			'--glob=!.sl',
			'--glob=!_darcs',
			'--glob=!CVS',
			'--',
			'-rf',
		]);
	});

	it('parses match records, resolves paths against the cwd, and ignores other records', () => {
		const match = JSON.stringify({type: 'match', data: {path: {text: 'src/a.ts'}, lines: {text: 'hit\r\n'}, line_number: 3, submatches: []}});
		const bytes = JSON.stringify({type: 'match', data: {path: {text: 'b.txt'}, lines: {bytes: 'Y2Fm6Q=='}, line_number: 1}});
		expect(parseRipgrepRecord(match, '/w')).toEqual({file: '/w/src/a.ts', lineNumber: 3, line: 'hit'});
		expect(parseRipgrepRecord(bytes, '/w')).toEqual({file: '/w/b.txt', lineNumber: 1, line: '(line is not valid UTF-8)'});
		expect(parseRipgrepRecord(JSON.stringify({type: 'begin', data: {}}), '/w')).toBeUndefined();
		expect(() => parseRipgrepRecord('not json', '/w')).toThrow('grep received malformed ripgrep output (a line is not JSON)');
		expect(() => parseRipgrepRecord(JSON.stringify({type: 'match', data: {}}), '/w')).toThrow(SearchError);
	});

	it('finds rg only where it is executable', async () => {
		expect(await findRipgrep('')).toBeUndefined();
		const bin = path.join(base, 'bin');
		await mkdir(bin);
		await writeFile(path.join(bin, 'rg'), '#!/bin/sh\n', {mode: 0o755});
		expect(await findRipgrep(`/nonexistent${path.delimiter}${bin}`)).toBe(path.join(bin, 'rg'));
	});
});

describe('fallback regex and glob dialect', () => {
	it('accepts Rust-style punctuation escapes and leading flags, rejects unsupported inline flags', () => {
		expect(compileGrepRegex('a\\-b').test('a-b')).toBe(true);
		expect(compileGrepRegex('(?is)a.b').test('A\nB')).toBe(true);
		expect(() => compileGrepRegex('(?x)a b')).toThrow('grep pattern uses the inline flag "x", which the built-in engine does not support');
	});

	it('matches slash-less globs on base names and slashed globs on whole relative paths', () => {
		expect([compileGlob('*.ts')('a/b/c.ts'), compileGlob('*.ts')('.x.ts'), compileGlob('src/**/*.ts')('src/a/b.ts'), compileGlob('/src/*.ts')('src/a.ts')]).toEqual([
			true,
			true,
			true,
			true,
		]);
		expect([compileGlob('src/*.ts')('lib/src/a.ts'), compileGlob('*.ts')('a.tsx')]).toEqual([false, false]);
	});
});

describe('glob', () => {
	async function age(file: string, secondsAgo: number): Promise<void> {
		const when = new Date(Date.UTC(2026, 0, 1) - secondsAgo * 1000);
		await utimes(path.join(workspace, file), when, when);
	}

	it('lists files only under grep\'s ignore rule (.gitignore honoured, hidden skipped, VCS and symlinks excluded), newest-modified first with ties by path', async () => {
		await age('src/config.ts', 10);
		await age('src/log.ts', 30);
		await age('dist/out.ts', 20);
		await age('.hidden/h.ts', 20);
		await age('src/nested/secret.ts', 40);
		await age('src/nested/open.tsx', 40);
		await age('Ünïcode/naïve.ts', 50);
		// dist/ and src/nested/secret.ts are .gitignore'd, .hidden/ is hidden: grep skips them too.
		expect(await runGlob(guard, {pattern: '*.ts'}, fallback, signal)).toEqual({
			root: '.',
			paths: ['src/config.ts', 'src/log.ts', 'Ünïcode/naïve.ts'],
		});
		const grepped = new Set((await runGrep(guard, {pattern: 'DEBUG'}, fallback, signal)).matches.map((match) => match.path).filter((file) => file.endsWith('.ts')));
		expect(new Set((await runGlob(guard, {pattern: '*.ts'}, fallback, signal)).paths)).toEqual(grepped);
	});

	it('walks hidden entries when the pattern names a dot segment, still honouring .gitignore', async () => {
		expect((await runGlob(guard, {pattern: '.hidden/*.ts'}, fallback, signal)).paths).toEqual(['.hidden/h.ts']);
		expect((await runGlob(guard, {pattern: '**/.gitignore'}, fallback, signal)).paths.sort()).toEqual(['.gitignore', 'src/nested/.gitignore']);
		expect((await runGlob(guard, {pattern: 'dist/*.ts'}, fallback, signal)).paths).toEqual([]);
	});

	it('anchors slashed patterns at the search root or the workspace', async () => {
		const fromRoot = await runGlob(guard, {pattern: 'nested/*.ts*', path: 'src'}, fallback, signal);
		const fromWorkspace = await runGlob(guard, {pattern: 'src/nested/*.tsx', path: 'src'}, fallback, signal);
		// src/nested/secret.ts is .gitignore'd (src/nested/.gitignore).
		expect([fromRoot.root, [...fromRoot.paths].sort(), fromWorkspace.paths]).toEqual(['src', ['src/nested/open.tsx'], ['src/nested/open.tsx']]);
	});

	it('excludes VCS metadata even for a match-everything pattern', async () => {
		const all = await runGlob(guard, {pattern: '**'}, fallback, signal);
		expect(all.paths.filter((entry) => entry.includes('.git/') || entry.includes('link-out') || entry.startsWith('dir-out'))).toEqual([]);
		// Hidden entries are skipped, except `.env`, which a negated rule names; ignored files are skipped.
		expect(all.paths).not.toContain('.gitignore');
		expect(all.paths).toContain('.env');
		// The enclosing repository's `*.log` stops at the nested repository vendor/lib, as in grep.
		expect(all.paths.filter((entry) => entry.startsWith('dist/') || entry.endsWith('.log')).sort()).toEqual(['keep.log', 'vendor/lib/debug.log']);
	});

	it('refuses a file as root, a missing root and paths outside', async () => {
		await expect(runGlob(guard, {pattern: '*', path: 'src/config.ts'}, fallback, signal)).rejects.toMatchObject({
			code: 'FS_NOT_A_DIRECTORY',
			message: `cannot search "${workspace}/src/config.ts": not a directory`,
		});
		await expect(runGlob(guard, {pattern: '*', path: 'gone'}, fallback, signal)).rejects.toMatchObject({code: 'FS_NOT_FOUND'});
		await expect(runGlob(guard, {pattern: '*', path: 'dir-out'}, fallback, signal)).rejects.toMatchObject({code: 'FS_OUTSIDE_WORKSPACE'});
		await expect(runGlob(guard, {pattern: '*', path: '/'}, fallback, signal)).rejects.toMatchObject({code: 'FS_OUTSIDE_WORKSPACE'});
	});
});

describe('the after-search containment check', () => {
	it('refuses results whose directory was swapped for a symlink leading outside', async () => {
		const reported = path.join(workspace, 'docs', 'guide.md');
		await expect(assertStillContained(guard, [reported])).resolves.toBeUndefined();
		await rename(path.join(workspace, 'docs'), path.join(workspace, 'docs-moved'));
		await symlink(base, path.join(workspace, 'docs'));
		await expect(assertStillContained(guard, [reported])).rejects.toMatchObject({name: 'FsError', code: 'FS_OUTSIDE_WORKSPACE'});
	});
});
