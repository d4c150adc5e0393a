/**
@module The completed view of a call, with the fallback rules of contract.md §E1.5.
*/
import type {ToolCallView, ToolResult, ToolResultView} from '../tools/views.js';
import type {Presenter, PresenterFailure} from './presenters.js';
import {asResultView} from './view-guards.js';

/**
The result view, or null when there is none (the raw result content is then the body).

`callView` is the card's pending view, or null for an orphan result. A presenter is consulted only
when the call's arguments are known; a generic view without content gets the raw content; a
terminal view under a pending card that is not a terminal is dropped (the orphan-terminal guard).
*/
export function resolveResultView(
	name: string,
	args: {readonly known: true; readonly value: unknown} | {readonly known: false},
	result: ToolResult,
	presenter: Presenter | undefined,
	callView: ToolCallView | null,
	onFailure?: (failure: PresenterFailure) => void,
): ToolResultView | null {
	if (!args.known || presenter?.presentResult === undefined) {
		return null;
	}

	let view: ToolResultView | undefined;
	try {
		view = asResultView(presenter.presentResult(args.value, result));
	} catch (error) {
		onFailure?.({toolName: name, phase: 'result', error});
		return null;
	}

	if (view === undefined) {
		return null;
	}

	if (view.card === 'generic' && view.content === undefined) {
		return {...view, content: result.content};
	}

	if (view.card === 'terminal' && callView !== null && callView.card !== 'terminal') {
		return null;
	}

	return view;
}
