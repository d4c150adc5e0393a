/**
@module Entries other than cards, built from the event the pairing anchored them on. Pure.
*/
import type {AssistantEntry, CompactionEntry, NoticeEntry, TodoEntry, TurnEntry, UserEntry} from '../../presentation/entry.js';
import {compactionEntry} from './compaction-facts.js';
import {promptReferencesOf} from '../../presentation/prompt-reference.js';
import {assistantFacts, noticeFacts, shownUserMessage, oneRow, pluginNotice, turnOutcome, userMessageSource} from './entry-facts.js';
import type {StreamText} from './chunk-facts.js';
import type {MessageKind, OpenStream, TurnFacts} from './entry-pairing.js';
import type {SessionEvent} from '../events/events.js';

export type MessageEntry = UserEntry | AssistantEntry | TurnEntry | NoticeEntry | TodoEntry | CompactionEntry;

/** The entry `event` anchors, of the kind the pairing decided (a `user/message` is the person's, or a plugin's notice). */
export function composeEntry(kind: MessageKind, event: SessionEvent, turn?: TurnFacts<unknown>): MessageEntry {
	const base = {seq: event.seq, time: event.time, revision: 0};
	switch (event.type) {
		case 'user/message':
		case 'steering/message': {
			if (kind === 'notice') {
				return notice(event);
			}

			const references = promptReferencesOf(event.data.references);
			const {text, images} = shownUserMessage(event.data.content);
			return {entry: 'user', ...base, source: event.type === 'steering/message' ? 'steering' : 'user', text, ...(references.length === 0 ? {} : {references}), ...(images.length === 0 ? {} : {images})};
		}

		case 'assistant/message': {
			const {data} = event;
			const facts = assistantFacts(data);
			return {
				entry: 'assistant',
				...base,
				...(data.turn === undefined ? {} : {turn: data.turn}),
				...(data.step === undefined ? {} : {step: data.step}),
				text: facts.text,
				reasoning: facts.reasoning,
				interrupted: facts.interrupted,
				streaming: false,
				preparing: [],
			};
		}

		case 'turn/end': {
			const durationMs = turn?.startTime === undefined ? undefined : Math.max(0, event.time - turn.startTime);
			return {
				entry: 'turn',
				...base,
				turn: event.data.turn,
				outcome: turnOutcome(event.data.reason),
				...(durationMs === undefined ? {} : {durationMs}),
				...(turn?.usage === undefined ? {} : {usage: turn.usage}),
			};
		}

		case 'todo/write': {
			return {entry: 'todo', ...base, items: event.data.todos};
		}

		case 'compaction/summary':
		case 'compaction/end': {
			return compactionEntry(event);
		}

		default: {
			return notice(event);
		}
	}
}

/** A notice: a plugin's message, or an event worded from its fields. */
function notice(event: SessionEvent): NoticeEntry {
	const from = event.type === 'user/message' ? userMessageSource(event.data) : undefined;
	const facts = event.type === 'user/message' && from?.kind === 'notice' ? pluginNotice(from.source, event.data) : noticeFacts(event.type, event.data);
	const {source, summary, detail} = facts ?? {source: event.type, summary: event.type};
	// One-row fields stay bounded whatever the log holds; the detail keeps the text.
	return {entry: 'notice', seq: event.seq, time: event.time, revision: 0, source: oneRow(source), summary: oneRow(summary), ...(detail === undefined ? {} : {detail})};
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

/** The entry a stream leaves when its step closes without a message: what arrived, interrupted (§E3.4). */
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
