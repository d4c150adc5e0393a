/**
@module The cards of an ACP agent's tool calls, on the live screen and on replay alike: the presenter
of the `acp_<kind>` tools `acp-events.ts` records. Pure: it reads only the call's arguments (the
call as first seen) and the result's `meta` (the call as it ended), as every presenter does
(contract.md §E1.4). docs/acp-mapping.md has the table.
*/
import {isJsonObject} from '../json/is-plain-record.js';
import type {ContentBlock} from '../tools/content.js';
import {cancellationLine} from '../tools/failure-result.js';
import type {FileDiff, ToolCallKind, ToolCallView, ToolResult, ToolResultView} from '../tools/views.js';
import type {Presenter, PresenterLookup} from '../presentation/presenters.js';
import {ACP_TOOL_PREFIX} from '../presentation/tool-name.js';
import {contentText, terminalIds, type AcpContentItem, type AcpLocation, type AcpTerminalOutput} from './tool-call-state.js';

type Fields = Record<string, unknown>;

/** The tool name a call of ACP `kind` is recorded under. */
export function acpToolName(kind: string): string {
	return `${ACP_TOOL_PREFIX}${/^[a-z_]{1,32}$/.test(kind) ? kind : 'other'}`;
}

/** What `tool/call` arguments of an ACP call hold: the call as first seen. */
export type AcpCallArguments = {
	readonly title: string;
	readonly kind: string;
	readonly rawInput?: unknown;
	readonly content: readonly AcpContentItem[];
	readonly locations: readonly AcpLocation[];
};

/** What the `meta` of an ACP call's `tool/result` holds: the call as it ended, and a terminal's output. */
export type AcpResultMeta = {
	readonly acp: AcpCallArguments & {readonly status: string; readonly rawOutput?: unknown; readonly meta?: Fields};
	readonly terminal?: AcpTerminalOutput;
	/** Files the agent wrote through the client during the call, when its final content has no diff of them. */
	readonly writes?: readonly FileDiff[];
};

const CARD_KINDS = new Set<ToolCallKind>(['read', 'edit', 'delete', 'move', 'search', 'execute', 'fetch', 'other']);

/** ACP's `think` and `switch_mode` have no icon of their own: they are `other`. */
export function cardKind(kind: string): ToolCallKind {
	return CARD_KINDS.has(kind as ToolCallKind) ? kind as ToolCallKind : 'other';
}

function narrowArguments(value: unknown): AcpCallArguments | undefined {
	if (!isJsonObject(value) || typeof value.title !== 'string' || typeof value.kind !== 'string' || !Array.isArray(value.content) || !Array.isArray(value.locations)) {
		return undefined;
	}

	return value as AcpCallArguments;
}

function diffsOf(content: readonly AcpContentItem[]): FileDiff[] {
	const diffs: FileDiff[] = [];
	for (const item of content) {
		if (item.type === 'diff' && typeof item.path === 'string' && typeof item.newText === 'string') {
			diffs.push({path: item.path, oldText: typeof item.oldText === 'string' ? item.oldText : null, newText: item.newText});
		}
	}

	return diffs;
}

/** The command line of an `execute` call: `rawInput.command` (a string or argv), else the title. */
function commandOf(call: AcpCallArguments): string {
	const input = call.rawInput;
	const command = isJsonObject(input) ? input.command ?? input.cmd : input;
	if (typeof command === 'string' && command.trim() !== '') {
		return command;
	}

	if (Array.isArray(command) && command.every(part => typeof part === 'string') && command.length > 0) {
		return command.join(' ');
	}

	return call.title;
}

/** Whether the call is drawn as a terminal: an `execute` call, or one whose content names a terminal. */
function isTerminalCall(call: AcpCallArguments): boolean {
	return call.kind === 'execute' || terminalIds(call.content).length > 0;
}

function textBlocks(content: readonly AcpContentItem[]): ContentBlock[] | undefined {
	const text = contentText(content);
	return text === '' ? undefined : [{type: 'text', text}];
}

export function presentAcpCall(args: unknown): ToolCallView | undefined {
	const call = narrowArguments(args);
	if (call === undefined) {
		return undefined;
	}

	const title = call.title === '' ? 'tool call' : call.title;
	const locations = call.locations.length === 0 ? {} : {locations: call.locations};
	const diffs = diffsOf(call.content);
	if (diffs.length > 0) {
		return {card: 'diff', title, diffs, ...locations};
	}

	if (isTerminalCall(call)) {
		const command = commandOf(call);
		return {card: 'terminal', title: command, ...(command === title ? {} : {description: title})};
	}

	const content = textBlocks(call.content);
	return {
		card: 'generic',
		title,
		kind: cardKind(call.kind),
		...(call.rawInput === undefined || (isJsonObject(call.rawInput) && Object.keys(call.rawInput).length === 0) ? {} : {rawInput: call.rawInput}),
		...(content === undefined ? {} : {content}),
		...locations,
	};
}

/** A command's output an agent reported in `rawOutput` (Codex): a string, or a record with an output field and an exit code. */
function rawOutputTerminal(rawOutput: unknown): AcpTerminalOutput | undefined {
	if (typeof rawOutput === 'string') {
		return {output: rawOutput};
	}

	if (!isJsonObject(rawOutput)) {
		return undefined;
	}

	const output = ['formatted_output', 'aggregated_output', 'output', 'stdout'].map(key => rawOutput[key]).find(value => typeof value === 'string') as string | undefined;
	const exit = rawOutput.exit_code ?? rawOutput.exitCode;
	if (output === undefined && !Number.isSafeInteger(exit)) {
		return undefined;
	}

	return {output: output ?? '', ...(Number.isSafeInteger(exit) ? {exitCode: exit as number} : {})};
}

function narrowMeta(meta: unknown): AcpResultMeta | undefined {
	if (!isJsonObject(meta) || narrowArguments(meta.acp) === undefined) {
		return undefined;
	}

	const acp = meta.acp as AcpResultMeta['acp'];
	return typeof acp.status === 'string' ? meta as AcpResultMeta : undefined;
}

export function presentAcpResult(args: unknown, result: ToolResult): ToolResultView | undefined {
	const call = narrowArguments(args);
	const meta = narrowMeta(result.meta);
	if (call === undefined || meta === undefined) {
		return undefined;
	}

	const final = meta.acp;
	const retitled = final.title !== '' && final.title !== call.title ? {title: final.title} : {};
	if (result.isError) {
		// A command the turn's cancel stopped: a terminal of what it printed before (the card says it was cancelled).
		const [line, shown] = result.content;
		if (isTerminalCall(call) && line?.type === 'text' && line.text === cancellationLine('ABORTED')) {
			const command = commandOf(final);
			return {card: 'terminal', ...(command === commandOf(call) ? {} : {title: command}), output: shown?.type === 'text' ? shown.text : ''};
		}

		// A generic view without content shows the raw result: the text the agent sent.
		return {card: 'generic', ...retitled};
	}

	const diffs = [...diffsOf(final.content), ...meta.writes ?? []];
	if (diffs.length > 0) {
		return {card: 'diff', ...retitled, diffs};
	}

	if (isTerminalCall(call)) {
		const text = contentText(final.content);
		const terminal = meta.terminal ?? rawOutputTerminal(final.rawOutput) ?? (text === '' ? undefined : {output: text});
		if (terminal !== undefined) {
			const exit = terminal.signal === undefined ? (terminal.exitCode === undefined ? {} : {exitCode: terminal.exitCode}) : {signal: terminal.signal};
			// A call first seen with half its input (opencode: `rawInput` without the command) is titled by the command it ran.
			const command = commandOf(final);
			return {card: 'terminal', ...(command === commandOf(call) ? {} : {title: command}), output: terminal.output, ...exit};
		}
	}

	const content = textBlocks(final.content);
	return {card: 'generic', ...retitled, ...(content === undefined ? {} : {content})};
}

export const acpPresenter: Presenter = {presentCall: presentAcpCall, presentResult: presentAcpResult};

/** `fallback` (the reference tools), with the ACP calls' presenter for `acp_*` names. */
export function withAcpPresenter(fallback: PresenterLookup): PresenterLookup {
	return name => name.startsWith(ACP_TOOL_PREFIX) ? acpPresenter : fallback(name);
}
