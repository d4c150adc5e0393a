/**
@module Where the command line keeps sessions and prompt history. The folder itself is the session
store's (`sessionsRoot`); a `--session-dir` flag is resolved against the working directory.
*/
import {createHash} from 'node:crypto';
import {join, resolve} from 'node:path';
import {defaultSessionsRoot, sessionsRoot as storeRoot} from '../../session/store/session-store.js';

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
	const key = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
	const folder = resolve(root) === resolve(defaultSessionsRoot()) ? join(root, '..', 'history') : join(root, '.history');
	return join(folder, `${key}.txt`);
}
