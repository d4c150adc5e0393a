/**
@module What a live session says about its log when it ends: what is on disk, not what went wrong
on the way (a disk that filled up and recovered left a complete log).
*/
import {assertNever} from '../presentation/assert-never.js';
import type {OpenedSession} from './open-session.js';

/** The log at the end of a session. */
export type LogOutcome =
	| {readonly kind: 'saved'; readonly path: string; readonly events: number}
	| {readonly kind: 'incomplete'; readonly path: string; readonly unwritten: number}
	/** No log file was ever opened (an unusable session folder): `reason` says why. */
	| {readonly kind: 'not-saved'; readonly reason: string};

/** What `session`'s log holds now; `reason` says why there is none when no log was opened. */
export function logOutcomeOf(session: Pick<OpenedSession, 'logState'>, reason: string): LogOutcome {
	const state = session.logState();
	if (state === undefined) {
		return {kind: 'not-saved', reason};
	}

	return state.unwritten > 0 ? {kind: 'incomplete', path: state.path, unwritten: state.unwritten} : {kind: 'saved', path: state.path, events: state.written};
}

function events(count: number): string {
	return `${count} ${count === 1 ? 'event' : 'events'}`;
}

/** The closing line, e.g. `session saved: PATH (12 events)`. */
export function logOutcomeMessage(outcome: LogOutcome): string {
	switch (outcome.kind) {
		case 'saved': {
			return `session saved: ${outcome.path} (${events(outcome.events)})`;
		}

		case 'incomplete': {
			return `session log incomplete: ${events(outcome.unwritten)} not written, ${outcome.path}`;
		}

		case 'not-saved': {
			return `session log not saved: ${outcome.reason}`;
		}

		default: {
			return assertNever(outcome, 'logOutcomeMessage');
		}
	}
}
