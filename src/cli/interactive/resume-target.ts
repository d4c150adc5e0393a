/**
@module `--continue` (the newest session of this directory) and `--resume ID`: which log a session
continues, read back whole so the agent can rebuild its conversation. A log with damaged lines is
not continued (appending after damage would bury it); notes (seq gaps of another producer) are fine.
*/
import {access} from 'node:fs/promises';
import {join} from 'node:path';
import type {ContinuedLog} from '../../host/open-native-session.js';
import type {SessionEvent} from '../../session/events/events.js';
import {formatDiagnostic, isNote} from '../../session/reader/log-errors.js';
import {openSessionLog} from '../../session/reader/read-session-log.js';
import {UsageError} from '../environment/parse-args.js';
import {sessionsRoot} from '../environment/session-paths.js';

/** The log a session continues: its path, header and events (the host opens the session on it). */
export type ResumedLog = ContinuedLog;

export async function resumeTarget(options: {
	readonly continueFlag: boolean;
	readonly resumeId?: string;
	readonly sessionDir?: string;
	readonly env: NodeJS.ProcessEnv;
	readonly cwd: string;
}): Promise<ResumedLog | undefined> {
	let path: string;
	if (options.resumeId !== undefined) {
		const root = sessionsRoot(options.sessionDir, options.env, options.cwd);
		path = join(root, options.resumeId, 'session.jsonl');
		if (!await access(path).then(() => true, () => false)) {
			throw new UsageError(`--resume: no session ${options.resumeId} in ${root} (see cardterm sessions)`);
		}
	} else if (options.continueFlag) {
		const {newestSessionLog} = await import('../commands/sessions-command.js');
		path = await newestSessionLog(options.cwd, options.sessionDir);
	} else {
		return undefined;
	}

	return readWholeLog(path, 'continue');
}

/** The log at `path` read whole; a damaged line refuses it (`what`: continue, fork). */
export async function readWholeLog(path: string, what: string): Promise<ResumedLog> {
	const log = await openSessionLog(path);
	const events: SessionEvent[] = [];
	for await (const event of log.events) {
		events.push(event);
	}

	const damage = log.diagnostics.filter(diagnostic => !isNote(diagnostic.kind));
	if (damage.length > 0) {
		throw Object.assign(new Error(`cannot ${what} ${path}: ${formatDiagnostic(damage[0]!)}`), {exitCode: 65});
	}

	return {path, header: log.header, events};
}
