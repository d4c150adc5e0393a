/**
@module Entries other than cards, built from the event the pairing anchored them on. Pure.
*/
import type {AssistantEntry, NoticeEntry, TodoEntry, TurnEntry, UserEntry} from '../presentation/entry.js';
import {assistantFacts, contentText, noticeFacts, oneRow, pluginNotice, todoItems, turnOutcome, userMessageSource} from './entry-facts.js';
import type {StreamText} from './chunk-facts.js';
import type {MessageKind, OpenStream, TurnFacts} from './entry-pairing.js';
import type {SessionEvent} from './events.js';

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);

export type MessageEntry = UserEntry | AssistantEntry | TurnEntry | NoticeEntry | TodoEntry;

/** The entry `event` anchors, of the kind the pairing decided. */
export function composeEntry(kind: MessageKind, event: SessionEvent, turn?: TurnFacts<unknown>): MessageEntry {
	const data: unknown = event.data;
	const fields = isRecord(data) ? data : {};
	const base = {seq: event.seq, time: event.time, revision: 0};
	switch (kind) {
		case 'user': {
			return {entry: 'user', ...base, source: event.type === 'steering/message' ? 'steering' : 'user', text: contentText(fields.content)};
		}

		case 'assistant': {
			const facts = assistantFacts(data);
			return {
				entry: 'assistant',
				...base,
				...(isInt(fields.turn) ? {turn: fields.turn} : {}),
				...(isInt(fields.step) ? {step: fields.step} : {}),
				text: facts.text,
				reasoning: facts.reasoning,
				interrupted: facts.interrupted,
				streaming: false,
				preparing: [],
			};
		}

		case 'turn': {
			const durationMs = turn?.startTime === undefined ? undefined : Math.max(0, event.time - turn.startTime);
			return {
				entry: 'turn',
				...base,
				turn: isInt(fields.turn) ? fields.turn : 0,
				outcome: turnOutcome(fields.reason),
				...(durationMs === undefined ? {} : {durationMs}),
				...(turn?.usage === undefined ? {} : {usage: turn.usage}),
			};
		}

		case 'notice': {
			const from = userMessageSource(data);
			const facts = event.type === 'user/message' && from.kind === 'notice' ? pluginNotice(from.source, data) : noticeFacts(event.type, data);
			const {source, summary, detail} = facts ?? {source: event.type, summary: event.type};
			// One-row fields stay bounded whatever the log holds; the detail keeps the text.
			return {entry: 'notice', ...base, source: oneRow(source), summary: oneRow(summary), ...(detail === undefined ? {} : {detail})};
		}

		case 'todo': {
			return {entry: 'todo', ...base, items: todoItems(data) ?? []};
		}
	}
}

/** The open tail entry of a stream: the text and reasoning so far (while they stream) and its `preparing` rows. */
export function composeStreamEntry(stream: OpenStream<unknown>, text: StreamText): AssistantEntry {
	return {
		entry: 'assistant',
		seq: stream.seq,
		time: stream.time,
		turn: stream.turn,
		step: stream.step,
		text: stream.textOpen ? text.text : '',
		reasoning: stream.textOpen ? text.reasoning : '',
		interrupted: false,
		streaming: true,
		// A call whose deltas never named it is still a call being prepared.
		preparing: stream.preparing.map(name => name ?? 'tool'),
		revision: stream.revision,
	};
}

/** The entry a stream leaves when its step closes without a message: what arrived, interrupted (§3.4). */
export function composeClosedStream(event: SessionEvent, stream: {readonly turn: number; readonly step: number}, text: StreamText, revision: number): AssistantEntry {
	return {
		entry: 'assistant',
		seq: event.seq,
		time: event.time,
		turn: stream.turn,
		step: stream.step,
		text: text.text,
		reasoning: text.reasoning,
		interrupted: true,
		streaming: false,
		preparing: [],
		revision,
	};
}
