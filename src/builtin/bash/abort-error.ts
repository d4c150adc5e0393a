/**
@module The error a tool body throws when its call is cancelled while running: the registry turns
it into the `ABORTED` result (`Error: tool call aborted`, `{name:'AbortError', code:'ABORTED'}`).
*/
import {HarnessError} from '../../tools/errors.js';

/** `tool call aborted`, code `ABORTED`, name `AbortError`. */
export class ToolAbortError extends HarnessError {
	constructor() {
		super('tool call aborted', 'ABORTED');
		this.name = 'AbortError';
	}
}
