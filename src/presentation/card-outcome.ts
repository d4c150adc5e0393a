/**
@module The one outcome rule: how a tool call ended, for every tally, glyph, `e`/`E` jump, the
`sessions` column, the `outcome` field of `--json` and the exit code of `cardterm call`.

The rule reads only what a log records — the result's `isError`, `error.code`, text and `meta`, and
the approval events of the call — never a presenter's view, so the fold (which builds views) and
the lazy log index (which does not) compute the same outcome from the same lines.

- `pending`: no result yet, an approval asked and not answered; `running`: no result yet otherwise.
- `cancelled`: `error.code` `ABORTED` or `ABORTED_BEFORE_DISPATCH`.
- `interrupted`: no result and the call's step or turn has closed, or a crash-repair result
  (`TOOL_OUTCOME_UNKNOWN`, `TOOL_NOT_STARTED`).
- `denied`: an error result of a call whose approval was refused (`rejected`, an ACP agent's
  `rejected-always`, `cancelled`, `unavailable`). A refusal that left no approval event in the log
  reads as `error`: its result is indistinguishable from any unclassed failure (contract.md §E3.5).
- `error`: any other error result.
- `failed`: a result that is not an error but says the work failed — the terminal exit marker
  (`[exit code: N]`, N ≠ 0, or `[killed by signal: S]`) ends its one text block, or its `meta` has
  an integer `statusCode` ≥ 400 (an HTTP status).
- `ok`: anything else.
*/
import type {ContentBlock} from '../tools/content.js';
import type {CardStatus} from './card.js';

export type CardOutcome = 'pending' | 'running' | 'ok' | 'failed' | 'error' | 'denied' | 'cancelled' | 'interrupted';

/** Every outcome, in tally order. */
export const cardOutcomes: readonly CardOutcome[] = ['pending', 'running', 'ok', 'failed', 'error', 'denied', 'cancelled', 'interrupted'];

/** Top-level cards by outcome. */
export type OutcomeCounts = Readonly<Record<CardOutcome, number>>;

/** Where a call's approval stands: asked and unanswered, or answered. */
export type ApprovalStanding = 'asked' | 'allowed' | 'refused';

/** Everything the rule reads. */
export type OutcomeFacts = {
	/** The durable result; null while none came. */
	readonly result: {
		readonly content: readonly ContentBlock[];
		readonly isError: boolean;
		readonly error?: {readonly code: string};
		readonly meta?: unknown;
	} | null;
	/** The call's step or turn closed while it had no result. */
	readonly closed: boolean;
	readonly approval?: ApprovalStanding;
};

const cancelledCodes = new Set(['ABORTED', 'ABORTED_BEFORE_DISPATCH']);
const interruptedCodes = new Set(['TOOL_OUTCOME_UNKNOWN', 'TOOL_NOT_STARTED']);
const refusals = new Set(['rejected', 'rejected-always', 'cancelled', 'unavailable', 'denied']);

/** Whether an error `code` alone decides the outcome (a cancel, an unknown outcome): the card's glyph says it, and the code is a name for the log, not for a person. */
export function isOutcomeCode(code: string): boolean {
	return cancelledCodes.has(code) || interruptedCodes.has(code);
}

/** The terminal exit markers (contract.md §E2.1): the text's last line, after a newline. */
const signalMarker = /^\[killed by signal: ([^\]\n]+)\]$/;
const exitMarker = /^\[exit code: (-?\d+)\]$/;

/** The outcome of one call. */
export function cardOutcome(facts: OutcomeFacts): CardOutcome {
	const {result} = facts;
	if (result === null) {
		if (facts.closed) {
			// Refused and never reported on (an ACP agent need not send the call's end after a rejection): the person's no stands.
			return facts.approval === 'refused' ? 'denied' : 'interrupted';
		}

		return facts.approval === 'asked' ? 'pending' : 'running';
	}

	const code = result.error?.code;
	if (code !== undefined && cancelledCodes.has(code)) {
		return 'cancelled';
	}

	if (code !== undefined && interruptedCodes.has(code)) {
		return 'interrupted';
	}

	if (result.isError) {
		return facts.approval === 'refused' ? 'denied' : 'error';
	}

	return exitFailed(result.content) || httpFailed(result.meta) ? 'failed' : 'ok';
}

/** How an approval's recorded `outcome` stands. */
export function approvalStanding(outcome: string | undefined): ApprovalStanding {
	if (outcome === undefined) {
		return 'asked';
	}

	return refusals.has(outcome) ? 'refused' : 'allowed';
}

/**
The exit a terminal text ends with, and the text before its marker: `signal`, or `exitCode` (0 when
there is no marker). The bash presenter's terminal view is built from this too.
*/
export function terminalExit(text: string): {readonly output: string; readonly exitCode: number} | {readonly output: string; readonly signal: string} {
	// Only the last line is looked at: every result of a log passes here, some of them megabytes long.
	const newline = text.lastIndexOf('\n');
	const last = newline === -1 ? '' : text.slice(newline + 1);
	if (last.startsWith('[')) {
		const signal = signalMarker.exec(last);
		if (signal !== null) {
			return {output: text.slice(0, newline), signal: signal[1]!};
		}

		const exit = exitMarker.exec(last);
		if (exit !== null) {
			return {output: text.slice(0, newline), exitCode: Number(exit[1])};
		}
	}

	return {output: text, exitCode: 0};
}

function exitFailed(content: readonly ContentBlock[]): boolean {
	const block = content.length === 1 ? content[0] : undefined;
	if (block?.type !== 'text') {
		return false;
	}

	const exit = terminalExit(block.text);
	return 'signal' in exit || exit.exitCode !== 0;
}

function httpFailed(meta: unknown): boolean {
	const status = typeof meta === 'object' && meta !== null ? (meta as {statusCode?: unknown}).statusCode : undefined;
	return Number.isInteger(status) && (status as number) >= 400;
}

/** The contract's status (contract.md §E1.5) an outcome projects to: `failed` is `ok`, `denied` is `error`. */
export function outcomeStatus(outcome: CardOutcome): CardStatus {
	switch (outcome) {
		case 'pending':
		case 'running': {
			return 'running';
		}

		case 'failed': {
			return 'ok';
		}

		case 'denied': {
			return 'error';
		}

		default: {
			return outcome;
		}
	}
}

/** Settled, and not `ok`: what `e`/`E` jump between, what is drawn as a failure and opens further. */
export function isNotOk(outcome: CardOutcome): boolean {
	return outcome !== 'ok' && outcome !== 'running' && outcome !== 'pending';
}

/** Zero of every outcome. */
export function emptyOutcomeCounts(): Record<CardOutcome, number> {
	return {pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0};
}

/** Settled cards that are not `ok`, summed. */
export function notOkCount(counts: OutcomeCounts): number {
	let sum = 0;
	for (const outcome of cardOutcomes) {
		sum += isNotOk(outcome) ? counts[outcome] : 0;
	}

	return sum;
}

/** Cards in all. */
export function cardCount(counts: OutcomeCounts): number {
	let sum = 0;
	for (const outcome of cardOutcomes) {
		sum += counts[outcome];
	}

	return sum;
}

/** The glyph of each outcome, as card headers and tallies draw it. */
export const outcomeGlyphs: Readonly<Record<CardOutcome, string>> = {
	pending: '○',
	running: '○',
	ok: '●',
	failed: '✗',
	error: '✗',
	denied: '✗',
	cancelled: '⊘',
	interrupted: '◌',
};

/**
The tally every view prints: `● 3 ok  ✗ 1 failed  ✗ 1 denied`, only the outcomes that occurred, in
`cardOutcomes` order (`pending` reads `awaiting approval`). Empty when there are no cards.
*/
export function outcomeTally(counts: OutcomeCounts, separator = '  '): string {
	const parts: string[] = [];
	for (const outcome of cardOutcomes) {
		if (counts[outcome] > 0) {
			parts.push(`${outcomeGlyphs[outcome]} ${counts[outcome]} ${outcome === 'pending' ? 'awaiting approval' : outcome}`);
		}
	}

	return parts.join(separator);
}
