/**
@module The model's calls the loop does not run, and what the model is told about each instead:
arguments that are not JSON (the parse error with its position and the text there, rather than the
registry's `"arguments" must be an object`), arguments nested past the bounds of `call-arguments.ts`,
arguments the output limit cut off (write less at once), and a call that repeats a runaway loop. Each becomes the call's error result, so the person
sees it on the card and the model reads it in its next step.
*/
import {readArgumentsText} from '../tools/call-arguments.js';
import {HarnessError, ToolArgsError} from '../tools/errors.js';
import {failureFromThrown} from '../tools/failure-result.js';
import type {ToolExecutionFailure} from '../tools/types.js';
import type {ModelFinishReason, ModelToolCall} from './model-types.js';

/** A call whose arguments the model's output limit cut off. */
class OutputLimitError extends HarnessError {
	constructor(message: string) {
		super(message, 'OUTPUT_LIMIT');
	}
}

/** A call not run because it repeats a loop the turn was stopped for. */
class RunawayLoopError extends HarnessError {
	constructor(message: string) {
		super(message, 'RUNAWAY_LOOP');
	}
}

/** Characters of the arguments shown before and after the point where JSON parsing failed. */
const BEFORE = 40;
const AFTER = 20;

/**
The result of a call that is not run because of its arguments, or undefined when they are JSON (or
empty: a call without arguments). `finish` is the step's finish reason: after `length`, arguments
that do not parse were cut by the output limit.
*/
export function argumentsRefusal(call: ModelToolCall, finish: ModelFinishReason | undefined): ToolExecutionFailure | undefined {
	const text = call.arguments;
	const read = readArgumentsText(text);
	if (read.ok) {
		return undefined;
	}

	if (read.kind === 'nesting') {
		return failureFromThrown(new ToolArgsError([`not run: ${read.problem}, which no tool takes (${text.length} characters arrived); send the arguments as the tool's schema describes them`]));
	}

	if (finish === 'length') {
		return failureFromThrown(new OutputLimitError(`not run: your output reached the model's output-token limit while you were writing this call's arguments (${text.length} characters arrived, cut off), so the call is incomplete. Write less in one call: split a large file into several smaller write or edit calls, or a long command into steps.`));
	}

	return failureFromThrown(new ToolArgsError([jsonFailure(text, read.problem)]));
}

/**
The parse failure in a person's (and a model's) words: what V8 expected, where (line, column and
character), and the text on both sides of that point.
*/
export function jsonFailure(text: string, message: string): string {
	const at = /at position (\d+)/.exec(message);
	const position = at === null ? text.length : Math.min(Number(at[1]), text.length);
	// V8's own position text varies by version ("in JSON at position 7 (line 1 column 8)"): ours replaces it.
	const what = message.replace(/\s*(?:in JSON\s*)?at position \d+.*$/s, '').replace(/^Unexpected end of JSON input$/, 'the JSON ends early: it is cut off');
	const before = text.slice(0, position);
	const line = before.split('\n').length;
	const column = position - before.lastIndexOf('\n');
	const shownBefore = `${position > BEFORE ? '…' : ''}${visible(text.slice(Math.max(0, position - BEFORE), position))}`;
	const shownAfter = `${visible(text.slice(position, position + AFTER))}${text.length > position + AFTER ? '…' : ''}`;
	return `the arguments are not valid JSON: ${what} at line ${line}, column ${column} (character ${position} of ${text.length}); the text there: ${shownBefore}⟨here⟩${shownAfter}`;
}

/** Control characters as their JSON escapes, so the excerpt stays on one line. */
function visible(text: string): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
	return text.replace(/[\u0000-\u001F\u007F]/g, character => JSON.stringify(character).slice(1, -1));
}

/**
The result of a call whose arguments cardterm's bound for one step cut off (`MESSAGE_MAX_CHARS`):
the same advice as the output limit's, naming the bound.
*/
export function answerLimitRefusal(call: ModelToolCall, maxChars: number): ToolExecutionFailure {
	return failureFromThrown(new OutputLimitError(`not run: your answer passed cardterm's bound of ${maxChars.toLocaleString('en-US')} characters for one step while you were writing this call's arguments (${call.arguments.length.toLocaleString('en-US')} characters of them were kept, the rest was not read), so the call is incomplete. Write less in one call: split a large file into several smaller write or edit calls, or a long command into steps.`));
}

/** The result of a call not run because the turn stops for a loop it repeats. */
export function loopRefusal(description: string): ToolExecutionFailure {
	return failureFromThrown(new RunawayLoopError(`not run: ${description}. The turn was stopped; the person decides how to go on.`));
}
