/**
@module One row of facts that must fit a width: the status line and the queue's key hints. A fact may
take several forms (`retrying in 3s`, `… (attempt 2 of 5)`, `…: Too Many Requests`), each ranked by
importance: the row takes forms in rank order while they fit, so a narrow terminal keeps what matters
most and leaves out the rest whole, never cut mid-word; the facts keep their order on the row.
*/
import {displayWidth, truncateToWidth} from '../src/layout/text/text-width.js';

/** One form of a fact; a lower rank is more important. */
export type FactForm = {readonly text: string; readonly rank: number};

/** A fact's forms, shortest first; a longer form ranks after a shorter one (it adds detail). */
export type Fact = readonly FactForm[];

const SEPARATOR = ' · ';

/**
The facts on one row of `width` columns: in rank order, a fact's shortest form joins the row when it
fits, and a longer form replaces the one shown when the extra columns fit. Only a row that nothing
fits on whole shows its most important fact cut.
*/
export function fitFacts(facts: readonly Fact[], width: number): string {
	const steps = facts.flatMap((forms, fact) => forms.map((form, index) => ({fact, index, rank: form.rank}))).sort((a, b) => a.rank - b.rank);
	const chosen: Array<number | undefined> = facts.map(() => undefined);
	let used = 0;
	let shown = 0;
	for (const {fact, index} of steps) {
		const forms = facts[fact]!;
		if (index === 0) {
			const cost = displayWidth(forms[0]!.text) + (shown === 0 ? 0 : SEPARATOR.length);
			if (used + cost <= width) {
				chosen[fact] = 0;
				used += cost;
				shown++;
			}
		} else if (chosen[fact] === index - 1) {
			const extra = displayWidth(forms[index]!.text) - displayWidth(forms[index - 1]!.text);
			if (used + extra <= width) {
				chosen[fact] = index;
				used += extra;
			}
		}
	}

	if (shown === 0) {
		const first = steps[0];
		return first === undefined ? '' : truncateToWidth(facts[first.fact]![0]!.text, width);
	}

	return facts.flatMap((forms, fact) => chosen[fact] === undefined ? [] : [forms[chosen[fact]]!.text]).join(SEPARATOR);
}
