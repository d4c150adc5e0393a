/**
@module Success creation (contract.md §T3.8): the one way a canonical value becomes a result,
used for body values, wrapper-authored successes and post-execute value replacement.
*/
import type {JsonValue} from '../json/json-value.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import {validateJsonSchemaValue} from '../schema/index.js';
import type {ContentBlock, UserMessage} from './content.js';
import {thrownMessage, ToolOutputError} from './errors.js';
import type {ToolDefinition, ToolExecution, ToolExecutionSuccess} from './types.js';

/** What a success carries besides what the tool's output declaration derives from the value. */
export type SuccessExtras = {
	/** Whether `concludeTurn()` was called on this execution. */
	readonly concludesTurn: boolean;
	readonly additionalContexts?: readonly UserMessage[];
};

/**
Snapshot and validate `candidate` against `tool.output.schema`, render its content and (top-level
calls only) its `meta`, and return a frozen success. Throws `ToolOutputError` naming `exec.name`
and the first failing step; the value is never attached to a failure.
*/
export function createSuccess(
	tool: ToolDefinition,
	exec: Pick<ToolExecution, 'name' | 'arguments' | 'parent'>,
	candidate: unknown,
	extras: SuccessExtras,
): ToolExecutionSuccess {
	const {output} = tool;
	const value = snapshotOrFail(exec.name, candidate, 'value is not lossless JSON', 'value snapshot failed');
	const violations = validateJsonSchemaValue(output.schema, value, 'value');
	if (violations.length > 0) {
		throw new ToolOutputError(exec.name, violations);
	}

	const content = project(exec.name, 'output.render', () => output.render(exec.arguments, value));
	if (!Array.isArray(content)) {
		throw new ToolOutputError(exec.name, ['output.render must return an array of content blocks']);
	}

	let meta: JsonValue | undefined;
	const {presentationMeta} = output;
	// Nested Code Mode dispatches have no card, so no meta.
	if (exec.parent === undefined && typeof presentationMeta === 'function') {
		meta = project(exec.name, 'presentationMeta', () => presentationMeta.call(output, exec.arguments, value));
	}

	const result: {-readonly [K in keyof ToolExecutionSuccess]: ToolExecutionSuccess[K]} = {
		isError: false,
		value,
		content: content as unknown as readonly ContentBlock[],
	};
	if (meta !== undefined) {
		result.meta = meta;
	}

	if (extras.additionalContexts !== undefined && extras.additionalContexts.length > 0) {
		result.additionalContexts = Object.freeze([...extras.additionalContexts]);
	}

	if (extras.concludesTurn) {
		result.concludesTurn = true;
	}

	return Object.freeze(result);
}

/** Run a projector (`render`, `presentationMeta`) and snapshot what it returns. */
function project(toolName: string, label: string, run: () => unknown): JsonValue {
	let produced: unknown;
	try {
		produced = run();
	} catch (error) {
		throw new ToolOutputError(toolName, [`${label} failed: ${thrownMessage(error)}`]);
	}

	return snapshotOrFail(toolName, produced, `${label} returned non-lossless JSON`, `${label} failed`);
}

function snapshotOrFail(toolName: string, input: unknown, lossyViolation: string, throwPrefix: string): JsonValue {
	let snapshot;
	try {
		snapshot = snapshotJsonValue(input);
	} catch (error) {
		throw new ToolOutputError(toolName, [`${throwPrefix}: ${thrownMessage(error)}`]);
	}

	if (!snapshot.ok) {
		throw new ToolOutputError(toolName, [lossyViolation]);
	}

	return snapshot.value;
}
