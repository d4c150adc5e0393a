/**
@module `mkdir -p` that always ends. Node's `mkdir(path, {recursive: true})` never settles under
`/proc` (mkdir there fails with ENOENT although the parent exists, and Node retries forever). This
walks up to the nearest existing ancestor once, then creates each missing folder once: at most one
`mkdir` per path component, and the first failure is thrown as it is (ENOTDIR, ENOENT, EACCES,
EROFS, ENAMETOOLONG, …).
*/
import {lstatSync, mkdirSync, statSync} from 'node:fs';
import {lstat, mkdir, stat} from 'node:fs/promises';
import {dirname, resolve} from 'node:path';
import {systemErrorCode} from '../reader/log-errors.js';

/** What is at a path: a folder, something else, nothing, or a symbolic link to nothing. */
type Probe = 'directory' | 'other' | 'missing' | 'dangling';

/** The next step of the walk up from `at`: done, one more folder to create, or the error to throw. */
function step(at: string, found: Probe): 'done' | 'missing' | Error {
	if (found === 'directory') {
		return 'done';
	}

	if (found === 'other' || found === 'dangling') {
		const what = found === 'other' ? 'not a directory' : 'a symbolic link to nothing';
		return Object.assign(new Error(`ENOTDIR: ${what}, mkdir '${at}'`), {code: 'ENOTDIR', path: at});
	}

	return dirname(at) === at ? Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${at}'`), {code: 'ENOENT', path: at}) : 'missing';
}

async function probe(at: string): Promise<Probe> {
	try {
		return (await stat(at)).isDirectory() ? 'directory' : 'other';
	} catch (error) {
		if (systemErrorCode(error) !== 'ENOENT') {
			throw error;
		}

		return lstat(at).then(() => 'dangling', () => 'missing');
	}
}

function probeSync(at: string): Probe {
	try {
		return statSync(at).isDirectory() ? 'directory' : 'other';
	} catch (error) {
		if (systemErrorCode(error) !== 'ENOENT') {
			throw error;
		}

		try {
			lstatSync(at);
			return 'dangling';
		} catch {
			return 'missing';
		}
	}
}

/** Creates `path` and its missing parents. */
export async function makeDirectory(path: string): Promise<void> {
	const missing: string[] = [];
	for (let at = resolve(path); ; at = dirname(at)) {
		const next = step(at, await probe(at));
		if (next instanceof Error) {
			throw next;
		}

		if (next === 'done') {
			break;
		}

		missing.unshift(at);
	}

	for (const folder of missing) {
		await mkdir(folder).catch(async (error: unknown) => {
			// Made meanwhile by someone else: fine when it is a folder.
			if (systemErrorCode(error) !== 'EEXIST' || (await probe(folder)) !== 'directory') {
				throw error;
			}
		});
	}
}

/** Same, synchronously. */
export function makeDirectorySync(path: string): void {
	const missing: string[] = [];
	for (let at = resolve(path); ; at = dirname(at)) {
		const next = step(at, probeSync(at));
		if (next instanceof Error) {
			throw next;
		}

		if (next === 'done') {
			break;
		}

		missing.unshift(at);
	}

	for (const folder of missing) {
		try {
			mkdirSync(folder);
		} catch (error) {
			if (systemErrorCode(error) !== 'EEXIST' || probeSync(folder) !== 'directory') {
				throw error;
			}
		}
	}
}
