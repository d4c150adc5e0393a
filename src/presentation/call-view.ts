/**
@module The pending view of a call, with the fallback rules of contract.md §E1.5.
*/
import type {ToolCallView} from '../tools/views.js';
import type {Presenter, PresenterFailure} from './presenters.js';
import {asCallView} from './view-guards.js';

/** Parsed call arguments. An empty string means `{}` (as the agent loop executes it). */
export type ParsedArguments = {readonly ok: true; readonly value: unknown} | {readonly ok: false};

/** Argument texts up to this long nest at most 512 levels, which `JSON.stringify` always serialises. */
const SHALLOW_ARGUMENT_CHARS = 1024;

export function parseArguments(raw: string): ParsedArguments {
	if (raw.trim() === '') {
		return {ok: true, value: {}};
	}

	try {
		const value = JSON.parse(raw) as unknown;
		// Nesting too deep to serialise again (`--json`, the generic card's input) counts as unparsable.
		// Each level takes two characters, and a few hundred levels serialise on any stack: only a
		// longer text can be that deep.
		if (raw.length > SHALLOW_ARGUMENT_CHARS) {
			JSON.stringify(value);
		}

		return {ok: true, value};
	} catch {
		return {ok: false};
	}
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
