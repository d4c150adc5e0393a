/**
@module Runaway loops: a model that makes the same call with the same arguments step after step, or
alternates between two such steps, has stopped making progress. The turn is stopped when it comes
back for the fifth identical step, or the fourth round of an alternation — long before the step
limit, and late enough that a model polling a job or re-running a test after an edit (its steps
differ) is not stopped. Gemini CLI stops at five identical calls in a row as well.

Steps are compared by their calls: names and arguments, the arguments as JSON with sorted keys (so
key order and spacing do not hide a repeat), or as the raw text when they are not JSON.
*/
import type {JsonValue} from '../json/json-value.js';
import {stableStringify} from '../json/stable-stringify.js';
import {readArgumentsText} from '../tools/call-arguments.js';
import type {ModelToolCall} from './model-types.js';

/** The same step this many times in a row is a loop. */
const SAME_STEP_LIMIT = 5;
/** Two steps alternating this many rounds (A B A B A B A B) is a loop. */
const ALTERNATION_ROUNDS = 4;
/** Characters of a call shown in the notice. */
const SHOWN = 80;

export class RepeatGuard {
	readonly #steps: string[] = [];
	readonly #shown: string[] = [];

	/** Take one step's calls; what the loop is, worded for the notice, when this step completes one. */
	observe(calls: readonly ModelToolCall[]): string | undefined {
		this.#steps.push(calls.map(call => `${call.name} ${canonical(call.arguments)}`).join('\n'));
		this.#shown.push(calls.map(call => shown(call)).join(', '));
		const steps = this.#steps;
		const last = steps.length - 1;
		if (tailRepeats(steps, 1) >= SAME_STEP_LIMIT) {
			return `the model made the same call${calls.length === 1 ? '' : 's'} ${SAME_STEP_LIMIT} times in a row (${this.#shown[last]!})`;
		}

		if (steps[last] !== steps[last - 1] && tailRepeats(steps, 2) >= 2 * ALTERNATION_ROUNDS) {
			return `the model alternated between the same two steps ${ALTERNATION_ROUNDS} times (${this.#shown[last - 1]!}, then ${this.#shown[last]!})`;
		}

		return undefined;
	}
}

/** How many steps at the end of `steps` repeat with `period` (each equal to the one `period` before it), counting the first of them. */
function tailRepeats(steps: readonly string[], period: number): number {
	let count = Math.min(period, steps.length);
	for (let index = steps.length - 1; index - period >= 0 && steps[index] === steps[index - period]; index--) {
		count++;
	}

	return count;
}

function canonical(text: string): string {
	const read = readArgumentsText(text);
	return read.ok ? stableStringify(read.value as JsonValue) : text;
}

function shown(call: ModelToolCall): string {
	const text = `${call.name} ${call.arguments.trim() === '' ? '{}' : call.arguments}`.replace(/\s+/g, ' ');
	return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}
