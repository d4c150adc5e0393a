/**
@module Result materialization (contract.md §T3.5 steps 18 and 20): a lossless, deep-frozen
copy with only the contract's keys, optional keys absent rather than `undefined`.
*/
import type {JsonValue} from '../json/json-value.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import type {ToolExecutionResult} from './types.js';

/** The message of the error a lossy result turns into. */
const lossyResultMessage = 'tool result must be losslessly JSON-serializable';

/**
Copy `result` into a deep-frozen result. The success `value` is re-attached as is: success creation
already snapshotted and froze it. Throws `TypeError(lossyResultMessage)` when any other part is
not lossless JSON (or a `TypeError` naming `content` when it is not an array); a throwing getter
propagates its own error.
*/
export function materializeResult(result: ToolExecutionResult): ToolExecutionResult {
	const isError = result.isError;
	const shell: Record<string, unknown> = {isError: isError === true};
	if (isError === true) {
		shell.error = result.error;
	}

	const content = result.content;
	if (!Array.isArray(content)) {
		throw new TypeError('tool result content must be an array of content blocks');
	}

	shell.content = content;
	const meta = result.meta;
	if (meta !== undefined) {
		shell.meta = meta;
	}

	const contexts = result.additionalContexts;
	if (!(Array.isArray(contexts) && contexts.length === 0) && contexts !== undefined) {
		shell.additionalContexts = contexts;
	}

	if (isError !== true && (result as {concludesTurn?: unknown}).concludesTurn === true) {
		shell.concludesTurn = true;
	}

	const snapshot = snapshotJsonValue(shell);
	if (!snapshot.ok) {
		throw new TypeError(lossyResultMessage);
	}

	const copy = snapshot.value as Record<string, JsonValue>;
	if (isError === true) {
		return copy as unknown as ToolExecutionResult;
	}

	const value = (result as {value?: JsonValue}).value;
	if (value === undefined) {
		throw new TypeError(lossyResultMessage);
	}

	// Rebuild with `value` in second position; every part is already frozen.
	const {isError: flag, ...rest} = copy;
	return Object.freeze({isError: flag, value, ...rest}) as unknown as ToolExecutionResult;
}
