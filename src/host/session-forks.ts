/**
@module `/fork` and `/rewind` of a session with a log (issue 20): the person's messages so far (what
`/rewind` offers), and a fork of the log before a message or at its end, written beside it as
`--fork` writes one (`fork-session.ts`). The session's own log is flushed and read, never changed.
*/
import {dirname} from 'node:path';
import type {SessionEvent} from '../session/events/events.js';
import {contentText, userMessageSource} from '../session/fold/entry-facts.js';
import {openSessionLog} from '../session/reader/read-session-log.js';
import {writeFork, type ForkSource} from '../session/store/fork-session.js';
import {newSessionId} from '../session/store/session-store.js';
import type {OpenedSession} from './open-session.js';

/** One of the person's messages: where it is in the log, and what it said. */
export type PersonMessage = {readonly seq: number; readonly text: string};

export type SessionForks = {
	/** The person's messages in the log, oldest first. */
	messages(): Promise<PersonMessage[]>;
	/** A fork holding the log's events before seq `before` (all of them without it); absent where the conversation cannot go on in one (an ACP agent's). */
	fork?(before?: number): Promise<ForkSource>;
};

/**
The forks of `session`, written in the folder that holds its own (the sessions folder); none without
a log. `conversation: false`: the messages only (an ACP agent keeps its conversation itself).
*/
export function sessionForks(session: Pick<OpenedSession, 'logPath' | 'flush'>, {conversation = true, now = Date.now}: {readonly conversation?: boolean; readonly now?: () => number} = {}): SessionForks | undefined {
	const {logPath} = session;
	if (logPath === undefined) {
		return undefined;
	}

	const read = async (): Promise<ForkSource> => {
		await session.flush();
		const log = await openSessionLog(logPath);
		const events: SessionEvent[] = [];
		for await (const event of log.events) {
			events.push(event);
		}

		return {path: logPath, header: log.header, events};
	};

	const messages = async (): Promise<PersonMessage[]> => {
		const {events} = await read();
		return events.flatMap(event => event.type === 'user/message' && userMessageSource(event.data).kind === 'user' ? [{seq: event.seq, text: contentText(event.data.content)}] : []);
	};

	if (!conversation) {
		return {messages};
	}

	return {
		messages,
		async fork(before) {
			const source = await read();
			const created = now();
			return writeFork({root: dirname(dirname(logPath)), id: newSessionId(created), now: created, source, ...(before === undefined ? {} : {before})});
		},
	};
}
