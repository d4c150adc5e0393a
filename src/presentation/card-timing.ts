/**
@module A card's times: how long its call ran, and apart from it how long its approval waited. A call
that asked runs from its answer, not from its `tool/call` (a 0.8 s command that waited 13 s for the
person is a 0.8 s run); a refused call never ran. A grant given before, or a session nobody watches
(`unavailable`), answers at once: no wait.
*/
import type {Card} from './card.js';
import {approvalStanding} from './card-outcome.js';

export type CardTiming = {
	/** When the call began to run (its approval's answer, else its call); null without a call time or when it never ran. */
	readonly runStart: number | null;
	/** How long a settled call ran; null while it runs, without times, or when it never ran (refused). */
	readonly runMs: number | null;
	/** How long its approval waited for the person (absent: none was asked, a grant or an unattended session answered, or times are missing). */
	readonly waitMs?: number;
};

/** The card's run time and approval wait. */
export function cardTiming(card: Card): CardTiming {
	const {approval} = card;
	const decided = approval?.state === 'decided' ? approval : undefined;
	const refused = decided !== undefined && approvalStanding(decided.outcome) === 'refused';
	const runStart = refused ? null : (decided?.decidedTime ?? card.callTime);
	const runMs = runStart !== null && card.resultTime !== null ? Math.max(0, card.resultTime - runStart) : null;
	// `unavailable`: nobody could be asked (`-p`), so nobody waited.
	const waited = decided !== undefined && decided.standing !== true && decided.outcome !== 'unavailable' && decided.askedTime !== undefined && decided.decidedTime !== undefined;
	return {runStart, runMs, ...(waited ? {waitMs: Math.max(0, decided.decidedTime! - decided.askedTime!)} : {})};
}
