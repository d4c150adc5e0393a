import {pushAll} from '../../layout/push-all.js';
import {wrapHanging} from '../../layout/spans.js';
import type {Span, Style, StyledLine} from '../../layout/styled-line.js';
import {sanitizeLines} from '../../layout/sanitize.js';
import {PROMPT_HELP} from './prompt-command.js';

/** A one-line message for the scrollback: info is recessed, errors red. Control characters are shown, never sent. */
export function noticeLines(message: string, tone: 'info' | 'error'): StyledLine[] {
	const style = tone === 'error' ? {fg: 'red' as const} : {dim: true};
	return sanitizeLines(message).map(text => ({spans: [{text, style}]}));
}

/** Columns a description needs beside its command before the table goes to two rows per command. */
const MIN_DESCRIPTION = 24;

/**
The `/help` table laid out for `width`: each command and its description on one row, the description
wrapped under itself; too narrow for that, the command on its row and the description indented
below. Nothing is cut and no row is wider than `width`.
*/
export function helpLines(width = 100): StyledLine[] {
	// bounded spread: PROMPT_HELP is a constant table of a dozen commands
	const formWidth = Math.max(...PROMPT_HELP.map(([form]) => form.length));
	const besides = width >= 2 + formWidth + 2 + MIN_DESCRIPTION;
	const dim = {dim: true};
	const rows: StyledLine[] = [{spans: [{text: 'Commands', style: {bold: true}}]}];
	for (const [form, what] of PROMPT_HELP) {
		if (besides) {
			hanging(rows, [{text: `  ${form.padEnd(formWidth)}  `}], what, dim, width);
		} else {
			hanging(rows, [{text: '  '}], form, {}, width);
			hanging(rows, [{text: '      '}], what, dim, width);
		}
	}

	for (const text of [
		'Keys: Tab completes (programs after !) · ↑/↓ history · Ctrl+O pager · Ctrl+L clears the screen',
		'Esc or Ctrl+C cancels the running call; lines queued after it are held (Enter runs, Ctrl+C drops)',
		'Ctrl+C twice on an empty prompt or Ctrl+D exits · Shift+Enter, Alt+Enter or \\ Enter: a new line',
		'Text that is no command goes to the model when one is connected (/model PROVIDER:MODEL connects one).',
	]) {
		hanging(rows, [], text, dim, width);
	}

	return rows;
}

/** `lead` then `text` wrapped into the columns after it, continuation rows indented as far. */
function hanging(rows: StyledLine[], lead: readonly Span[], text: string, style: Style, width: number): void {
	pushAll(rows, wrapHanging(lead, [{text, style}], width));
}
