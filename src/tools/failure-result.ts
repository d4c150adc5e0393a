/**
@module Failure results the pipeline builds: from a thrown value, from a denial, and the two
cancellation results (contract.md §T3.7, §T3.9).
*/
import {HarnessError, thrownMessage, ToolResultError, type AbortCode} from './errors.js';
import type {ToolErrorInfo, ToolExecutionFailure, ToolExecutionResult} from './types.js';

/**
The `{name, code}` a failed result carries for a classed error, or `undefined`.

Classed means: a `HarnessError` instance, or any `Error` (of any realm) whose `code` is a string
and whose `name` is a non-empty string other than `'Error'`. The second rule admits
`JsonSchemaError` (which cannot extend `HarnessError` because the schema layer sits below tools)
and errors from a second copy of this package, while a plain `Error` and Node's system errors
(`name` `'Error'`, `code` `'ENOENT'`) stay unclassed, as the contract's catalogue requires.
Reading `name`/`code` may run hostile getters; any throw means "unclassed".
*/
function errorInfoOf(thrown: unknown): ToolErrorInfo | undefined {
	try {
		if (thrown instanceof HarnessError) {
			const {name, code} = thrown;
			return typeof name === 'string' && typeof code === 'string' ? {name, code} : undefined;
		}

		if (!isErrorObject(thrown)) {
			return undefined;
		}

		const {name, code} = thrown as {name?: unknown; code?: unknown};
		if (typeof code === 'string' && typeof name === 'string' && name !== '' && name !== 'Error') {
			return {name, code};
		}
	} catch {
		// A throwing getter: report the message only.
	}

	return undefined;
}

/** The generic failure for a thrown value: `Error: <message>` content, `info` when classed; a `ToolResultError`'s own content and meta. */
export function failureFromThrown(thrown: unknown): ToolExecutionFailure {
	const message = thrownMessage(thrown);
	const info = errorInfoOf(thrown);
	const base = failure(message, info);
	if (!(thrown instanceof ToolResultError)) {
		return base;
	}

	return Object.freeze({...base, content: thrown.content, ...(thrown.meta === undefined ? {} : {meta: thrown.meta})});
}

/** A denial (pre-execute, approval or guard): message only, never `info`. */
export function denialFailure(reason: string): ToolExecutionFailure {
	return failure(reason, undefined);
}

const abortMessages: Record<AbortCode, string> = {
	ABORTED: 'tool call aborted',
	ABORTED_BEFORE_DISPATCH: 'tool call aborted before dispatch',
};

/** The first line of a cancellation result's content (`Error: tool call aborted`): what a cancelled call's kept output follows. */
export function cancellationLine(code: AbortCode): string {
	return `Error: ${abortMessages[code]}`;
}

/**
A cancellation result; it keeps the contexts of the result it replaces. When it replaces the success
of a body that ran (`ABORTED`: a body that finished anyway, or stopped early and said what it had
done, as bash's output before the cancel), it keeps what that body returned too: its content after
the cancellation line, so the model reads what was done before the cancel, and its `meta` for the
card. A result of a call whose body never ran (`ABORTED_BEFORE_DISPATCH`) says only that.
*/
export function cancellationFailure(code: AbortCode, replaced?: ToolExecutionResult): ToolExecutionFailure {
	const base = failure(abortMessages[code], {name: 'AbortError', code});
	if (replaced === undefined) {
		return base;
	}

	const done = code === 'ABORTED' && !replaced.isError ? replaced : undefined;
	const {additionalContexts} = replaced;
	return Object.freeze({
		...base,
		content: done === undefined || done.content.length === 0 ? base.content : Object.freeze([...base.content, ...done.content]),
		...(done?.meta === undefined ? {} : {meta: done.meta}),
		...(additionalContexts !== undefined && additionalContexts.length > 0 ? {additionalContexts} : {}),
	});
}

function failure(message: string, info: ToolErrorInfo | undefined): ToolExecutionFailure {
	const error = info === undefined ? Object.freeze({message}) : Object.freeze({message, info: Object.freeze(info)});
	return Object.freeze({
		isError: true,
		error,
		content: Object.freeze([Object.freeze({type: 'text', text: `Error: ${message}`})]),
	});
}

function isErrorObject(value: unknown): value is Error {
	return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}
