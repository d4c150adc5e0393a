// Cards for in-process scenarios: the generated log folded by the real SessionFold with the
// reference presenters (the same path as `cardterm replay`).
import {referencePresenters} from '../../dist/src/acp/reference-presenters.js';
import {SessionFold} from '../../dist/src/session/fold/fold.js';
import {generateLogLines} from './log-generator.mjs';

/** A fold holding at least `count` settled cards (or the whole log of `maxEvents`). */
export function foldCards({count, seed = 1, maxEvents = 2_000_000, onSettled}) {
	const fold = new SessionFold(referencePresenters('/home/u/proj'));
	let settled = 0;
	let header = true;
	for (const line of generateLogLines({events: maxEvents, seed})) {
		if (header) {
			header = false;
			continue;
		}

		const change = fold.apply(JSON.parse(line));
		for (const entry of change.entries) {
			const card = entry.entry === 'card' ? entry.card : undefined;
			if (card !== undefined && card.status !== 'running') {
				settled++;
				onSettled?.(card, fold);
			}
		}

		if (settled >= count) {
			break;
		}
	}

	return fold;
}

/**
`count` distinct cards cycled from `cards`: clones get their own callId, so no layout cache entry
of one is reused for another (the cache keys on callId, revision and identity).
*/
export function cycleCards(cards, count) {
	if (cards.length >= count) {
		return cards.slice(0, count);
	}

	return Array.from({length: count}, (_, index) => {
		const card = cards[index % cards.length];
		return index < cards.length ? card : {...card, callId: `${card.callId}#${index}`, seq: card.seq + index * 1_000_000};
	});
}
