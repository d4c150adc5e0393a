/**
@module `cardterm acp --resume` without an id: the agent's session id of the newest ACP session
recorded in this folder (its log's `acp/session` event), started with the same agent command when
the log names one. Only the command's file name is recorded and compared: an agent's arguments may
hold what does not belong in a log.
*/
import {basename} from 'node:path';
import {openSessionLog} from '../../session/reader/read-session-log.js';
import {listSessions} from '../../session/store/session-store.js';

/** What a log's `acp/session` event says about the agent's session. */
type AcpSessionFact = {readonly sessionId: string; readonly command?: string};

async function acpSessionOf(path: string): Promise<AcpSessionFact | undefined> {
	const log = await openSessionLog(path);
	for await (const event of log.events) {
		if (event.type === 'acp/session') {
			const data = event.data as {sessionId?: unknown; command?: unknown};
			// The first one is the session the agent opened (a log records one).
			return typeof data.sessionId === 'string' ? {sessionId: data.sessionId, ...(typeof data.command === 'string' ? {command: data.command} : {})} : undefined;
		}
	}

	return undefined;
}

/** The name `acp/session` records for an agent command. */
export function agentCommandName(command: string): string {
	return basename(command);
}

/** The newest ACP session of `cwd` under `root` for `command`: its log and the agent's session id; undefined when there is none. */
export async function newestAcpSession(root: string, cwd: string, command: string): Promise<{readonly sessionId: string; readonly path: string} | undefined> {
	const name = agentCommandName(command);
	for (const summary of await listSessions(root, {counts: false})) {
		if (summary.cwd !== cwd) {
			continue;
		}

		// One unreadable log does not hide an older good one.
		// eslint-disable-next-line no-await-in-loop
		const fact = await acpSessionOf(summary.path).catch(() => undefined);
		if (fact !== undefined && (fact.command === undefined || fact.command === name)) {
			return {sessionId: fact.sessionId, path: summary.path};
		}
	}

	return undefined;
}
