/**
@module `--continue` (the newest session of this directory) and `--resume ID`: which log a session
continues, read back whole so the agent can rebuild its conversation. A log with damaged lines is
not continued (appending after damage would bury it); notes (seq gaps of another producer) are fine,
and so is a torn tail — a last line a killed writer never finished: those bytes were never
acknowledged, the writer drops them when it reopens the log, and `onNotice` says so. An ID is a
session folder's name, never a path, and a session goes on only in the directory it was recorded in:
its calls and its conversation are about that directory's files.
*/
import {access} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import type {ContinuedLog} from '../../host/open-native-session.js';
import type {SessionEvent} from '../../session/events/events.js';
import {formatDiagnostic, isNote} from '../../session/reader/log-errors.js';
import {openSessionLog} from '../../session/reader/read-session-log.js';
import {sessionDirOf} from '../../session/store/session-store.js';
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
	/** Told what was dropped from the log's end before it is continued (one line). */
	readonly onNotice: (message: string) => void | Promise<void>;
}): Promise<ResumedLog | undefined> {
	let path: string;
	if (options.resumeId !== undefined) {
		const root = sessionsRoot(options.sessionDir, options.env, options.cwd);
		const dir = sessionDirOf(root, options.resumeId);
		if (dir === undefined) {
			throw new UsageError(`--resume: ${options.resumeId} is not a session id (the name of a session's folder in ${root}; see cardterm sessions)`);
		}

		path = join(dir, 'session.jsonl');
		if (!await access(path).then(() => true, () => false)) {
			throw new UsageError(`--resume: no session ${options.resumeId} in ${root} (see cardterm sessions)`);
		}
	} else if (options.continueFlag) {
		const {newestSessionLog} = await import('../commands/sessions-command.js');
		path = await newestSessionLog(options.cwd, options.sessionDir);
	} else {
		return undefined;
	}

	const resumed = await readWholeLog(path, 'continue', options.onNotice);
	// A session continues only where it was recorded: its calls and conversation are about that directory's files.
	const recordedIn = resumed.header.cwd;
	if (recordedIn !== undefined && resolve(recordedIn) !== resolve(options.cwd)) {
		throw new UsageError(`--resume: session ${resumed.header.id} was recorded in ${recordedIn}, not in ${options.cwd}; continue it there: cardterm --cwd ${recordedIn} --resume ${resumed.header.id}`);
	}

	return resumed;
}

/**
The log at `path` read whole; a damaged line refuses it (`what`: continue, fork). A torn tail (a line
a killed writer never finished, so never acknowledged) is dropped, and `onNotice` told.
*/
export async function readWholeLog(path: string, what: string, onNotice?: (message: string) => void | Promise<void>): Promise<ResumedLog> {
	const log = await openSessionLog(path);
	const events: SessionEvent[] = [];
	for await (const event of log.events) {
		events.push(event);
	}

	const torn = log.diagnostics.filter(diagnostic => diagnostic.kind === 'torn-tail');
	const damage = log.diagnostics.filter(diagnostic => !isNote(diagnostic.kind) && diagnostic.kind !== 'torn-tail');
	if (damage.length > 0) {
		throw Object.assign(new Error(`cannot ${what} ${path}: ${formatDiagnostic(damage[0]!)}`), {exitCode: 65});
	}

	for (const diagnostic of torn) {
		// eslint-disable-next-line no-await-in-loop -- one at most
		await onNotice?.(`${formatDiagnostic(diagnostic)}: dropped; the session goes on from the line before`);
	}

	return {path, header: log.header, events};
}
