/**
@module The presenter of other agents' calls (`<format>:<tool>`, foreign-views.ts): the card a
foreign reader recorded in the call's arguments (`view`) and in the result's `meta` (`view`), each
used only when well formed (view-guards.ts), else the card falls back to its generic form.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {Presenter, PresenterLookup} from '../../presentation/presenters.js';
import {asCallView, asResultView} from '../../presentation/view-guards.js';
import {foreignToolName} from '../../presentation/tool-name.js';

const viewOf = (value: unknown): unknown => (isJsonObject(value) ? value.view : undefined);

export const foreignPresenter: Presenter = {
	presentCall: args => asCallView(viewOf(args)),
	presentResult: (_args, result) => asResultView(viewOf(result.meta)),
};

/** Whether `name` is a call recorded by a foreign reader. */
export function isForeignToolName(name: string): boolean {
	return foreignToolName(name) !== undefined;
}

/** `fallback`, with the foreign calls' presenter for their names. */
export function withForeignPresenter(fallback: PresenterLookup): PresenterLookup {
	return name => (isForeignToolName(name) ? foreignPresenter : fallback(name));
}
