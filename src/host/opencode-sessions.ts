/**
@module opencode's sessions through its own CLI. opencode 1.x keeps them in SQLite (`opencode.db`),
which Node 20 cannot read without a native module: `opencode session list --format json` lists them
(id, title, created, updated, directory) and `opencode export <id>` prints one as the JSON document
the opencode reader takes (src/session/foreign/opencode-export.ts). The program is looked up on the
person's PATH and run with their environment (HOME and XDG_* say where its database is), each run
bounded in time (a hung opencode is named, never waited on for ever) and its process group killed
at the end of that time. Checked against opencode 1.18.33.
*/
import {spawn} from 'node:child_process';
import {createWriteStream} from 'node:fs';
import {access, constants, mkdtemp, rm, rmdir, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {delimiter, join} from 'node:path';
import {isJsonObject} from '../json/is-plain-record.js';
import {PRIVATE_FILE_MODE} from '../session/store/private-mode.js';

/** How long one run of opencode may take: it starts in about a second; a loaded machine gets thirty times that. */
export const OPENCODE_TIMEOUT_MS = 30_000;

/** What `session list` may print at most (a session is ~200 bytes of it). */
const MAX_LIST_BYTES = 16 * 1024 * 1024;

/** Stderr kept to say why a run failed. */
const MAX_STDERR_BYTES = 4096;

/** The LOG argument that names an opencode session: `opencode:ses_…` (as `sessions --all` lists it). */
export const OPENCODE_PREFIX = 'opencode:';

/** An id opencode gave (`ses_…`): letters, digits, `_` and `-`, never a flag. */
const SESSION_ID = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,199}$/;

/** A session as `opencode session list --format json` lists it. */
export type OpencodeSessionRow = {readonly id: string; readonly title?: string; readonly created?: number; readonly updated?: number; readonly directory?: string};

/** The `opencode` program on `env.PATH`, or undefined (no process is started). */
export async function opencodeProgram(env: NodeJS.ProcessEnv): Promise<string | undefined> {
	for (const directory of (env.PATH ?? '').split(delimiter).filter(directory => directory !== '')) {
		const path = join(directory, 'opencode');
		// eslint-disable-next-line no-await-in-loop -- the first one on PATH wins
		if (await access(path, constants.X_OK).then(() => true, () => false)) {
			return path;
		}
	}

	return undefined;
}

/** Whether opencode keeps data for this person (its data folder exists): then a missing CLI is worth a line. */
export async function opencodeDataExists(env: NodeJS.ProcessEnv, home: string): Promise<boolean> {
	const data = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(home, '.local', 'share');
	return stat(join(data, 'opencode')).then(info => info.isDirectory(), () => false);
}

/** The line `sessions --all` prints when opencode's data is there but its CLI is not. */
export const OPENCODE_CLI_NEEDED = 'cardterm: opencode sessions are listed through its CLI: put opencode on PATH to list them (or replay what `opencode export ID > FILE` writes)';

/** The sessions opencode lists whose folder is `cwd`, newest first. Throws an error naming opencode when it fails, prints something else or takes too long. */
export async function listOpencodeSessions(program: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = OPENCODE_TIMEOUT_MS): Promise<OpencodeSessionRow[]> {
	const chunks: Buffer[] = [];
	let size = 0;
	await runOpencode(program, ['session', 'list', '--format', 'json'], cwd, env, timeoutMs, stdout => {
		stdout.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_LIST_BYTES) {
				chunks.push(chunk);
			}
		});
	});
	if (size > MAX_LIST_BYTES) {
		throw new Error(`opencode session list printed over ${MAX_LIST_BYTES / 1024 / 1024} MiB`);
	}

	const text = Buffer.concat(chunks).toString('utf8').trim();
	let parsed: unknown;
	try {
		// An empty store prints nothing.
		parsed = text === '' ? [] : JSON.parse(text);
	} catch {
		throw new Error(`opencode session list printed something other than JSON: ${JSON.stringify(text.slice(0, 80))}`);
	}

	if (!Array.isArray(parsed)) {
		throw new Error('opencode session list printed JSON that is not a list of sessions');
	}

	const rows: OpencodeSessionRow[] = [];
	for (const item of parsed as unknown[]) {
		if (!isJsonObject(item) || typeof item.id !== 'string' || !SESSION_ID.test(item.id) || item.directory !== cwd) {
			continue;
		}

		rows.push({
			id: item.id,
			...(typeof item.title === 'string' ? {title: item.title} : {}),
			...(typeof item.created === 'number' ? {created: item.created} : {}),
			...(typeof item.updated === 'number' ? {updated: item.updated} : {}),
			directory: item.directory,
		});
	}

	return rows.sort((a, b) => (b.updated ?? b.created ?? 0) - (a.updated ?? a.created ?? 0));
}

/** An opencode session exported to a private file for the time of one command; `remove` deletes the copy (a page written beside it stays). */
export type ExportedOpencodeSession = {readonly path: string; remove(): Promise<void>};

/** `opencode export <id>` into a private file (a folder of its own, mode 0600), streamed: no size is held in memory. */
export async function exportOpencodeSession(program: string, id: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = OPENCODE_TIMEOUT_MS): Promise<ExportedOpencodeSession> {
	if (!SESSION_ID.test(id)) {
		throw new Error(`not an opencode session id: ${JSON.stringify(id.slice(0, 80))}`);
	}

	const folder = await mkdtemp(join(tmpdir(), 'cardterm-opencode-'));
	const path = join(folder, `${id}.json`);
	const remove = async (): Promise<void> => {
		await rm(path, {force: true});
		// The folder goes unless the pager's `x` wrote a page beside the copy.
		await rmdir(folder).catch(() => undefined);
	};

	try {
		const file = createWriteStream(path, {mode: PRIVATE_FILE_MODE});
		const written = new Promise<void>((resolve, reject) => {
			file.on('finish', resolve);
			file.on('error', reject);
		});
		// Awaited once opencode is done; a failed run throws first, and the file's error must not go unheard then.
		written.catch(() => undefined);
		await runOpencode(program, ['export', id], cwd, env, timeoutMs, stdout => {
			stdout.pipe(file);
		});
		await written;
		return {path, remove};
	} catch (error) {
		await remove();
		throw error;
	}
}

/** Runs opencode, hands its stdout to `read`, and settles when it exits: 0, or an error naming the command, its stderr's last line, or the timeout. */
async function runOpencode(program: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, read: (stdout: NodeJS.ReadableStream) => void): Promise<void> {
	const command = `opencode ${args.join(' ')}`;
	return new Promise((resolve, reject) => {
		// Its own process group: a timeout kills whatever it started too.
		const child = spawn(program, args, {cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true});
		let stderr = '';
		let timedOut = false;
		read(child.stdout);
		child.stderr.on('data', (chunk: Buffer) => {
			stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR_BYTES);
		});
		const timer = setTimeout(() => {
			timedOut = true;
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				child.kill('SIGKILL');
			}
		}, timeoutMs);
		child.on('error', error => {
			clearTimeout(timer);
			reject(new Error(`cannot run ${command}: ${error.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			if (timedOut) {
				reject(new Error(`${command} did not finish in ${timeoutMs / 1000} s (stopped)`));
			} else if (code === 0) {
				resolve();
			} else {
				// Its last line (escapes in it are stripped by the sink that prints the message).
				const said = stderr.trim().split('\n').at(-1)?.trim() ?? '';
				reject(new Error(`${command} failed (${signal ?? `exit ${code}`})${said === '' ? '' : `: ${said.slice(0, 200)}`}`));
			}
		});
	});
}
