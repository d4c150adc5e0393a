/**
@module The execution object hooks, guards and finalizers see (contract.md §T3.3): frozen
from the start, except that `tools/execute` wrappers may replace its signal slot.
*/
import type {ToolDispatchExecution, ToolExecution} from './types.js';

/** The fields an execution is made of: the contract's `ToolExecution`. */
export type ExecutionFields = ToolExecution;

/** The execution plus the pipeline's private handle on its signal slot. */
export type ExecutionView = {
	/** The object every hook receives (typed as the wrapper view; others see it as readonly). */
	readonly exec: ToolDispatchExecution;
	/** Whether assignments to `exec.signal` are accepted (only while `tools/execute` runs). */
	setSignalWritable(writable: boolean): void;
	/** Set the slot without the wrapper check (dispatch installs the fused signal and restores it). */
	setSignal(signal: AbortSignal): void;
};

/**
Build the execution. All fields are frozen data except `signal`, an accessor whose setter accepts
an `AbortSignal` only while the `tools/execute` stage is open; elsewhere it throws a `TypeError`,
just as a frozen data property would. `agent` and `parent` are absent when unset.
*/
export function createExecutionView(fields: ExecutionFields): ExecutionView {
	let signal = fields.signal;
	let writable = false;
	const exec = {} as ToolDispatchExecution;
	const data = (value: unknown): PropertyDescriptor => ({value, enumerable: true, writable: false, configurable: false});
	Object.defineProperties(exec, {
		token: data(fields.token),
		callId: data(fields.callId),
		rootCallId: data(fields.rootCallId),
		name: data(fields.name),
		arguments: data(fields.arguments),
		signal: {
			enumerable: true,
			configurable: false,
			get: () => signal,
			set(next: unknown) {
				if (!writable) {
					throw new TypeError(`exec.signal of tool call "${fields.callId}" can only be replaced inside a tools/execute wrapper`);
				}

				if (!(next instanceof AbortSignal)) {
					throw new TypeError(`exec.signal of tool call "${fields.callId}" must be an AbortSignal`);
				}

				signal = next;
			},
		},
	});
	if (fields.agent !== undefined) {
		Object.defineProperty(exec, 'agent', data(fields.agent));
	}

	if (fields.parent !== undefined) {
		Object.defineProperty(exec, 'parent', data(fields.parent));
	}

	Object.freeze(exec);
	return {
		exec,
		setSignalWritable(next) {
			writable = next;
		},
		setSignal(next) {
			signal = next;
		},
	};
}
