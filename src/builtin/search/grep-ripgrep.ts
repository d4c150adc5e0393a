/**
@module The ripgrep grep engine: spawns `rg --json` with a plain argv (no shell) in the workspace,
parses match records as they stream, and kills the process on cancellation, timeout or overflow.
Flags make ripgrep honour exactly what the fallback honours: `.gitignore` files everywhere
(`--no-require-git`), but no global excludes, `.git/info/exclude`, `.ignore`/`.rgignore` or config.
*/
import {spawn} from 'node:child_process';
import {access, constants} from 'node:fs/promises';
import path from 'node:path';
import {INVALID_UTF8_LINE, type GrepRequest, type RawGrepMatch} from './grep-engine.js';
import {relativeBelow} from './include-matcher.js';
import {SearchError} from './search-error.js';
import {VCS_NAMES} from './tree-walk.js';

/** Stderr kept for error messages. */
const STDERR_MAX_BYTES = 8 * 1024;

/** The first executable `rg` on `PATH`, or `undefined`. */
export async function findRipgrep(searchPath = process.env.PATH ?? ''): Promise<string | undefined> {
	for (const directory of searchPath.split(path.delimiter)) {
		if (directory === '') {
			continue;
		}

		const candidate = path.join(directory, process.platform === 'win32' ? 'rg.exe' : 'rg');
		try {
			// eslint-disable-next-line no-await-in-loop -- PATH order: the first one found is used
			await access(candidate, constants.X_OK);
			return candidate;
		} catch {
			// Not here.
		}
	}

	return undefined;
}

/** The argv (without the binary) for one request. Model values ride in `--flag=value` form and the target after `--`. */
export function ripgrepArgs(request: Pick<GrepRequest, 'pattern' | 'include' | 'target'>): string[] {
	const args = ['--json', '--no-config', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-dot', `--regexp=${request.pattern}`];
	if (request.include !== undefined) {
		args.push(`--glob=${request.include}`);
	}

	// After the include so these later globs win: VCS metadata is never searched.
	for (const name of VCS_NAMES) {
		args.push(`--glob=!${name}`);
	}

	args.push('--', request.target);
	return args;
}

function decodeField(field: unknown): string | undefined {
	if (typeof field !== 'object' || field === null) {
		return undefined;
	}

	const {text, bytes} = field as {text?: unknown; bytes?: unknown};
	if (typeof text === 'string') {
		return text;
	}

	return typeof bytes === 'string' ? Buffer.from(bytes, 'base64').toString('utf8') : undefined;
}

/** Parse one `--json` record; `undefined` for non-match records. Throws `SEARCH_FAILED` on malformed output. */
export function parseRipgrepRecord(record: string, cwd: string): RawGrepMatch | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(record);
	} catch (error) {
		throw new SearchError('grep received malformed ripgrep output (a line is not JSON)', 'SEARCH_FAILED', {cause: error});
	}

	const {type, data} = (parsed ?? {}) as {type?: unknown; data?: unknown};
	if (type !== 'match') {
		return undefined;
	}

	const {path: filePath, line_number: lineNumber, lines} = (data ?? {}) as {path?: unknown; line_number?: unknown; lines?: unknown};
	const file = decodeField(filePath);
	if (file === undefined || typeof lineNumber !== 'number' || typeof lines !== 'object' || lines === null) {
		throw new SearchError('grep received malformed ripgrep output (a match record lacks its path, line number or text)', 'SEARCH_FAILED');
	}

	const text = (lines as {text?: unknown}).text;
	const line = typeof text === 'string' ? text.replace(/\r?\n$/u, '') : INVALID_UTF8_LINE;
	return {file: path.resolve(cwd, file), lineNumber, line};
}

/** Run grep with ripgrep at `rgPath`. */
export async function grepWithRipgrep(rgPath: string, request: GrepRequest): Promise<RawGrepMatch[]> {
	request.signal.throwIfAborted();
	// A workspace-relative target keeps ripgrep's `--glob` paths relative to the workspace, as the fallback's are.
	const target = request.target === request.workspace ? '.' : (relativeBelow(request.workspace, request.target) ?? request.target);
	const child = spawn(rgPath, ripgrepArgs({...request, target}), {cwd: request.workspace, stdio: ['ignore', 'pipe', 'pipe']});
	const matches: RawGrepMatch[] = [];
	let failure: unknown;
	let rawBytes = 0;
	let pending = '';
	let stderr = '';
	const stop = (reason: unknown): void => {
		failure ??= reason;
		child.kill('SIGKILL');
	};

	const onAbort = (): void => {
		stop(request.signal.reason);
	};

	request.signal.addEventListener('abort', onAbort, {once: true});
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		if (failure !== undefined) {
			return;
		}

		rawBytes += Buffer.byteLength(chunk, 'utf8');
		if (rawBytes > request.rawOutputMaxBytes) {
			stop(new SearchError(`grep produced more than ${request.rawOutputMaxBytes} bytes of raw output; narrow pattern, path, or include and retry`, 'SEARCH_RAW_OUTPUT_OVERFLOW'));
			return;
		}

		const records = (pending + chunk).split('\n');
		pending = records.pop()!;
		try {
			for (const record of records) {
				const match = record === '' ? undefined : parseRipgrepRecord(record, request.workspace);
				if (match !== undefined) {
					matches.push(match);
				}
			}
		} catch (error) {
			stop(error);
		}
	});
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (chunk: string) => {
		if (stderr.length < STDERR_MAX_BYTES) {
			stderr += chunk.slice(0, STDERR_MAX_BYTES - stderr.length);
		}
	});

	const exit = await new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => {
		child.once('error', (error) => {
			failure ??= new SearchError(`grep could not start ripgrep at "${rgPath}": ${error.message}`, 'SEARCH_FAILED', {cause: error});
		});
		child.once('close', (code, signal) => {
			resolve({code, signal});
		});
	});
	request.signal.removeEventListener('abort', onAbort);
	if (failure !== undefined) {
		// eslint-disable-next-line @typescript-eslint/only-throw-error -- a SearchError set in the child's callbacks, which narrowing does not follow (it reads never here)
		throw failure;
	}

	if (pending !== '') {
		const match = parseRipgrepRecord(pending, request.workspace);
		if (match !== undefined) {
			matches.push(match);
		}
	}

	if (exit.code === 0 || exit.code === 1) {
		return matches;
	}

	const detail = stderr.trim();
	if (/regex parse error|error parsing glob|unclosed|regex could not be compiled/iu.test(detail)) {
		throw new SearchError(`grep pattern rejected by ripgrep: ${detail}`, 'SEARCH_INVALID_PATTERN');
	}

	const how = exit.code === null ? `killed by ${exit.signal ?? 'a signal'}` : `exit ${exit.code}`;
	throw new SearchError(`grep failed (ripgrep ${how})${detail === '' ? '' : `: ${detail}`}`, 'SEARCH_FAILED');
}
