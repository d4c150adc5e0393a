/**
@module Error classes of the tool contract (contract.md §T1.9). Every `name` equals the class
name; `HarnessError` instances carry a stable `code`, and only they put `{name, code}` on results.
*/
import type {JsonValue} from '../json/json-value.js';
import type {ContentBlock} from './content.js';

/** Base error with a stable string `code`. */
export class HarnessError extends Error {
	readonly code: string;

	constructor(message: string, code: string, options?: ErrorOptions) {
		super(message, options);
		this.code = code;
		this.name = new.target.name;
	}
}

/** Arguments failed the tool's parameter schema. */
export class ToolArgsError extends HarnessError {
	readonly violations: readonly string[];

	constructor(violations: readonly string[]) {
		super(`invalid arguments: ${violations.join('; ')}`, 'INVALID_ARGS');
		this.violations = Object.freeze([...violations]);
	}
}

/** A tool's value, render or presentationMeta broke its output declaration. */
export class ToolOutputError extends HarnessError {
	readonly violations: readonly string[];

	constructor(toolName: string, violations: readonly string[]) {
		super(`tool "${toolName}" returned invalid output: ${violations.join('; ')}`, 'INVALID_TOOL_OUTPUT');
		this.violations = Object.freeze([...violations]);
	}
}

/** No visible tool has this name (optionally with a route hint). */
export class ToolNotFoundError extends HarnessError {
	constructor(toolName: string, hint?: string) {
		super(hint === undefined ? `unknown tool "${toolName}"` : `unknown tool "${toolName}": ${hint}`, 'UNKNOWN_TOOL');
	}
}

/** A Code Mode program failed. */
export class CodeRunFailedError extends HarnessError {
	constructor(kind: string, message: string, logs: readonly string[] = []) {
		const captured = logs.length > 0 ? `\nCaptured output:\n${logs.join('\n')}` : '';
		super(`code run failed (${kind}): ${message}${captured}`, 'CODE_RUN_FAILED');
	}
}

/**
A body's failure that says what it got: the failed result carries this content and `meta` (for its
card) instead of only `Error: <message>`. An MCP server's `isError` result is one: its text, images
and structured content are the failure's, for the model and the card.
*/
export class ToolResultError extends HarnessError {
	readonly content: readonly ContentBlock[];
	readonly meta: JsonValue | undefined;

	constructor(message: string, content: readonly ContentBlock[], meta?: JsonValue) {
		super(message, 'TOOL_RESULT_ERROR');
		this.content = content;
		this.meta = meta;
	}
}

/** Cancellation codes the registry produces. */
export type AbortCode = 'ABORTED' | 'ABORTED_BEFORE_DISPATCH';

/** Message of a thrown value, as results report it (contract.md §T3.7). */
export function thrownMessage(thrown: unknown): string {
	try {
		if (thrown instanceof Error) {
			return thrown.message;
		}

		if (typeof thrown === 'object' && thrown !== null && typeof (thrown as {message?: unknown}).message === 'string') {
			return (thrown as {message: string}).message;
		}

		return String(thrown);
	} catch {
		return '<unprintable thrown value>';
	}
}
