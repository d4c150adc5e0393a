/**
@module The model-facing text of a bash result (contract.md §E2.1): stdout, then a
`[stderr]` section, or `(no output)`; then the marker lines, the exit marker last.
*/
import type {BashForegroundValue, BashValue} from './bash-schema.js';

type Stream = BashForegroundValue['stdout'];

/** The last line of a cancelled command's text: what is above it is what the command printed before the cancel. */
export const CANCELLED_MARKER = '[cancelled: stopped before it finished]';

/** `[output truncated; full output: <path|(unavailable)>]`, placed before the kept tail. */
function truncationMarker(stream: Stream): string {
	return `[output truncated; full output: ${stream.spillPath ?? '(unavailable)'}]`;
}

function section(stream: Stream): string {
	return stream.truncated ? `${truncationMarker(stream)}\n${stream.text}` : stream.text;
}

function isEmpty(stream: Stream): boolean {
	return stream.text === '' && !stream.truncated;
}

/** Append `line` on a line of its own. */
function appendLine(text: string, line: string): string {
	return text === '' || text.endsWith('\n') ? `${text}${line}` : `${text}\n${line}`;
}

/** The text of a foreground run. */
function renderForegroundText(value: BashForegroundValue): string {
	let text = isEmpty(value.stdout) ? '' : section(value.stdout);
	if (!isEmpty(value.stderr)) {
		text = appendLine(text, `[stderr]\n${section(value.stderr)}`);
	}

	if (text === '') {
		text = '(no output)';
	}

	const markers: string[] = [];
	if (value.timedOut) {
		markers.push(`[timed out after ${value.timeoutMs}ms]`);
	}

	if (value.aborted) {
		// The command was stopped by the cancel: its signal or exit code is the cancel's, not its own.
		markers.push(CANCELLED_MARKER);
	} else if (value.signal !== null) {
		markers.push(`[killed by signal: ${value.signal}]`);
	} else if (value.exitCode !== null && value.exitCode !== 0) {
		markers.push(`[exit code: ${value.exitCode}]`);
	}

	return markers.length === 0 ? text : appendLine(text, markers.join('\n'));
}

/** The text of any bash value. */
export function renderBashText(value: BashValue): string {
	return value.kind === 'background' ? `started background job ${value.jobId}` : renderForegroundText(value);
}
