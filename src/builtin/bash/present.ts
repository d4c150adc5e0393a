/**
@module The bash cards (presentation-events.md §2.1, §2.2). Pure: they read only the arguments
and the persisted result, so they work the same live and on replay of old logs.
*/
import {terminalExit} from '../../presentation/card-outcome.js';
import type {ToolCallView, ToolResult, ToolResultView} from '../../tools/views.js';
import type {BashArgs} from './bash-schema.js';

/** Terminal card for a foreground call; generic `execute` card for a background one. */
export function presentBashCall(args: BashArgs): ToolCallView {
	if (args.run_in_background === true) {
		return {
			card: 'generic',
			title: args.command,
			kind: 'execute',
			rawInput: args.command,
			content: [{type: 'text', text: args.description}],
		};
	}

	return {
		card: 'terminal',
		title: args.command,
		description: args.description,
		...(args.workdir === undefined ? {} : {cwd: args.workdir}),
	};
}

/** Text fenced as a console block, trailing newlines trimmed before the closing fence. */
function consoleFence(text: string): string {
	return `\`\`\`console\n${text.replace(/\n+$/, '')}\n\`\`\``;
}

/**
Exactly one text block, else `undefined`. An error or a background call: generic, console-fenced.
Otherwise a terminal view: the final exit marker (matched only at the very end) is stripped into
`signal` or `exitCode`; no marker means exit code 0 (`terminalExit`).
*/
export function presentBashResult(args: BashArgs, result: ToolResult): ToolResultView | undefined {
	if (result.content.length !== 1) {
		return undefined;
	}

	const [block] = result.content;
	if (block.type !== 'text') {
		return undefined;
	}

	const {text} = block;
	if (result.isError || args.run_in_background === true) {
		return {card: 'generic', content: [{type: 'text', text: consoleFence(text)}]};
	}

	// The marker is read where the outcome rule reads it, so the pill and the card's outcome agree.
	return {card: 'terminal', ...terminalExit(text)};
}
