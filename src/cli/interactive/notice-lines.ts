import type {StyledLine} from '../../layout/styled-line.js';
import {sanitizeLines} from '../../layout/sanitize.js';
import {PROMPT_HELP} from './prompt-command.js';

/** A one-line message for the scrollback: info is recessed, errors red. Control characters are shown, never sent. */
export function noticeLines(message: string, tone: 'info' | 'error'): StyledLine[] {
	const style = tone === 'error' ? {fg: 'red' as const} : {dim: true};
	return sanitizeLines(message).map(text => ({spans: [{text, style}]}));
}

/** The `/help` table. */
export function helpLines(): StyledLine[] {
	// bounded spread: PROMPT_HELP is a constant table of a dozen commands
	const width = Math.max(...PROMPT_HELP.map(([form]) => form.length));
	return [
		{spans: [{text: 'Commands', style: {bold: true}}]},
		...PROMPT_HELP.map(([form, what]): StyledLine => ({spans: [{text: `  ${form.padEnd(width)}  `}, {text: what, style: {dim: true}}]})),
		{spans: [{text: 'Keys: Tab completes (programs after !) · ↑/↓ history · Ctrl+O pager · Ctrl+L clears the screen', style: {dim: true}}]},
		{spans: [{text: '      Esc or Ctrl+C cancels the running call; lines queued after it are held (Enter runs, Ctrl+C drops)', style: {dim: true}}]},
		{spans: [{text: '      Ctrl+C twice on an empty prompt or Ctrl+D exits · Shift+Enter, Alt+Enter or \\ Enter: a new line', style: {dim: true}}]},
		{spans: [{text: 'Text that is no command goes to the model when one is connected (see --model).', style: {dim: true}}]},
	];
}
