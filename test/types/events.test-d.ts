import {describe, expectTypeOf, it} from 'vitest';
import type {EventDraft} from '../../src/session/events/event-log.js';
import type {EventFields, SessionEvent, ToolCallData, ToolResultData, UserMessageData} from '../../src/session/events/events.js';

declare const event: SessionEvent;
declare function emit(draft: EventDraft): void;

describe('SessionEvent', () => {
	it('narrows data by type, the branded arm never standing in for an arm\'s type', () => {
		if (event.type === 'tool/call') {
			expectTypeOf(event.data).toEqualTypeOf<ToolCallData>();
		}

		switch (event.type) {
			case 'tool/result': {
				expectTypeOf(event.data).toEqualTypeOf<ToolResultData>();
				expectTypeOf(event.data.message.source.callId).toEqualTypeOf<string>();
				break;
			}

			case 'user/message':
			case 'steering/message': {
				expectTypeOf(event.data).toEqualTypeOf<UserMessageData>();
				break;
			}

			case 'turn/end': {
				expectTypeOf(event.data.turn).toEqualTypeOf<number>();
				break;
			}

			case 'acp/commands': {
				expectTypeOf(event.data).toEqualTypeOf<EventFields>();
				break;
			}

			default: {
				// A notice, a request header, an ignorable type of a newer producer: fields only.
				expectTypeOf(event.type).toExtend<string>();
				break;
			}
		}
	});

	it('does not compare with a type that has no arm (declare one instead)', () => {
		// @ts-expect-error `plan/mode` has no arm: its events are `OtherEvent`s, read through `noticeFacts`
		expectTypeOf(event.type === 'plan/mode').toEqualTypeOf<boolean>();
	});
});

describe('EventDraft', () => {
	it('takes what the reader accepts', () => {
		emit({type: 'tool/call', data: {turn: 1, step: 1, callId: 'c', name: 'bash', arguments: '{}'}});
		emit({type: 'cardterm/tool-progress', data: {callId: 'c', stream: 'stdout', text: 'x'}, ignorable: true});
		emit({type: 'acp/notice', data: {text: 'hi'}, ignorable: true});
		emit({type: 'user/message', data: {id: 'u-1', role: 'user', content: [{type: 'text', text: 'hi'}], source: {kind: 'user'}}, surfaceOp: 'append'});
		emit({type: 'tool/result', data: {message: {source: {callId: 'c'}, content: []}}, surfaceOp: {op: 'replace', start: 3, end: 3}});
	});

	it('refuses what the reader would skip', () => {
		// @ts-expect-error a call id is a string
		emit({type: 'tool/call', data: {callId: 1, name: 'bash', arguments: '{}'}});
		// @ts-expect-error a step's end names its turn
		emit({type: 'step/end', data: {step: 1}});
		// @ts-expect-error a result's message names its call
		emit({type: 'tool/result', data: {message: {content: []}}});
		// @ts-expect-error a type without an arm cannot be written
		emit({type: 'made/up', data: {}});
		// @ts-expect-error live output is written ignorable (an older reader skips it)
		emit({type: 'cardterm/tool-progress', data: {callId: 'c', text: 'x'}});
		// @ts-expect-error a replacement names its range
		emit({type: 'user/message', data: {content: []}, surfaceOp: {op: 'replace'}});
	});
});
