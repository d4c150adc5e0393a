/**
@module Applying a `tools/post-execute` decision to a result (contract.md §T3.8 table).
Every failure here is thrown; the pipeline turns it into a final error result.
*/
import type {ContentBlock, UserMessage} from './content.js';
import {createSuccess} from './create-success.js';
import {ToolNotFoundError} from './errors.js';
import type {ToolDefinition, ToolExecution, ToolExecutionFailure, ToolExecutionResult} from './types.js';

/** What applying a value replacement needs from the pipeline. */
export type PostDecisionContext = {
	readonly exec: Pick<ToolExecution, 'name' | 'arguments' | 'parent'>;
	/** The tool visible under `exec.name` now (it may have been unregistered since the body ran). */
	resolveTool(): ToolDefinition | undefined;
	/** Whether `concludeTurn()` was called on this execution. */
	concludesTurn(): boolean;
};

const blockedFallback = 'tool result blocked by post-execute policy';

/** Apply `decision` to `result`; returns a new (shallow-frozen) result or throws. */
export function applyPostDecision(result: ToolExecutionResult, decision: unknown, context: PostDecisionContext): ToolExecutionResult {
	if (typeof decision !== 'object' || decision === null) {
		throw new TypeError(`tools/post-execute must resolve to a decision object, got ${describe(decision)}`);
	}

	const record = decision as Record<string, unknown>;
	const kind = record.kind;
	const extra = readContexts(record);
	if (kind === 'block') {
		const feedback = record.feedback;
		const blocked: {-readonly [K in keyof ToolExecutionFailure]: ToolExecutionFailure[K]} = {
			isError: true,
			error: {message: blockMessage(feedback)},
			content: feedback as readonly ContentBlock[],
		};
		if (extra.length > 0) {
			blocked.additionalContexts = Object.freeze(extra);
		}

		return Object.freeze(blocked);
	}

	if (kind !== 'accept') {
		throw new TypeError(`tools/post-execute decision kind must be "accept" or "block", got ${describe(kind)}`);
	}

	const replacesContent = Object.hasOwn(record, 'content');
	const replacesValue = Object.hasOwn(record, 'value');
	if (replacesContent && replacesValue) {
		throw new TypeError('tools/post-execute accept decision cannot replace both value and content');
	}

	const contexts = [...(result.additionalContexts ?? []), ...extra];
	if (replacesValue) {
		const value = record.value;
		if (result.isError) {
			throw new TypeError('tools/post-execute cannot replace the value of a failed result');
		}

		const tool = context.resolveTool();
		if (tool === undefined) {
			throw new ToolNotFoundError(context.exec.name);
		}

		return createSuccess(tool, context.exec, value, {concludesTurn: context.concludesTurn(), additionalContexts: contexts});
	}

	const next: Record<string, unknown> = {...result};
	if (replacesContent) {
		next.content = record.content;
	}

	if (contexts.length > 0) {
		next.additionalContexts = Object.freeze(contexts);
	} else {
		delete next.additionalContexts;
	}

	return Object.freeze(next) as ToolExecutionResult;
}

/** The decision's own `additionalContexts`, read once; absent means none. */
function readContexts(record: Record<string, unknown>): UserMessage[] {
	const contexts = record.additionalContexts;
	if (contexts === undefined) {
		return [];
	}

	if (!Array.isArray(contexts)) {
		throw new TypeError(`tools/post-execute decision additionalContexts must be an array, got ${describe(contexts)}`);
	}

	return [...contexts] as UserMessage[];
}

/** Text blocks contribute their text, other blocks `[<type> content]`; lines joined by `\n`. */
function blockMessage(feedback: unknown): string {
	if (!Array.isArray(feedback)) {
		throw new TypeError(`tools/post-execute block decision feedback must be an array of content blocks, got ${describe(feedback)}`);
	}

	const lines = feedback.map(block => {
		const {type, text} = (typeof block === 'object' && block !== null ? block : {}) as {type?: unknown; text?: unknown};
		return type === 'text' && typeof text === 'string' ? text : `[${String(type)} content]`;
	});
	const message = lines.join('\n');
	return message === '' ? blockedFallback : message;
}

function describe(value: unknown): string {
	if (Array.isArray(value)) {
		return 'an array';
	}

	return value === null ? 'null' : typeof value;
}
