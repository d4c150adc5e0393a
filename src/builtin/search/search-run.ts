/**
@module The effectful half of `grep` and `glob`: resolve the search root inside the workspace, run
under a timeout and the caller's signal, and turn engine output into sorted workspace-relative values.
Both grep engines return the same sorted list, so their results can be compared one to one.
*/
import type {Stats} from 'node:fs';
import {lstat, stat} from 'node:fs/promises';
import path from 'node:path';
import {FsError, isErrno} from '../workspace/fs-error.js';
import {realpathDeep, type ContainedPath, type WorkspaceGuard} from '../workspace/workspace-guard.js';
import type {RawGrepMatch} from './grep-engine.js';
import {grepInProcess} from './grep-fallback.js';
import {findRipgrep, grepWithRipgrep} from './grep-ripgrep.js';
import {compileGlob, relativeBelow} from './include-matcher.js';
import type {GlobArgs, GlobValue, GrepArgs, GrepMatch, GrepValue} from './search-card.js';
import {SearchError} from './search-error.js';
import {SEARCH_IGNORE_RULE, walkFiles} from './tree-walk.js';

/** How searches run. */
export type SearchRunOptions = {
	/** `true`: ripgrep (an error when it is missing); `false`: the in-process engine; absent: ripgrep when on PATH. */
	readonly useRipgrep?: boolean;
	readonly timeoutMs: number;
	readonly rawOutputMaxBytes: number;
};

/** Code-unit order: the same in every engine and locale. */
function comparePaths(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** Run `body` with a signal that aborts on the caller's cancellation or after `timeoutMs`. */
async function withBudget<T>(tool: string, timeoutMs: number, signal: AbortSignal, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const controller = new AbortController();
	const cancel = (): void => {
		controller.abort(new SearchError(`${tool} was cancelled`, 'SEARCH_ABORTED'));
	};

	if (signal.aborted) {
		cancel();
	}

	signal.addEventListener('abort', cancel, {once: true});
	const timer = setTimeout(() => {
		controller.abort(new SearchError(`${tool} timed out after ${timeoutMs} ms; narrow pattern or path and retry`, 'SEARCH_ABORTED'));
	}, timeoutMs);
	try {
		return await body(controller.signal);
	} catch (error) {
		throw controller.signal.aborted ? controller.signal.reason : error;
	} finally {
		clearTimeout(timer);
		signal.removeEventListener('abort', cancel);
	}
}

/** Resolve a search root and stat it, with the file tools' error vocabulary. */
async function searchRoot(guard: WorkspaceGuard, input: string | undefined): Promise<{target: ContainedPath; info: Stats}> {
	const target = await guard.resolve(input ?? '.');
	try {
		return {target, info: await stat(target.real)};
	} catch (error) {
		if (isErrno(error, 'ENOENT', 'ENOTDIR')) {
			throw new FsError(`cannot search "${target.absolute}": not found`, 'FS_NOT_FOUND');
		}

		throw error;
	}
}

/** grep: every matching line below the root, sorted by path then line. */
export async function runGrep(guard: WorkspaceGuard, args: GrepArgs, options: SearchRunOptions, signal: AbortSignal): Promise<GrepValue> {
	const {target, info} = await searchRoot(guard, args.path);
	if (!info.isFile() && !info.isDirectory()) {
		throw new FsError(`cannot search "${target.absolute}": not a regular file or directory`, 'FS_NOT_A_FILE');
	}

	if (args.include !== undefined) {
		try {
			compileGlob(args.include);
		} catch (error) {
			throw new SearchError(`grep include is not a valid glob: ${(error as Error).message}`, 'SEARCH_INVALID_PATTERN');
		}
	}

	const [workspace] = await guard.realRoots();
	const rg = options.useRipgrep === false ? undefined : await findRipgrep();
	if (options.useRipgrep === true && rg === undefined) {
		throw new SearchError('grep was configured to use ripgrep, but no "rg" executable is on PATH', 'SEARCH_FAILED');
	}

	const raw = await withBudget('grep', options.timeoutMs, signal, async (budget) => {
		const request = {
			pattern: args.pattern,
			target: target.real,
			targetIsFile: info.isFile(),
			workspace: workspace!,
			...(args.include === undefined ? {} : {include: args.include}),
			signal: budget,
			rawOutputMaxBytes: options.rawOutputMaxBytes,
		};
		return rg === undefined ? grepInProcess(request) : grepWithRipgrep(rg, request);
	});
	await assertStillContained(guard, raw.map((match) => match.file));
	return {matches: await relativize(guard, raw)};
}

/**
Re-check after a search that every reported file still resolves inside the roots. Neither engine
follows symlinks, so a file that now leads outside means a directory on its path was swapped for a
symlink while the search ran; the whole result is refused rather than leak what it found there.
*/
export async function assertStillContained(guard: WorkspaceGuard, files: readonly string[]): Promise<void> {
	for (const directory of new Set(files.map((file) => path.dirname(file)))) {
		// eslint-disable-next-line no-await-in-loop -- a handful of folders, checked one by one to stop at the first outside
		const real = await realpathDeep(directory);
		// eslint-disable-next-line no-await-in-loop -- a handful of folders, checked one by one to stop at the first outside
		if ((await guard.containingRoot(real)) === undefined) {
			throw guard.outside(directory, real);
		}
	}
}

async function relativize(guard: WorkspaceGuard, raw: readonly RawGrepMatch[]): Promise<GrepMatch[]> {
	const matches = await Promise.all(raw.map(async (match) => ({path: await guard.relativeToWorkspace(match.file), lineNumber: match.lineNumber, line: match.line})));
	return matches.sort((left, right) => comparePaths(left.path, right.path) || left.lineNumber - right.lineNumber);
}

/** Whether a glob names a hidden entry itself (`.github/x.yml`, `.env`): then hidden entries are walked. */
function namesDotSegment(pattern: string): boolean {
	return /(^|\/)\.[^./]/.test(pattern);
}

/**
glob: every file below the root whose path matches, under grep's ignore rule (`SEARCH_IGNORE_RULE`:
`.gitignore` honoured, hidden entries skipped — unless the pattern names a dot segment, as in
`.github/**` — VCS metadata excluded, symlinks not followed), newest-modified first, ties by path.
A pattern with a `/` may be written relative to the search root or to the workspace.
*/
export async function runGlob(guard: WorkspaceGuard, args: GlobArgs, options: SearchRunOptions, signal: AbortSignal): Promise<GlobValue> {
	const {target, info} = await searchRoot(guard, args.path);
	if (!info.isDirectory()) {
		throw new FsError(`cannot search "${target.absolute}": not a directory`, 'FS_NOT_A_DIRECTORY');
	}

	let test;
	try {
		test = compileGlob(args.pattern);
	} catch (error) {
		throw new SearchError(`glob pattern is not a valid glob: ${(error as Error).message}`, 'SEARCH_INVALID_PATTERN');
	}

	const [workspace] = await guard.realRoots();
	const found = await withBudget('glob', options.timeoutMs, signal, async (budget) => {
		const files: {path: string; real: string; mtimeMs: number}[] = [];
		for await (const file of walkFiles(target.real, {...SEARCH_IGNORE_RULE, includeHidden: namesDotSegment(args.pattern), signal: budget})) {
			const fromRoot = relativeBelow(target.real, file)!;
			const fromWorkspace = relativeBelow(workspace!, file);
			if (!test(fromRoot) && (fromWorkspace === undefined || !test(fromWorkspace))) {
				continue;
			}

			try {
				files.push({path: await guard.relativeToWorkspace(file), real: file, mtimeMs: (await lstat(file)).mtimeMs});
			} catch {
				// Deleted while walking.
			}
		}

		return files;
	});
	await assertStillContained(guard, found.map((file) => file.real));
	found.sort((left, right) => right.mtimeMs - left.mtimeMs || comparePaths(left.path, right.path));
	return {root: await guard.relativeToWorkspace(target.real), paths: found.map((file) => file.path)};
}
