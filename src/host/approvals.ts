/**
@module The approval questions of a session, owned by the session rather than by a screen: a tool
call the rules hold back (the native runtime) and an ACP agent's permission request both ask here.
A live screen subscribes, shows the oldest question in its dialog and answers it; the next one
appears when it is answered or withdrawn (calls and agents may ask at the same time: one slot would
hide a question and leave its call waiting forever). While no screen is subscribed (`-p`), a
question gets at once the answer its asker gives for an unattended session.

The grants the person gave for the rest of the session are kept here too. A grant covers the tool
for the reasons it was asked (the rules that matched, `approval-rules.ts`), never a call another
rule asks about, and a question a rule asks every time (`.git/`, `.cardterm/`) offers none. A call a
grant covers is answered without a question, and the log says so (`standing`).
*/
import type {RuleQuestion} from '../config/approval-rules.js';
import type {ApprovalDecision, ApprovalPrompt} from '../session/recorder/session-runtime.js';
import type {PostExecuteListener} from '../tools/registry-hooks.js';
import type {ApprovalOutcome} from '../tools/types.js';

/** An approval the person must answer. */
export type PendingApproval = {
	readonly id: string;
	readonly toolName: string;
	readonly callId: string;
	readonly reason?: string;
	/** The answers offered, in order: the dialog starts on the first, the person moves and confirms with Enter. */
	readonly choices: readonly ApprovalChoice[];
	/** What Esc does, as the dialog's last row says it (absent: "cancels the call"; a question about no call says its own). */
	readonly escapes?: string;
};

/**
How the person answers an approval. `allowed-session` also allows the tool for the rest of the
session (for the same reasons); `rejected-always` rejects it from now on (an ACP agent's option).
*/
export type ApprovalAnswer = ApprovalOutcome | 'allowed-session' | 'rejected-always';

/** One answer of the dialog, in words; `words`: the prompt's text goes with it, to the model. */
export type ApprovalChoice = {readonly label: string; readonly answer: ApprovalAnswer; readonly words?: true};

/** The person's reply: the answer chosen, and the words typed with a choice that takes them. */
export type ApprovalReply = {readonly answer: ApprovalAnswer; readonly words?: string};

/** A question as its asker puts it. */
export type ApprovalQuestion = {
	readonly request: PendingApproval;
	/** Aborted when the asker withdraws the question (its call was cancelled, the agent gave up). */
	readonly signal?: AbortSignal;
	/** The answer while no screen is subscribed (absent: none, as for a withdrawn question). */
	readonly unattended?: ApprovalAnswer;
};

type Waiting = {readonly request: PendingApproval; readonly settle: (reply: ApprovalReply | undefined) => void};

/** Rule questions noted and not yet asked, kept at most (a call the registry refused before asking leaves its note). */
const NOTED_QUESTIONS = 1024;

export class Approvals {
	readonly #waiting: Waiting[] = [];
	readonly #screens = new Set<() => void>();
	/** tool → the reasons its grants for the rest of the session cover. */
	readonly #grants = new Map<string, Set<string>>();
	/** Tools allowed in advance whatever the rules ask (`-p --allow`). */
	readonly #allowedTools = new Set<string>();
	/** callId → the question the rules are about to ask for it. */
	readonly #noted = new Map<string, RuleQuestion>();
	/** callId → the person's words with a refusal, until the call's result carries them. */
	readonly #words = new Map<string, string>();
	#closed = false;

	/**
	Ask the person; resolves with the reply, or undefined when the question is withdrawn, cancelled
	or the session closes first. With no screen subscribed: `question.unattended`, at once.
	*/
	async ask(question: ApprovalQuestion): Promise<ApprovalReply | undefined> {
		const {signal} = question;
		if (this.#closed || signal?.aborted === true) {
			return undefined;
		}

		if (this.#screens.size === 0) {
			return question.unattended === undefined ? undefined : {answer: question.unattended};
		}

		return new Promise(resolve => {
			const withdraw = (): void => {
				settle(undefined);
			};

			const settle = (reply: ApprovalReply | undefined): void => {
				signal?.removeEventListener('abort', withdraw);
				const at = this.#waiting.indexOf(waiting);
				if (at !== -1) {
					this.#waiting.splice(at, 1);
				}

				resolve(reply);
				if (at !== -1) {
					this.#changed();
				}
			};

			const waiting: Waiting = {request: question.request, settle};
			signal?.addEventListener('abort', withdraw, {once: true});
			this.#waiting.push(waiting);
			this.#changed();
		});
	}

	/** The question the dialog shows: the oldest one waiting. */
	get current(): PendingApproval | undefined {
		return this.#waiting[0]?.request;
	}

	/** Questions asked and not answered, the shown one included. */
	get size(): number {
		return this.#waiting.length;
	}

	/** The person's answer to the shown question, with the words typed for a choice that takes them. */
	answer(answer: ApprovalAnswer, words?: string): void {
		const text = words?.trim();
		this.#waiting[0]?.settle(text === undefined || text === '' ? {answer} : {answer, words: text});
	}

	/** Withdraw every waiting question (the work that asked is cancelled): each resolves undefined. */
	cancelAll(): void {
		const waiting = this.#waiting.splice(0);
		for (const each of waiting) {
			each.settle(undefined);
		}

		if (waiting.length > 0) {
			this.#changed();
		}
	}

	/** The session closes: every waiting question is withdrawn, and later ones get no answer. */
	close(): void {
		this.#closed = true;
		this.cancelAll();
	}

	/** A screen shows the questions: `listener` hears every change; while one listens, questions wait for an answer. */
	subscribe(listener: () => void): () => void {
		this.#screens.add(listener);
		return () => this.#screens.delete(listener);
	}

	/** The rules are about to ask about `callId` (the approval policy tells; `callApprovals` reads it). */
	readonly asking = (callId: string, question: RuleQuestion): void => {
		this.#noted.delete(callId);
		this.#noted.set(callId, question);
		if (this.#noted.size > NOTED_QUESTIONS) {
			this.#noted.delete(this.#noted.keys().next().value!);
		}
	};

	/** The tools allowed for the rest of the session, each with the reasons its grant covers. */
	get grants(): ReadonlyArray<{readonly tool: string; readonly reason: string}> {
		return [...this.#grants].flatMap(([tool, reasons]) => [...reasons].map(reason => ({tool, reason})));
	}

	/** Allow `tool` for the rest of the session, for calls asked for `reason`. */
	grant(tool: string, reason: string): void {
		let reasons = this.#grants.get(tool);
		if (reasons === undefined) {
			reasons = new Set();
			this.#grants.set(tool, reasons);
		}

		reasons.add(reason);
	}

	/**
	Allow `tool` in advance for every reason the rules ask (`-p --allow TOOL`: nobody is there to
	answer); a question a rule asks every time is still asked.
	*/
	allowTool(tool: string): void {
		this.#allowedTools.add(tool);
	}

	/** Whether a grant covers a call of `tool` asked for `reason`. */
	covers(tool: string, reason: string): boolean {
		return this.#allowedTools.has(tool) || this.#grants.get(tool)?.has(reason) === true;
	}

	/** The question noted for `callId`, once. */
	takeQuestion(callId: string): RuleQuestion | undefined {
		const question = this.#noted.get(callId);
		this.#noted.delete(callId);
		return question;
	}

	/** Keep the person's words for the refused call `callId`, for its result. */
	keepWords(callId: string, words: string): void {
		this.#words.set(callId, words);
	}

	/** The person's words for the refused call `callId`, once. */
	takeWords(callId: string): string | undefined {
		const words = this.#words.get(callId);
		this.#words.delete(callId);
		return words;
	}

	#changed(): void {
		for (const listener of this.#screens) {
			listener();
		}
	}
}

/** The dialog's choices for a call's question; a question asked every time offers no grant. */
export function callChoices(tool: string, everyTime: boolean): ApprovalChoice[] {
	return [
		{label: 'Yes, once', answer: 'allowed-once'},
		...(everyTime ? [] : [{label: `Yes, and allow ${tool} like this for the rest of the session`, answer: 'allowed-session' as const}]),
		{label: 'No', answer: 'rejected'},
		{label: 'No, and tell the agent what to do differently (type it, then Enter)', answer: 'rejected', words: true},
	];
}

/**
The runtime's approval prompt on `approvals`: a call a grant covers is allowed at once (standing);
otherwise the person is asked (`unavailable` while no screen shows it), and `allowed-session`
grants the tool for the question's reasons. Words given with a refusal are kept for the result.
*/
export function callApprovals(approvals: Approvals): ApprovalPrompt {
	return async request => {
		const question = approvals.takeQuestion(request.callId) ?? {reason: request.reason ?? '', everyTime: false};
		if (!question.everyTime && approvals.covers(request.toolName, question.reason)) {
			return {outcome: 'allowed-once', grant: 'session', standing: true};
		}

		const reply = await approvals.ask({
			request: {id: request.id, toolName: request.toolName, callId: request.callId, ...(request.reason === undefined ? {} : {reason: request.reason}), choices: callChoices(request.toolName, question.everyTime)},
			signal: request.signal,
			unattended: 'unavailable',
		});
		const decision = callDecision(reply);
		if (decision.grant === 'session') {
			approvals.grant(request.toolName, question.reason);
		}

		if (decision.feedback !== undefined) {
			approvals.keepWords(request.callId, decision.feedback);
		}

		return decision;
	};
}

/** What the log records for a reply to a call's question (a withdrawn one was cancelled). */
function callDecision(reply: ApprovalReply | undefined): ApprovalDecision {
	if (reply === undefined) {
		return {outcome: 'cancelled'};
	}

	switch (reply.answer) {
		case 'allowed-session': {
			return {outcome: 'allowed-once', grant: 'session'};
		}

		case 'rejected':
		case 'rejected-always': {
			return reply.words === undefined ? {outcome: 'rejected'} : {outcome: 'rejected', feedback: reply.words};
		}

		default: {
			return {outcome: reply.answer};
		}
	}
}

/**
A `tools/post-execute` listener that puts the person's words given with a refusal into the refused
call's result, where the model reads them (the registry's refusal says only that it was refused).
*/
export function refusalWords(approvals: Approvals): PostExecuteListener {
	return async (exec, result, next) => {
		const words = approvals.takeWords(exec.callId);
		const decision = await next();
		if (words === undefined || !result.isError || decision.kind !== 'accept' || decision.content !== undefined || decision.value !== undefined) {
			return decision;
		}

		return {...decision, content: [{type: 'text', text: `Error: ${result.error.message}, and said what to do instead: ${words}`}]};
	};
}
