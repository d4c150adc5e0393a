/**
@module The approval questions of a session, owned by the session rather than by a screen: a tool
call the rules hold back (the native runtime) and an ACP agent's permission request both ask here.
A live screen subscribes, shows the oldest question in its dialog and answers it; the next one
appears when it is answered or withdrawn (calls and agents may ask at the same time: one slot would
hide a question and leave its call waiting forever). While no screen is subscribed (`-p`), a
question gets at once the answer its asker gives for an unattended session. The tools the person
allowed for the rest of the session are kept here too: the approval rules read them.
*/
import type {ApprovalPrompt} from '../session/recorder/session-runtime.js';
import type {ApprovalOutcome} from '../tools/types.js';

/** An approval the person must answer. */
export type PendingApproval = {
	readonly id: string;
	readonly toolName: string;
	readonly callId: string;
	readonly reason?: string;
	/** The answers the asker offers, each on its own key (an ACP agent's options); absent: allow once / session / deny. */
	readonly choices?: readonly ApprovalChoice[];
};

/**
How the person answers an approval. `allowed-session` also allows the tool for the rest of the
session; `rejected-always` rejects it from now on (an ACP agent's reject-always option).
*/
export type ApprovalAnswer = ApprovalOutcome | 'allowed-session' | 'rejected-always';

/** One answer of the dialog: the key that gives it, and its words. */
export type ApprovalChoice = {readonly key: string; readonly label: string; readonly answer: ApprovalAnswer};

/** A question as its asker puts it. */
export type ApprovalQuestion = {
	readonly request: PendingApproval;
	/** Aborted when the asker withdraws the question (its call was cancelled, the agent gave up). */
	readonly signal?: AbortSignal;
	/** The answer while no screen is subscribed (absent: none, as for a withdrawn question). */
	readonly unattended?: ApprovalAnswer;
};

type Waiting = {readonly request: PendingApproval; readonly settle: (answer: ApprovalAnswer | undefined) => void};

export class Approvals {
	readonly #waiting: Waiting[] = [];
	readonly #screens = new Set<() => void>();
	readonly #allowed = new Set<string>();
	#closed = false;

	/**
	Ask the person; resolves with the answer, or undefined when the question is withdrawn, cancelled
	or the session closes first. With no screen subscribed: `question.unattended`, at once.
	*/
	async ask(question: ApprovalQuestion): Promise<ApprovalAnswer | undefined> {
		const {signal} = question;
		if (this.#closed || signal?.aborted === true) {
			return undefined;
		}

		if (this.#screens.size === 0) {
			return question.unattended;
		}

		return new Promise(resolve => {
			const withdraw = (): void => {
				settle(undefined);
			};

			const settle = (answer: ApprovalAnswer | undefined): void => {
				signal?.removeEventListener('abort', withdraw);
				const at = this.#waiting.indexOf(waiting);
				if (at !== -1) {
					this.#waiting.splice(at, 1);
				}

				resolve(answer);
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

	/** The person's answer to the shown question. */
	answer(answer: ApprovalAnswer): void {
		this.#waiting[0]?.settle(answer);
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

	/** Tools the person allowed for the rest of the session. */
	get sessionAllowed(): ReadonlySet<string> {
		return this.#allowed;
	}

	/** Allow `tool` for the rest of the session (an `allowed-session` answer). */
	allow(tool: string): void {
		this.#allowed.add(tool);
	}

	#changed(): void {
		for (const listener of this.#screens) {
			listener();
		}
	}
}

/**
The runtime's approval prompt on `approvals`: a call's question, answered by the person (`unavailable`
while no screen shows it); `allowed-session` allows the tool for the rest of the session.
*/
export function callApprovals(approvals: Approvals): ApprovalPrompt {
	return async request => {
		const answer = await approvals.ask({
			request: {id: request.id, toolName: request.toolName, callId: request.callId, ...(request.reason === undefined ? {} : {reason: request.reason})},
			signal: request.signal,
			unattended: 'unavailable',
		});
		if (answer === 'allowed-session') {
			approvals.allow(request.toolName);
		}

		return callOutcome(answer);
	};
}

/** The outcome the log records for an answer to a call's question (a withdrawn one was cancelled). */
function callOutcome(answer: ApprovalAnswer | undefined): ApprovalOutcome {
	switch (answer) {
		case undefined: {
			return 'cancelled';
		}

		case 'allowed-session': {
			return 'allowed-once';
		}

		case 'rejected-always': {
			return 'rejected';
		}

		default: {
			return answer;
		}
	}
}
