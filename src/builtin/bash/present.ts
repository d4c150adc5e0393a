/**
@module The bash cards (contract.md §E2.1, §E2.2). Pure: they read only the arguments
and the persisted result, so they work the same live and on replay of old logs.
*/
import {terminalExit} from '../../presentation/card-outcome.js';
import {cancellationLine} from '../../tools/failure-result.js';
import type {ToolCallView, ToolResult, ToolResultView} from '../../tools/views.js';
import type {BashArgs} from './bash-schema.js';
import {CANCELLED_MARKER} from './render-text.js';

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
A command cancelled while it ran: the cancellation line, then the command's own text (its output
before the cancel, ending in the cancel marker). A terminal view of the output, the marker stripped
as an exit marker is (the card says `cancelled` itself), with no exit: the command did not end on
its own.
*/
function cancelledCommand(args: BashArgs, result: ToolResult): ToolResultView | undefined {
	const [line, text] = result.content;
	if (!result.isError || args.run_in_background === true || result.content.length !== 2 || line?.type !== 'text' || text?.type !== 'text' || line.text !== cancellationLine('ABORTED')) {
		return undefined;
	}

	const marker = `\n${CANCELLED_MARKER}`;
	return {card: 'terminal', output: text.text.endsWith(marker) ? text.text.slice(0, -marker.length) : text.text};
}

/**
Exactly one text block, else `undefined` (but for a cancelled command's output). An error or a
background call: generic, console-fenced. Otherwise a terminal view: the final exit marker (matched
only at the very end) is stripped into `signal` or `exitCode`; no marker means exit code 0
(`terminalExit`).
*/
export function presentBashResult(args: BashArgs, result: ToolResult): ToolResultView | undefined {
	const cancelled = cancelledCommand(args, result);
	if (cancelled !== undefined) {
		return cancelled;
	}

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
