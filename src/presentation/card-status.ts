import type {ToolResultView} from '../tools/views.js';
import type {CardResult, CardStatus} from './card.js';

const cancelledCodes = new Set(['ABORTED', 'ABORTED_BEFORE_DISPATCH']);
const interruptedCodes = new Set(['TOOL_OUTCOME_UNKNOWN', 'TOOL_NOT_STARTED']);

/** The status a result settles a card in (presentation-events.md §1.5). */
export function settledStatus(result: CardResult): CardStatus {
	const code = result.error?.code;
	if (code !== undefined && cancelledCodes.has(code)) {
		return 'cancelled';
	}

	if (code !== undefined && interruptedCodes.has(code)) {
		return 'interrupted';
	}

	return result.isError ? 'error' : 'ok';
}

/** A terminal result that exited non-zero or by a signal: `ok`, but drawn as a failed exit. */
export function isFailedExit(view: ToolResultView | null): boolean {
	return view?.card === 'terminal' && ((view.exitCode !== undefined && view.exitCode !== 0) || view.signal !== undefined);
}
