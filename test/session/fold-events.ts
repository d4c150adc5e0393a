import {LogEventDecoder} from '../../src/session/reader/event-decoder.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import type {LogDiagnostic} from '../../src/session/reader/log-errors.js';

/**
The event the log reader makes of a line holding `fields` (older shapes lifted, the payload checked):
what a fold is fed. Throws with the reader's diagnostic when it would skip the line.
*/
export function readEvent(fields: {readonly type: string; readonly seq: number; readonly time: number; readonly data: unknown; readonly [key: string]: unknown}): SessionEvent {
	const diagnostics: LogDiagnostic[] = [];
	// A seq gap is no reason to refuse the event here: a test picks its seqs.
	const events = new LogEventDecoder('<test>', diagnostic => diagnostic.kind === 'seq-gap' || diagnostics.push(diagnostic)).decode(JSON.stringify(fields), 2);
	if (events.length !== 1) {
		throw new Error(`the reader skips ${JSON.stringify(fields)}: ${diagnostics.map(diagnostic => diagnostic.reason).join('; ')}`);
	}

	return events[0]!;
}

/** Builds a contiguous event stream the way a producer writes it, each event as the reader reads it. */
export class EventScript {
	readonly events: SessionEvent[] = [];
	#time = 1_790_000_000_000;

	push(type: string, data: unknown, extra: Record<string, unknown> = {}): SessionEvent {
		const event = readEvent({type, seq: this.events.length, time: this.#time++, data, ...extra});
		this.events.push(event);
		return event;
	}

	call(callId: string, name: string, args: unknown, where: {turn?: number; step?: number} = {turn: 1, step: 1}): SessionEvent {
		return this.push('tool/call', {...where, callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args)});
	}

	result(callId: string, text: string, options: {isError?: boolean; error?: {name: string; code: string}; meta?: unknown; surfaceOp?: unknown} = {}): SessionEvent {
		const data: Record<string, unknown> = {
			turn: 1,
			step: 1,
			message: {role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content: [{type: 'text', text}], isError: options.isError ?? false}]},
		};
		if (options.error) {
			data.error = options.error;
		}

		if ('meta' in options) {
			data.meta = options.meta;
		}

		return this.push('tool/result', data, {surfaceOp: options.surfaceOp ?? 'append'});
	}
}
