/**
@module The pager's search position: which entries match a query (case-insensitive, in the text `/`
searches), and how the status line names the cursor's place among them (`match 2/5`). Pure.
*/
import type {EntrySource} from '../../src/transcript/entry-source.js';
import {entrySearchText} from './card-text.js';

/** The numbers of the entries of `source` whose search text contains `query`, ascending. */
export function searchMatches(source: EntrySource, query: string): number[] {
	const needle = query.toLowerCase();
	const found: number[] = [];
	const count = source.count();
	for (let index = 0; index < count; index++) {
		const entry = source.entry(index);
		if (entry !== undefined && entrySearchText(entry).toLowerCase().includes(needle)) {
			found.push(index);
		}
	}

	return found;
}

/** `match i/N` when the cursor is on the i-th match, `N matches` (or `no matches`) when it is elsewhere. */
export function matchPosition(matches: readonly number[], cursor: number): string {
	if (matches.length === 0) {
		return 'no matches';
	}

	// Binary search: the list is ascending.
	let low = 0;
	let high = matches.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (matches[middle]! < cursor) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}

	return matches[low] === cursor ? `match ${low + 1}/${matches.length}` : `${matches.length} match${matches.length === 1 ? '' : 'es'}`;
}
