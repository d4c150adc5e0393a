import type {SessionEvent} from '../../src/session/events.js';

/** Builds a contiguous event stream the way a producer writes it. */
export class EventScript {
	readonly events: SessionEvent[] = [];
	#time = 1_790_000_000_000;

	push(type: string, data: unknown, extra: Record<string, unknown> = {}): SessionEvent {
		const event = {type, seq: this.events.length, time: this.#time++, data, ...extra} as SessionEvent;
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
