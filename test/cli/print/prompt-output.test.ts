/**
Where `-p` sends each entry (issue 16 item 12): the answer — the last message of a turn that
completed — to stdout, everything else to stderr, in the transcript's order.
*/
import {describe, expect, it} from 'vitest';
import {AnswerSplit} from '../../../src/cli/print/prompt-output.js';
import type {AssistantEntry, TranscriptEntry} from '../../../src/presentation/entry.js';
import {asEntries} from '../../../src/presentation/entry.js';
import {inState, KINDS} from '../../layout/fixtures.js';

const base = {seq: 1, time: 0, revision: 0};
const user = (text: string): TranscriptEntry => ({entry: 'user', ...base, source: 'user', text});
const said = (text: string, more: Partial<AssistantEntry> = {}): AssistantEntry => ({entry: 'assistant', ...base, text, reasoning: '', interrupted: false, streaming: false, preparing: [], ...more});
const turn = (text: string): TranscriptEntry => ({entry: 'turn', ...base, turn: 1, outcome: {text, failed: text !== 'completed'}});
const notice = (summary: string): TranscriptEntry => ({entry: 'notice', ...base, source: 'title', summary});
const card = asEntries([inState(KINDS.read, 'ok')])[0]!;

/** Feeds `entries` and finishes; returns what each side got, named. */
function split(entries: readonly TranscriptEntry[], completed: boolean): {answer: string[]; transcript: string[]} {
	const answer: string[] = [];
	const transcript: string[] = [];
	const name = (entry: TranscriptEntry): string => {
		switch (entry.entry) {
			case 'assistant': {
				return entry.text === '' ? `reasoning ${entry.reasoning}` : `assistant ${entry.text}${entry.reasoning === '' ? '' : ` (reasoning ${entry.reasoning})`}`;
			}

			case 'user': {
				return `user ${entry.text}`;
			}

			case 'turn': {
				return `turn ${entry.outcome.text}`;
			}

			case 'notice': {
				return `notice ${entry.summary}`;
			}

			default: {
				return entry.entry;
			}
		}
	};

	const router = new AnswerSplit({answer: entry => answer.push(name(entry)), transcript: entry => transcript.push(name(entry))});
	for (const entry of entries) {
		router.add(entry);
	}

	router.finish(completed);
	return {answer, transcript};
}

describe('AnswerSplit', () => {
	it('sends the last message of a completed turn to the answer, the rest to the transcript in order', () => {
		expect(split([user('fix it'), said('I will read it first.'), card, said('Fixed.'), notice('a title'), turn('completed')], true)).toEqual({
			answer: ['assistant Fixed.'],
			transcript: ['user fix it', 'assistant I will read it first.', 'card', 'notice a title', 'turn completed'],
		});
	});

	it('keeps the answer\'s reasoning row in the transcript, before it', () => {
		expect(split([user('q'), said('A.', {reasoning: 'thinking'}), turn('completed')], true)).toEqual({answer: ['assistant A.'], transcript: ['user q', 'reasoning thinking', 'turn completed']});
	});

	it('has no answer when the turn did not complete, or ended with a call, or the message was cut', () => {
		const failed = split([user('q'), said('Partial.'), turn('error: boom')], false);
		expect(failed).toEqual({answer: [], transcript: ['user q', 'assistant Partial.', 'turn error: boom']});
		expect(split([user('q'), said('Calling.'), card, turn('completed')], true).answer).toEqual([]);
		expect(split([user('q'), said('Cut', {interrupted: true}), turn('completed')], true).answer).toEqual([]);
		expect(split([user('q'), said('Still', {streaming: true})], true).answer).toEqual([]);
	});

	it('takes the answer from the last turn only (acp -p --resume prints a loaded history first)', () => {
		expect(split([user('old question'), said('Old answer.'), turn('completed'), user('new question'), said('New answer.'), turn('completed')], true)).toEqual({
			answer: ['assistant New answer.'],
			transcript: ['user old question', 'assistant Old answer.', 'turn completed', 'user new question', 'turn completed'],
		});
	});
});
