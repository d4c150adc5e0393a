/**
@module Crash repair of a log whose last turn never ended (contract.md §E3.5), for a
session that resumes it: a `tool/result` for each call without one (`TOOL_OUTCOME_UNKNOWN`, its
`sourceEventSeqs` naming the call), `step/end` if a step is open, and `turn/end` `interrupted`.
A display-only replay never repairs; only the writer that continues the log does.
*/
import type {EventDraft} from '../events/event-log.js';
import type {SessionEvent} from '../events/events.js';

/** The model-facing text of a call whose outcome the log lost. */
const OUTCOME_UNKNOWN_TEXT = 'Error: the outcome of this tool call is unknown: the session stopped after the call started and before its result was recorded. It may or may not have taken effect; check before repeating it.';

/** What to append so the log's last turn is closed; empty when it is. */
export function openTailRepair(events: readonly SessionEvent[]): EventDraft[] {
	let turn: number | undefined;
	let step: number | undefined;
	const open = new Map<string, {seq: number; step?: number}>();
	for (const event of events) {
		switch (event.type) {
			case 'turn/start': {
				turn = event.data.turn;
				step = undefined;
				open.clear();
				break;
			}

			case 'step/start': {
				step = event.data.step;
				break;
			}

			case 'step/end': {
				step = undefined;
				break;
			}

			case 'turn/end': {
				turn = undefined;
				step = undefined;
				open.clear();
				break;
			}

			case 'tool/call': {
				open.set(event.data.callId, {seq: event.seq, ...(event.data.step === undefined ? {} : {step: event.data.step})});
				break;
			}

			case 'tool/result': {
				open.delete(event.data.message.source.callId);
				break;
			}

			default: {
				break;
			}
		}
	}

	if (turn === undefined) {
		return [];
	}

	const drafts: EventDraft[] = [];
	for (const [callId, call] of open) {
		drafts.push({
			type: 'tool/result',
			data: {
				turn,
				...(call.step === undefined ? {} : {step: call.step}),
				message: {id: `r-repair-${call.seq}`, role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content: [{type: 'text', text: OUTCOME_UNKNOWN_TEXT}], isError: true}]},
				error: {name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN'},
			},
			sourceEventSeqs: [call.seq],
			surfaceOp: 'append',
		});
	}

	if (step !== undefined) {
		drafts.push({type: 'step/end', data: {turn, step}});
	}

	drafts.push({type: 'turn/end', data: {turn, reason: {kind: 'interrupted'}}});
	return drafts;
}

/** The highest turn number the events name (0 when none). */
export function lastTurnOf(events: readonly SessionEvent[]): number {
	let last = 0;
	for (const event of events) {
		if (event.type === 'turn/start' && event.data.turn > last) {
			last = event.data.turn;
		}
	}

	return last;
}
