/**
@module Where sessions live: one folder per session under a per-user data directory (XDG data
home via env-paths), overridable with `--session-dir` or `CARDTERM_SESSION_DIR`.
*/
import {createHash} from 'node:crypto';
import {join, resolve} from 'node:path';
import envPaths from 'env-paths';

/** The folder that holds one folder per session. */
export function sessionsRoot(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
	if (flag !== undefined) {
		return resolve(cwd, flag);
	}

	if (env.CARDTERM_SESSION_DIR !== undefined && env.CARDTERM_SESSION_DIR !== '') {
		return resolve(cwd, env.CARDTERM_SESSION_DIR);
	}

	return join(envPaths('cardterm', {suffix: ''}).data, 'sessions');
}

/** The prompt history file of a project (one per working directory). */
export function historyPath(root: string, cwd: string): string {
	const key = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
	return join(root, '..', 'history', `${key}.txt`);
}
