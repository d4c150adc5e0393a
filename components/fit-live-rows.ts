import type {StyledLine} from '../src/layout/text/styled-line.js';
import {pushAll} from '../src/layout/text/push-all.js';

/**
Fit the rows of the running cards into `budget` rows, so the live region never reaches the
terminal height (ink 6.8 clears the screen and the user's scrollback once it does).

Every card keeps its header row. Rows are taken from the oldest cards first; the newest card keeps
the tail of its body (live output ends there). A card that loses body rows says how many with one
`… N more` row when there is room for it.
*/
export function fitLiveRows(cards: ReadonlyArray<readonly StyledLine[]>, budget: number, marker: (hidden: number) => StyledLine): StyledLine[] {
	if (budget <= 0 || cards.length === 0) {
		return [];
	}

	const total = cards.reduce((sum, lines) => sum + lines.length, 0);
	if (total <= budget) {
		return cards.flat();
	}

	// Headers first: if even they do not fit, show the newest headers.
	if (cards.length >= budget) {
		return cards.slice(-budget).map(lines => lines[0]!).filter(Boolean);
	}

	let spare = budget - cards.length;
	const bodies = cards.map(lines => lines.length - 1);
	const kept = bodies.map(() => 0);
	// Give body rows to the newest card first (its live output matters most), then older ones.
	for (let index = cards.length - 1; index >= 0 && spare > 0; index--) {
		const take = Math.min(bodies[index]!, spare);
		kept[index] = take;
		spare -= take;
	}

	const rows: StyledLine[] = [];
	cards.forEach((lines, index) => {
		rows.push(lines[0]!);
		const body = bodies[index]!;
		let keep = kept[index]!;
		if (keep < body) {
			if (keep > 0) {
				rows.push(marker(body - keep + 1));
				keep--;
			}

			pushAll(rows, lines.slice(lines.length - keep));
		} else {
			pushAll(rows, lines.slice(1));
		}
	});
	return rows;
}
