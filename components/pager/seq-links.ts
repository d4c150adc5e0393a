/**
@module Links from log seqs to the pager's entries: a compaction card's ranges (`l`) and the seqs
`/context` lists (`/#N`). Entries are in the order of their anchor seqs, so an entry is found by a
binary search that builds only the few entries it looks at (a lazy log index stays lazy). A message
the model saw is mapped to its entry by the source's context timeline (a result to its card, a
replacement to the first entry it took out). Pure.
*/
import type {CompactionEntry} from '../../src/presentation/entry.js';
import type {EntrySource} from '../../src/transcript/entry-source.js';
import {entryKey} from '../../src/transcript/live-entry-source.js';

/** The index of the entry that holds log seq `seq` (the newest entry anchored at or before it), if any. */
export function entryHolding(source: EntrySource, seq: number): number | undefined {
	const anchor = source.context?.()?.entryOf(seq) ?? seq;
	const after = firstFrom(source, anchor);
	const at = after === undefined ? undefined : source.entry(after);
	if (at !== undefined && entryKey(at) === anchor) {
		return after;
	}

	const before = (after ?? source.count()) - 1;
	return before >= 0 ? before : undefined;
}

/** The index of the first entry a compaction card's range took out (summarised, else pruned), or why there is none. */
export function compactionTarget(source: EntrySource, entry: CompactionEntry): number | string {
	const range = entry.summarised?.range ?? entry.pruned?.range;
	if (range === undefined) {
		return 'l: this compaction card names no range of entries';
	}

	const anchor = source.context?.()?.entryOfRange(range) ?? range.start;
	return firstFrom(source, anchor) ?? `l: log seq ${range.start} is not among the entries shown`;
}

/** The first entry whose anchor seq is at least `seq`. */
function firstFrom(source: EntrySource, seq: number): number | undefined {
	let low = 0;
	let high = source.count();
	while (low < high) {
		const middle = (low + high) >>> 1;
		const entry = source.entry(middle);
		if (entry !== undefined && entryKey(entry) < seq) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}

	return low < source.count() ? low : undefined;
}
