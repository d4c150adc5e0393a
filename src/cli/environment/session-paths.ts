/**
@module Where the command line keeps sessions and prompt history. The folder itself is the session
store's (`sessionsRoot`); a `--session-dir` flag is resolved against the working directory. A
session's id stands for its log wherever a LOG is asked for.
*/
import {createHash} from 'node:crypto';
import {stat} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {defaultSessionsRoot, sessionDirOf, sessionsRoot as storeRoot} from '../../session/store/session-store.js';

/** The folder that holds one folder per session: the flag, else `CARDTERM_SESSION_DIR`, else the per-user data directory. */
export function sessionsRoot(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
	const override = flag ?? env.CARDTERM_SESSION_DIR;
	return storeRoot(override === undefined || override === '' ? undefined : resolve(cwd, override));
}

/**
The prompt history file of a project (one per working directory), beside the sessions and never
outside a folder the user named: `<data dir>/history/` for the default sessions folder
(`<data dir>/sessions`), `DIR/.history/` for a `--session-dir`/`CARDTERM_SESSION_DIR` DIR.
*/
export function historyPath(root: string, cwd: string): string {
	return join(besideSessions(root, 'history'), `${projectKey(cwd)}.txt`);
}

/**
The shadow repository of a project (`/undo`'s snapshots of what commands changed), outside the
project and beside the sessions as the history is: `<data dir>/shadow/<key>/`, or `DIR/.shadow/<key>/`.
*/
export function shadowPath(root: string, cwd: string): string {
	return join(besideSessions(root, 'shadow'), projectKey(cwd));
}

function projectKey(cwd: string): string {
	return createHash('sha256').update(cwd).digest('hex').slice(0, 16);
}

/** A folder of the data directory beside the default sessions folder, or inside a folder the user named. */
function besideSessions(root: string, name: string): string {
	return resolve(root) === resolve(defaultSessionsRoot()) ? join(root, '..', name) : join(root, `.${name}`);
}

/**
A LOG argument (`replay LOG`, `watch LOG`): the path itself when something is there, else the
folder of the session of that id in `root` — the ids `cardterm sessions` prints and `--resume`
takes — when there is one; else the argument as given (the reader then names what is missing).
*/
export async function logOrSessionId(argument: string, root: string): Promise<string> {
	const exists = async (path: string): Promise<boolean> => stat(path).then(() => true, () => false);
	if (argument === '-' || await exists(argument)) {
		return argument;
	}

	const dir = sessionDirOf(root, argument);
	return dir !== undefined && await exists(dir) ? dir : argument;
}
