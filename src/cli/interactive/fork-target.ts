/**
@module `--fork SESSION[@ENTRY]`: a new session from a point of a saved one (issue 20). SESSION is a
session id of the sessions folder or the path of a log (another producer's too); ENTRY is the seq the
fork stops before (the pager and `replay --json` show seqs), the whole log without it. The fork is
written beside the other sessions and then continued as `--resume` continues a session.
*/
import {access} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {writeFork} from '../../session/store/fork-session.js';
import {newSessionId} from '../../session/store/session-store.js';
import {UsageError} from '../environment/parse-args.js';
import {sessionsRoot} from '../environment/session-paths.js';
import {readWholeLog, type ResumedLog} from './resume-target.js';

const exists = async (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/** `SESSION[@ENTRY]` split: the session, and the seq when the word ends in `@digits`. */
export function forkWords(text: string): {readonly session: string; readonly entry?: number} {
	const at = /^(.+)@(\d{1,15})$/.exec(text);
	return at === null ? {session: text} : {session: at[1]!, entry: Number(at[2])};
}

export async function forkTarget(options: {readonly fork: string; readonly sessionDir?: string; readonly env: NodeJS.ProcessEnv; readonly cwd: string; readonly now?: number}): Promise<ResumedLog> {
	const {session, entry} = forkWords(options.fork);
	const root = sessionsRoot(options.sessionDir, options.env, options.cwd);
	const asId = join(root, session, 'session.jsonl');
	const path = await exists(asId) ? asId : resolve(options.cwd, session);
	if (!await exists(path)) {
		throw new UsageError(`--fork: no session ${session} in ${root}, and no log file ${path} (see cardterm sessions)`);
	}

	const source = await readWholeLog(path, 'fork');
	if (entry !== undefined && !source.events.some(event => event.seq >= entry)) {
		throw new UsageError(`--fork: ${session} has no entry ${entry} (its last seq is ${source.events.at(-1)?.seq ?? 'none'})`);
	}

	const now = options.now ?? Date.now();
	return writeFork({root, id: newSessionId(now), now, source, ...(entry === undefined ? {} : {before: entry})});
}
