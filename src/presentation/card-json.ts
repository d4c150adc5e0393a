import type {ToolCallView, ToolResultView} from '../tools/views.js';
import type {Card, CardStatus} from './card.js';
import type {CardOutcome} from './card-outcome.js';
import {cardTiming} from './card-timing.js';

/** The `--json` shape of a card (README, "Using it"): the folded model, for `jq`, tests and benchmarks. */
export type CardJson = {
	readonly callId: string;
	readonly name: string;
	readonly status: CardStatus;
	/** How the call ended, by the one outcome rule (`card-outcome.ts`): `failed` for a non-zero exit or HTTP ≥ 400, `denied` for a refused approval. */
	readonly outcome: CardOutcome;
	readonly call: ToolCallView;
	/** The result view; a card whose presenter gave none shows its raw content, as a generic view. Null while running. */
	readonly result: ToolResultView | null;
	readonly isError: boolean;
	readonly error: {readonly name: string; readonly code: string} | null;
	/** How long the call ran (from its approval's answer when it asked; null while running or when it never ran). */
	readonly durationMs: number | null;
	/** How long its approval waited for the person, when one was asked (`card-timing.ts`). */
	readonly approvalWaitMs?: number;
	readonly children: readonly CardJson[];
	/** Present (true) when the card's visible command output hides text the command wrote; `result.output` has it all. */
	readonly outputHidesText?: true;
};

/** Checks of a card that only lower layers can make (presentation may not import the layout). */
export type CardJsonChecks = {
	/** Whether the card's command output, as shown, hides text (src/layout `cardOutputHidesText`). */
	readonly outputHidesText?: (card: Card) => boolean;
};

/**
The one function that builds the JSON object of a card, so `call --json` and `replay --json` print
identical bytes for the same call (durations aside). `checks` adds what only the layout can tell
(`outputHidesText`); the commands pass it.
*/
export function cardToJson(card: Card, checks: CardJsonChecks = {}): CardJson {
	const timing = cardTiming(card);
	return {
		callId: card.callId,
		name: card.name,
		status: card.status,
		outcome: card.outcome,
		call: card.callView,
		// What the card shows: without a result view, the raw result content (contract.md §E1.5).
		result: card.resultView ?? (card.result === null ? null : {card: 'generic', content: card.result.content}),
		isError: card.result?.isError ?? false,
		error: card.result?.error ?? null,
		durationMs: timing.runMs,
		...(timing.waitMs === undefined ? {} : {approvalWaitMs: timing.waitMs}),
		children: card.children.map(child => cardToJson(child, checks)),
		...(checks.outputHidesText?.(card) === true ? {outputHidesText: true as const} : {}),
	};
}
