/**
@module How a model's answer without tool calls ends the turn: a normal completion only when the
model said something and stopped as it meant to. Everything else ends the turn with a reason that
says what happened, so its rule in every view and `-p`'s exit code tell it from a completion:

- a refusal — Anthropic's `refusal` stop reason with its explanation (fixture
  `anthropic/anthropic-refusal`), OpenAI's `refusal` deltas (fixture `openai/openai-node-refusal`,
  which the SDK reports as a content filter whose raw reason is `stop`);
- a content filter (OpenAI's and Azure's `content_filter`) or a safety, recitation or blocklist stop
  (Gemini's `SAFETY`, `RECITATION`, …, or a blocked prompt);
- a malformed function call (Gemini's `MALFORMED_FUNCTION_CALL`);
- the output limit (`length`; fixture `openai/deepseek-text-length`), or cardterm's bound for one
  step, which cuts an answer that never ends (`answerLimitEnding`);
- an empty answer, or one with reasoning only.
*/
import {assertNever} from '../presentation/assert-never.js';
import type {TurnEndReason} from '../session/recorder/session-runtime.js';
import type {ModelFinishReason} from './model-types.js';

/** How the turn ends when cardterm cut the answer at its bound for one step (`MESSAGE_MAX_CHARS`): as at an output limit, naming the bound. */
export function answerLimitEnding(maxChars: number): TurnEndReason {
	return {kind: 'max-tokens', message: `the answer was cut at cardterm's bound of ${maxChars.toLocaleString('en-US')} characters for one step; the rest was not read`};
}

/** What a step's answer held and how the model stopped. */
export type StepAnswer = {
	readonly finish: ModelFinishReason;
	/** The provider's own finish reason, and what it said about it. */
	readonly raw?: string;
	readonly detail?: string;
	readonly text: string;
	readonly reasoning: string;
};

/** Codes of a `blocked` turn end that the agent loop writes (`-p` maps them to its exit codes). */
export type StopCode = 'refusal' | 'content-filter' | 'step-limit' | 'loop';

/** How the turn ends after an answer without tool calls. */
export function answerEnding(answer: StepAnswer): TurnEndReason {
	const detail = answer.detail === undefined ? '' : `: ${answer.detail}`;
	const raw = answer.raw ?? '';
	switch (answer.finish) {
		case 'length': {
			return {kind: 'max-tokens', message: 'the answer was cut at the model\'s output limit'};
		}

		case 'content-filter': {
			// Anthropic names a refusal; OpenAI's refusal deltas end with a plain `stop`.
			if (raw === 'refusal' || raw === 'stop') {
				return {kind: 'blocked', code: 'refusal', message: `the model refused${detail}`};
			}

			const filter = raw === 'content_filter' || raw === '' ? 'the provider\'s content filter stopped the answer' : `the provider stopped the answer (${raw})`;
			return {kind: 'blocked', code: 'content-filter', message: `${filter}${detail}`};
		}

		case 'error': {
			return raw === 'MALFORMED_FUNCTION_CALL'
				? {kind: 'error', error: {code: 'malformed-call', message: `the model's tool call was malformed (${raw})${detail}`}}
				: {kind: 'error', error: {code: 'finish-error', message: `the provider ended the answer with an error${raw === '' ? '' : ` (${raw})`}${detail}`}};
		}

		case 'stop':
		case 'other':
		case 'tool-calls': {
			if (answer.text.trim() !== '') {
				return {kind: 'completed'};
			}

			return answer.reasoning.trim() === ''
				? {kind: 'error', error: {code: 'empty-answer', message: 'the model ended its turn without an answer (it sent nothing)'}}
				: {kind: 'error', error: {code: 'empty-answer', message: 'the model ended its turn with reasoning only, no answer'}};
		}

		default: {
			return assertNever(answer.finish);
		}
	}
}
