/**
@module Shift+Tab and `/mode` in a native session: cardterm's own modes (`src/host/session-mode.ts`).
Entering bypass mode from the key asks once for a confirmation (a stray key press must not turn
every question off); `/mode bypass`, typed out, and `--yolo` need none.
*/
import type {OpenedSession} from '../host/open-session.js';
import {modeLabel, parseMode, SESSION_MODES} from '../host/session-mode.js';
import type {DriverModes} from './session-driver.js';

/** The question the key's first switch into bypass mode asks. */
const BYPASS_QUESTION = 'every call of the agent runs without asking (writes, edits and commands, anywhere); Shift+Tab or /mode leaves it';

export function nativeModes(session: Pick<OpenedSession, 'mode' | 'approvals'>): DriverModes {
	let confirmed = session.mode.current === 'bypass';
	let asking = false;
	return {
		available: () => SESSION_MODES.map(id => ({id, label: modeLabel(id)})),
		current: () => session.mode.current,
		async set(id, by) {
			const mode = parseMode(id);
			if (mode === undefined) {
				return `no mode "${id}": the modes are ${SESSION_MODES.join(', ')}`;
			}

			if (mode === 'bypass' && by === 'key' && !confirmed) {
				if (asking) {
					return undefined;
				}

				asking = true;
				try {
					const reply = await session.approvals.ask({request: {id: 'mode-bypass', toolName: 'bypass mode', callId: 'mode-bypass', reason: BYPASS_QUESTION, choices: [
						{label: 'Yes, enter bypass mode', answer: 'allowed-once'},
						{label: 'No, back to ask mode', answer: 'rejected'},
					], escapes: 'goes back to ask mode'}});
					if (reply?.answer !== 'allowed-once') {
						session.mode.set('ask', by);
						return 'bypass mode not entered: back to ask mode';
					}
				} finally {
					asking = false;
				}

				confirmed = true;
			}

			session.mode.set(mode, by);
			return undefined;
		},
	};
}
