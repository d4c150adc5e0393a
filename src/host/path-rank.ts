/**
@module The `@` picker's fuzzy match: the query's characters in order in a path (case-insensitive),
ranked as a person expects — a match in the file's own name before one spread over folders, runs of
adjacent characters and starts of words (after `/`, `-`, `_`, `.`, a capital) before scattered
ones, shorter paths before longer. Pure and allocation-light: one pass over the index per query,
a cheap `indexOf` chain rejecting most paths before any scoring, and only the best `limit` kept.
*/

/** A ranked path: its index in the list, its score, and where the query's characters matched (for highlighting). */
export type RankedPath = {readonly index: number; readonly score: number; readonly positions: readonly number[]};

const SEPARATORS = new Set(['/', '-', '_', '.', ' ']);

/** Whether `query` (lower case) is a subsequence of `text` (lower case) from `from` on. */
function subsequence(text: string, query: string, from: number): boolean {
	let at = from - 1;
	for (let index = 0; index < query.length; index++) {
		at = text.indexOf(query[index]!, at + 1);
		if (at === -1) {
			return false;
		}
	}

	return true;
}

/**
Where the query's characters match in `text` from `from` on, each placed greedily but preferring a
word start or the character right after the previous match when one comes before the next word.
*/
function positionsIn(text: string, lowered: string, query: string, from: number): number[] {
	const positions: number[] = [];
	let at = from - 1;
	for (let index = 0; index < query.length; index++) {
		const char = query[index]!;
		const next = lowered.indexOf(char, at + 1);
		// A word start further on is worth more than a scattered match here, if the rest still fits after it.
		let chosen = next;
		if (next !== at + 1) {
			for (let probe = next; probe !== -1; probe = lowered.indexOf(char, probe + 1)) {
				if (wordStart(text, probe)) {
					if (subsequence(lowered, query.slice(index + 1), probe + 1)) {
						chosen = probe;
					}

					break;
				}
			}
		}

		positions.push(chosen);
		at = chosen;
	}

	return positions;
}

function wordStart(text: string, index: number): boolean {
	if (index === 0) {
		return true;
	}

	const before = text[index - 1]!;
	const char = text[index]!;
	return SEPARATORS.has(before) || (char >= 'A' && char <= 'Z' && before >= 'a' && before <= 'z');
}

function scoreOf(text: string, positions: readonly number[], nameStart: number): number {
	let score = 0;
	for (let index = 0; index < positions.length; index++) {
		const at = positions[index]!;
		if (index > 0 && at === positions[index - 1]! + 1) {
			score += 8;
		}

		if (wordStart(text, at)) {
			score += 6;
		}

		if (at >= nameStart) {
			score += 4;
		}
	}

	// All of it in the name, from its first character: the file a person means.
	if (positions[0] === nameStart) {
		score += 10;
	}

	return score * 100 - text.length;
}

/** The start of a path's last segment (a folder's trailing `/` aside). */
function nameStartOf(text: string): number {
	const end = text.endsWith('/') ? text.length - 2 : text.length - 1;
	return text.lastIndexOf('/', end) + 1;
}

/**
A path's score for `query` without placing its characters (most queries match thousands of paths;
only the kept ones are placed): the query as the name's start, in the name, in the path, then
spread over the name or the path; shorter paths first within each.
*/
function quickScore(lower: string, wanted: string, nameStart: number): number {
	let tier: number;
	if (lower.startsWith(wanted, nameStart)) {
		tier = 5;
	} else if (lower.includes(wanted, nameStart)) {
		tier = 4;
	} else if (lower.includes(wanted)) {
		tier = 3;
	} else if (subsequence(lower, wanted, nameStart)) {
		tier = 2;
	} else {
		tier = 1;
	}

	return tier * 1_000_000 - lower.length;
}

/** Where a kept path's characters matched, and its final score (the placing refines ties within a tier). */
function placed(text: string, lower: string, wanted: string, quick: number): {readonly score: number; readonly positions: number[]} {
	const nameStart = nameStartOf(text);
	const positions = subsequence(lower, wanted, nameStart) ? positionsIn(text, lower, wanted, nameStart) : positionsIn(text, lower, wanted, 0);
	return {score: quick + scoreOf(text, positions, nameStart), positions};
}

/** Kept candidates, best first, at most `limit`. */
class Best {
	readonly items: Array<{index: number; score: number}> = [];
	readonly #limit: number;

	constructor(limit: number) {
		this.#limit = limit;
	}

	/** Whether `score` would be kept. */
	wants(score: number): boolean {
		return this.items.length < this.#limit || score > this.items.at(-1)!.score;
	}

	add(index: number, score: number): void {
		let at = this.items.length;
		while (at > 0 && this.items[at - 1]!.score < score) {
			at--;
		}

		this.items.splice(at, 0, {index, score});
		if (this.items.length > this.#limit) {
			this.items.pop();
		}
	}
}

/**
The best `limit` of `paths` for `query`, best first, and every index that matched (what a query
extending this one need look at); `lowered[i]` is `paths[i]` in lower case, and `among`, when
given, the indices to look at. An empty query ranks the shallowest paths first.
*/
export function rankPaths(paths: readonly string[], lowered: readonly string[], query: string, limit: number, among?: readonly number[]): {readonly ranked: RankedPath[]; readonly matches: number[]} {
	const wanted = query.toLowerCase();
	const best = new Best(limit * 2);
	const matches: number[] = [];
	const count = among === undefined ? lowered.length : among.length;
	for (let at = 0; at < count; at++) {
		const index = among === undefined ? at : among[at]!;
		const lower = lowered[index]!;
		if (wanted === '') {
			let depth = 0;
			for (let slash = lower.indexOf('/'); slash !== -1 && slash < lower.length - 1; slash = lower.indexOf('/', slash + 1)) {
				depth++;
			}

			const score = -depth * 1_000_000 - lower.length;
			if (best.wants(score)) {
				best.add(index, score);
			}

			continue;
		}

		if (!subsequence(lower, wanted, 0)) {
			continue;
		}

		matches.push(index);
		const score = quickScore(lower, wanted, nameStartOf(lower));
		if (best.wants(score)) {
			best.add(index, score);
		}
	}

	// The kept ones (twice as many as shown, so a placing can reorder within reach) placed and ranked again.
	const ranked = best.items.map(({index, score}) => {
		if (wanted === '') {
			return {index, score, positions: []};
		}

		return {index, ...placed(paths[index]!, lowered[index]!, wanted, score)};
	});
	ranked.sort((a, b) => b.score - a.score || a.index - b.index);
	return {ranked: ranked.slice(0, limit), matches};
}
