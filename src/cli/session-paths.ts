/**
@module Where the command line keeps sessions and prompt history. The folder itself is the session
store's (`sessionsRoot`); a `--session-dir` flag is resolved against the working directory.
*/
import {createHash} from 'node:crypto';
import {join, resolve} from 'node:path';
import {sessionsRoot as storeRoot} from '../session/session-store.js';

/** The folder that holds one folder per session: the flag, else `CARDTERM_SESSION_DIR`, else the per-user data directory. */
export function sessionsRoot(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
	const override = flag ?? env.CARDTERM_SESSION_DIR;
	return storeRoot(override === undefined || override === '' ? undefined : resolve(cwd, override));
}

/** The prompt history file of a project (one per working directory). */
export function historyPath(root: string, cwd: string): string {
	const key = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
	return join(root, '..', 'history', `${key}.txt`);
}
