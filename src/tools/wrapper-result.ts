/**
@module Wrapper-result normalization (contract.md §T3.5 step 13, §T3.8): a result that the
default dispatch did not produce for this execution (authored by a `tools/execute` wrapper, or a
cached result of another call or tool) is rebuilt before anything trusts it.
*/
import type {UserMessage} from './content.js';
import {createSuccess} from './create-success.js';
import {ToolNotFoundError} from './errors.js';
import type {PostDecisionContext} from './post-decision.js';
import type {ToolExecutionFailure, ToolExecutionResult} from './types.js';

/**
Rebuild `candidate`: a failure keeps only `isError, error, content, meta?, additionalContexts?`
(and `error` only `message` plus a well-formed `info`); a success re-resolves the tool and goes
through success creation, so its authored `content` is discarded and re-rendered from `value`,
keeping the wrapper's `additionalContexts`. Throws when the shape is unusable or the tool is gone.
*/
export function normalizeWrapperResult(candidate: unknown, context: PostDecisionContext): ToolExecutionResult {
	const {name} = context.exec;
	if (typeof candidate !== 'object' || candidate === null) {
		throw new TypeError(`tools/execute for tool "${name}" must resolve to a tool execution result, got ${candidate === null ? 'null' : typeof candidate}`);
	}

	const record = candidate as Record<string, unknown>;
	const isError = record.isError;
	const contexts = record.additionalContexts;
	if (contexts !== undefined && !Array.isArray(contexts)) {
		throw new TypeError(`tools/execute result for tool "${name}" has additionalContexts that is not an array`);
	}

	if (isError === true) {
		const failure: Record<string, unknown> = {isError: true, error: wrapperError(name, record.error), content: record.content};
		const meta = record.meta;
		if (meta !== undefined) {
			failure.meta = meta;
		}

		if (contexts !== undefined && contexts.length > 0) {
			failure.additionalContexts = Object.freeze([...contexts]);
		}

		return Object.freeze(failure) as ToolExecutionResult;
	}

	if (isError !== false) {
		throw new TypeError(`tools/execute result for tool "${name}" must have a boolean isError`);
	}

	const value = record.value;
	const tool = context.resolveTool();
	if (tool === undefined) {
		throw new ToolNotFoundError(name);
	}

	return createSuccess(tool, context.exec, value, {concludesTurn: context.concludesTurn(), additionalContexts: contexts as UserMessage[] | undefined});
}

function wrapperError(name: string, error: unknown): ToolExecutionFailure['error'] {
	const {message, info} = (typeof error === 'object' && error !== null ? error : {}) as {message?: unknown; info?: unknown};
	if (typeof message !== 'string') {
		throw new TypeError(`tools/execute failure result for tool "${name}" must carry error.message as a string`);
	}

	const {name: infoName, code} = (typeof info === 'object' && info !== null ? info : {}) as {name?: unknown; code?: unknown};
	return typeof infoName === 'string' && typeof code === 'string' ? {message, info: {name: infoName, code}} : {message};
}
