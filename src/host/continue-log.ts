/**
@module A session that continues a log: turns are numbered after the log's last one, and a turn the
log left open (the process died in it) is closed first, as crash repair does (§E3.5). The agent
must already listen to the session's events, so the repair is part of its conversation.
*/
import type {SessionEvent} from '../session/events/events.js';
import {lastTurnOf, openTailRepair} from '../session/recorder/open-tail-repair.js';
import type {OpenedSession} from './open-session.js';

export function continueLog(session: OpenedSession, history: readonly SessionEvent[]): void {
	session.runtime.continueAfterTurn(lastTurnOf(history));
	for (const draft of openTailRepair(history)) {
		session.log.emit(draft);
	}
}
