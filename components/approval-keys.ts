/**
@module What a key does while an approval question is shown. Answering takes a deliberate action:
↑/↓ move through the choices and Enter on an empty prompt confirms the one marked — the peers'
list confirmed with Enter. Every other key keeps its meaning at the prompt, so text typed while a
call waits stays text in the input (a letter never answers, as `s` once granted a tool for the whole
session in the middle of "hello sam"), and Enter on a typed line sends the line as it always does.
The one exception: a choice that takes words (a refusal telling the agent what to do instead) is
confirmed by Enter with the words typed at the prompt.
*/
import type {Key} from './input/keys.js';
import type {PendingApproval} from './session-model.js';

/** What the key does: move the mark, answer, say something, or nothing special (the prompt takes it). */
export type ApprovalKeyAction =
	| {readonly kind: 'move'; readonly selected: number}
	| {readonly kind: 'answer'; readonly choice: number; readonly words?: string}
	| {readonly kind: 'hint'; readonly text: string}
	| {readonly kind: 'prompt'};

/** The prompt's hint while a choice that takes words is marked and nothing is typed yet. */
export const WORDS_HINT = 'type what the agent should do instead, then Enter';

/** The key `key` (`input`) with `approval` shown, `selected` marked and `text` at the prompt. */
export function approvalKey(approval: PendingApproval, selected: number, text: string, input: string, key: Key): ApprovalKeyAction {
	const last = approval.choices.length - 1;
	if (key.paste === true || key.ctrl === true || key.meta === true) {
		return {kind: 'prompt'};
	}

	if (key.upArrow === true) {
		return {kind: 'move', selected: Math.max(0, selected - 1)};
	}

	if (key.downArrow === true) {
		return {kind: 'move', selected: Math.min(last, selected + 1)};
	}

	if (key.return !== true || key.shift === true || input !== '') {
		return {kind: 'prompt'};
	}

	const choice = approval.choices[selected];
	if (choice === undefined) {
		return {kind: 'prompt'};
	}

	if (choice.words === true) {
		const words = text.trim();
		return words === '' ? {kind: 'hint', text: WORDS_HINT} : {kind: 'answer', choice: selected, words};
	}

	// A typed line is a line: Enter sends it, and the question still waits.
	return text.trim() === '' ? {kind: 'answer', choice: selected} : {kind: 'prompt'};
}
