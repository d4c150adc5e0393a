/**
@module The card model: what the fold produces from events and every surface draws.
Cards are plain immutable data. Views are recomputed through presenters, never persisted.
*/
import type {ContentBlock} from '../tools/content.js';
import type {ToolErrorInfo} from '../tools/types.js';
import type {ToolCallView, ToolResultView} from '../tools/views.js';
import type {CardOutcome} from './card-outcome.js';

/**
A card's status as the contract words it (contract.md §E1.5), projected from its outcome
(`card-outcome.ts`, `outcomeStatus`): `running`: no result yet. `ok`/`error`: by `isError`.
`cancelled`: an `ABORTED` or `ABORTED_BEFORE_DISPATCH` result. `interrupted`: no result and its step
or turn has closed, or a crash-repair result (`TOOL_OUTCOME_UNKNOWN`, `TOOL_NOT_STARTED`).
*/
export type CardStatus = 'running' | 'ok' | 'error' | 'cancelled' | 'interrupted';

/** The durable result a card completed with. */
export type CardResult = {
	readonly content: readonly ContentBlock[];
	readonly isError: boolean;
	/** Present only when the failure was classed. */
	readonly error?: ToolErrorInfo;
	/** The tool's persisted presentation meta, if any. */
	readonly meta?: unknown;
};

/** Live output of a running call (bounded tail), from ignorable progress events. */
export type CardProgress = {
	readonly text: string;
	/** Whether older output was dropped to keep the tail bounded. */
	readonly truncated: boolean;
};

/**
Approval state of a call whose policy answered *ask*, with the epoch ms it was asked and answered
(the wait is not the call's run time). `standing`: a grant given before answered, nobody was asked;
`feedback`: the person's words to the model with a refusal.
*/
export type CardApproval =
	| {readonly state: 'asked'; readonly id: string; readonly reason?: string; readonly askedTime?: number}
	| {
		readonly state: 'decided';
		readonly id: string;
		readonly reason?: string;
		readonly outcome: string;
		readonly askedTime?: number;
		readonly decidedTime?: number;
		readonly standing?: boolean;
		readonly feedback?: string;
	};

/** One tool call, as every surface draws it. */
export type Card = {
	readonly callId: string;
	/** Tool name; `tool` for an orphan result whose call is unknown. */
	readonly name: string;
	/** The raw argument string, exactly as recorded (sub-calls: `JSON.stringify(arguments)`). */
	readonly argsRaw: string;
	/** The parsed arguments, or `undefined` when `argsRaw` does not parse. */
	readonly args: unknown;
	/** Seq of the event that anchors the card in the transcript (the call, or the result for orphans). */
	readonly seq: number;
	readonly turn?: number;
	readonly step?: number;
	/** Epoch ms of the call event; null for an orphan result. */
	readonly callTime: number | null;
	/** Epoch ms of the result event; null while running or interrupted without a result. */
	readonly resultTime: number | null;
	readonly status: CardStatus;
	/** How the call ended (the one outcome rule, `card-outcome.ts`); `status` is its projection. */
	readonly outcome: CardOutcome;
	/** The pending view: the presenter's, or the synthesized generic fallback. */
	readonly callView: ToolCallView;
	/** The completed view, or null when the presenter declined (then the raw result content is the body). */
	readonly resultView: ToolResultView | null;
	readonly result: CardResult | null;
	readonly approval?: CardApproval;
	readonly progress?: CardProgress;
	/** Code Mode sub-calls, in start order. */
	readonly children: readonly Card[];
	/** Incremented on every change; layout caches key on it. */
	readonly revision: number;
	/**
	A call the model made that has not started: it waits for the calls before it (the agent runs calls
	that may change things one at a time). Only the live screen's cards of waiting calls have it
	(`SessionFold.queued`); a log's cards never do.
	*/
	readonly queued?: true;
};
