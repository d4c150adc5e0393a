/**
@module What the interactive session says about its log when it ends: what is on disk, not what
went wrong on the way (a disk that filled up and recovered left a complete log).
*/

/** The log at the end of a session. */
export type LogOutcome =
	| {readonly kind: 'saved'; readonly path: string; readonly events: number}
	| {readonly kind: 'incomplete'; readonly path: string; readonly unwritten: number}
	/** No log file was ever opened (an unusable session folder): `reason` says why. */
	| {readonly kind: 'not-saved'; readonly reason: string};

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
			return outcome satisfies never;
		}
	}
}
