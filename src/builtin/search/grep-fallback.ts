/**
@module The in-process grep engine, used when `rg` is not on PATH. It walks like ripgrep (hidden
entries skipped, `.gitignore` honoured, VCS metadata skipped, symlinks not followed), skips files
that contain a NUL byte, and matches each line with the linear-time RE2 engine (see grep-regex.ts
for the dialect). Matching is synchronous, so the search counts its work and yields to the event loop
every `YIELD_WORK` steps: the timeout and a cancel take effect, and an interactive screen keeps
drawing, within about one line's match (RE2 steps run at tens of millions a second).
*/
import {constants} from 'node:fs';
import {open} from 'node:fs/promises';
import {setImmediate as nextTurn} from 'node:timers/promises';
import type {LinearRegex} from '../../regex/linear-regex.js';
import {INVALID_UTF8_LINE, type GrepRequest, type RawGrepMatch} from './grep-engine.js';
import {compileGrepRegex} from './grep-regex.js';
import {compileGlob, relativeBelow} from './include-matcher.js';
import {SearchError} from './search-error.js';
import {SEARCH_IGNORE_RULE, walkFiles} from './tree-walk.js';

const CHUNK_BYTES = 256 * 1024;
/** Engine steps between two yields to the event loop. */
export const YIELD_WORK = 1 << 21;
const strict = new TextDecoder('utf-8', {fatal: true});
const lenient = new TextDecoder('utf-8');

/** Decode one line; `undefined` marks invalid UTF-8. */
function decodeLine(bytes: Uint8Array): string | undefined {
	try {
		return strict.decode(bytes);
	} catch {
		return undefined;
	}
}

/** Counts matching work across a search and yields to the event loop once `YIELD_WORK` steps are spent. */
function workPacer(signal: AbortSignal): (work: number) => Promise<void> | undefined {
	let spent = 0;
	return (work) => {
		spent += work;
		if (spent < YIELD_WORK) {
			return undefined;
		}

		spent = 0;
		return nextTurn().then(() => {
			signal.throwIfAborted();
		});
	};
}

/** The matching lines of one file, or `[]` when it is binary. */
async function grepFile(file: string, regex: LinearRegex, pace: ReturnType<typeof workPacer>, signal: AbortSignal): Promise<RawGrepMatch[]> {
	let handle;
	try {
		// No following a symlink swapped in since the walk; no blocking on a FIFO swapped in either.
		handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch {
		return [];
	}

	const found: RawGrepMatch[] = [];
	try {
		const buffer = Buffer.alloc(CHUNK_BYTES);
		let carry = Buffer.alloc(0);
		let lineNumber = 0;
		const consume = (bytes: Buffer): Promise<void> | undefined => {
			lineNumber += 1;
			const decoded = decodeLine(bytes);
			const text = decoded ?? lenient.decode(bytes);
			if (regex.test(text)) {
				found.push({file, lineNumber, line: decoded === undefined ? INVALID_UTF8_LINE : text.endsWith('\r') ? text.slice(0, -1) : text});
			}

			return pace(regex.testWork(text));
		};

		for (;;) {
			signal.throwIfAborted();
			// eslint-disable-next-line no-await-in-loop -- one chunk after another, bounded memory
			const {bytesRead} = await handle.read(buffer, 0, CHUNK_BYTES, null);
			if (bytesRead === 0) {
				break;
			}

			const chunk = buffer.subarray(0, bytesRead);
			if (chunk.includes(0)) {
				return [];
			}

			let data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
			for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
				const pause = consume(data.subarray(0, newline));
				if (pause !== undefined) {
					// eslint-disable-next-line no-await-in-loop -- the pace yields to the event loop between chunks
					await pause;
				}

				data = data.subarray(newline + 1);
			}

			carry = Buffer.from(data);
		}

		if (carry.length > 0) {
			await consume(carry);
		}
	} finally {
		await handle.close();
	}

	return found;
}

/** Run grep in process. */
export async function grepInProcess(request: GrepRequest): Promise<RawGrepMatch[]> {
	const regex = compileGrepRegex(request.pattern);
	const pace = workPacer(request.signal);
	let include: ((file: string, isDirectory: boolean) => boolean) | undefined;
	if (request.include !== undefined) {
		const test = compileGlob(request.include);
		include = (file) => {
			// Outside the workspace (an allowed root) ripgrep sees an absolute path; so does the fallback.
			return test(relativeBelow(request.workspace, file) ?? file);
		};
	}

	const files: string[] = [];
	if (request.targetIsFile) {
		files.push(request.target);
	} else {
		for await (const file of walkFiles(request.target, {...SEARCH_IGNORE_RULE, ...(include === undefined ? {} : {include}), signal: request.signal})) {
			files.push(file);
		}
	}

	const matches: RawGrepMatch[] = [];
	let budget = request.rawOutputMaxBytes;
	for (const file of files) {
		// eslint-disable-next-line no-await-in-loop -- one file at a time keeps file descriptors few and matches in order
		for (const match of await grepFile(file, regex, pace, request.signal)) {
			budget -= Buffer.byteLength(match.line, 'utf8') + Buffer.byteLength(file, 'utf8');
			if (budget < 0) {
				throw new SearchError(
					`grep produced more than ${request.rawOutputMaxBytes} bytes of raw matches; narrow pattern, path, or include and retry`,
					'SEARCH_RAW_OUTPUT_OVERFLOW',
				);
			}

			matches.push(match);
		}
	}

	return matches;
}
