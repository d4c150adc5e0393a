/**
@module An ACP agent's permission requests as the session's approval questions: the agent's options
become the dialog's choices (one per option kind it sent), the person's answer picks the option of
that kind; `--yolo` allows at once, and a session nobody watches (`acp -p`) rejects. A request with
no option the dialog can offer offers only to cancel it: never a choice the agent did not give.
*/
import {allowOption, rejectOption, type ApproveCallback, type PermissionChoice} from '../acp/acp-client.js';
import type {ApprovalAnswer, ApprovalChoice, Approvals} from './approvals.js';

/** The option an answer of the dialog picks: its kind, else the other option of the same polarity. */
export function optionForAnswer(answer: ApprovalAnswer, options: readonly PermissionChoice[]): PermissionChoice | undefined {
	const byKind = (...kinds: string[]) => kinds.map(kind => options.find(option => option.kind === kind)).find(option => option !== undefined);
	switch (answer) {
		case 'allowed-once': {
			return allowOption(options);
		}

		case 'allowed-session': {
			return byKind('allow_always', 'allow_once');
		}

		case 'rejected': {
			return rejectOption(options);
		}

		case 'rejected-always': {
			return byKind('reject_always', 'reject_once');
		}

		default: {
			return undefined;
		}
	}
}

/** The dialog's words per ACP option kind: every kind the agent offers is a choice of its own. */
const KIND_CHOICES: ReadonlyArray<{readonly kind: string; readonly words: string; readonly answer: ApprovalAnswer}> = [
	{kind: 'allow_once', words: 'allow once', answer: 'allowed-once'},
	{kind: 'allow_always', words: 'allow always', answer: 'allowed-session'},
	{kind: 'reject_once', words: 'reject once', answer: 'rejected'},
	{kind: 'reject_always', words: 'reject always', answer: 'rejected-always'},
];

/** The one choice of a request whose options the dialog cannot offer (none, or none of a kind ACP defines). */
export const CANCEL_ONLY: ApprovalChoice = {label: 'cancel the request', answer: 'cancelled'};

/** The dialog's choices for the agent's options, in the order above; the agent's name for each follows its kind. */
export function approvalChoices(options: readonly PermissionChoice[]): ApprovalChoice[] {
	const choices: ApprovalChoice[] = [];
	for (const {kind, words, answer} of KIND_CHOICES) {
		const option = options.find(each => each.kind === kind);
		if (option !== undefined) {
			// The agent's name for it, unless it says no more than the kind ("Allow", "Always allow"): the row must fit.
			const name = option.name.trim();
			const kindWords = new Set(words.split(' '));
			const named = name.toLowerCase().split(/\s+/).every(word => word === '' || kindWords.has(word)) ? '' : ` (${name})`;
			choices.push({label: `${words}${named}`, answer});
		}
	}

	return choices;
}

/** The client's permission callback on the session's `approvals`. */
export function acpApprovals(approvals: Approvals, yolo: boolean): ApproveCallback {
	return async question => {
		if (yolo) {
			return allowOption(question.options)?.optionId;
		}

		const offered = question.options.map(option => option.name).join(' / ');
		const choices = approvalChoices(question.options);
		const reply = await approvals.ask({
			request: {id: question.approvalId, toolName: question.title, callId: question.callId, reason: offeredWords(offered, choices.length), choices: choices.length === 0 ? [CANCEL_ONLY] : choices},
			signal: question.signal,
			unattended: 'rejected',
		});
		return reply === undefined ? undefined : optionForAnswer(reply.answer, question.options)?.optionId;
	};
}

/** What the dialog says the agent offers. */
function offeredWords(offered: string, known: number): string {
	if (offered === '') {
		return 'the agent offers no choice';
	}

	return known === 0 ? `the agent offers ${offered}, none of a kind ACP defines` : `the agent offers ${offered}`;
}
