/**
@module The pending view of a call, with the fallback rules of contract.md §E1.5.
*/
import {readArgumentsText} from '../tools/call-arguments.js';
import type {ToolCallView} from '../tools/views.js';
import type {Presenter, PresenterFailure} from './presenters.js';
import {asCallView} from './view-guards.js';

/** Parsed call arguments. An empty string means `{}` (as the agent loop executes it). */
export type ParsedArguments = {readonly ok: true; readonly value: unknown} | {readonly ok: false};

/** The arguments as the agent loop reads them (`call-arguments.ts`): text past its bounds, or not JSON, is shown as text. */
export function parseArguments(raw: string): ParsedArguments {
	const read = readArgumentsText(raw);
	return read.ok ? read : {ok: false};
}

/**
The call view: the presenter's when it returns a well-formed view, otherwise the synthesized
generic card titled by the tool name, whose input is the parsed arguments (or the raw string when
they do not parse). A throwing presenter is reported through `onFailure` and falls back the same way.
*/
export function resolveCallView(
	name: string,
	argsRaw: string,
	parsed: ParsedArguments,
	presenter: Presenter | undefined,
	onFailure?: (failure: PresenterFailure) => void,
): ToolCallView {
	if (!parsed.ok) {
		return {card: 'generic', title: name, kind: 'other', rawInput: argsRaw};
	}

	const fallback: ToolCallView = {card: 'generic', title: name, kind: 'other', rawInput: parsed.value};
	if (presenter?.presentCall === undefined) {
		return fallback;
	}

	try {
		return asCallView(presenter.presentCall(parsed.value)) ?? fallback;
	} catch (error) {
		onFailure?.({toolName: name, phase: 'call', error});
		return fallback;
	}
}
