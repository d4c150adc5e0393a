/**
@module How much of a continued session the scrollback shows when it opens: all of it up to a bound,
else its newest entries. A terminal's scrollback only grows downwards, so the newest part of a long
history is the part that can be shown first; the bound keeps the start-up's layout and write
bounded however long the session ran (the pager, Ctrl+O, reads the whole log).
*/

/**
Entries written at most. A settled card's layout is bounded (a header and a folded body), so this
bounds the rows and the time too: 2 500 entries are about as many rows as a terminal's scrollback
commonly keeps (10 000 lines), and about 2 500 model-driven calls (a call each; a turn adds its
message, answer and end). Laying out 2 500 cards of the generated bench log (diffs, reads, long
outputs) took about 1.4 s on a loaded 2-core machine; `echo` cards take a fraction of that.
*/
export const HISTORY_ENTRIES = 2500;

/** The first entry to write of `count`, and how many before it are left out. */
export function historyWindow(count: number, bound: number): {readonly from: number; readonly hidden: number} {
	const from = Math.max(0, count - bound);
	return {from, hidden: from};
}

/** The line above a cut history. */
export function hiddenHistoryText(hidden: number): string {
	return `${hidden === 1 ? '1 earlier entry' : `${hidden} earlier entries`} of this session not shown here: Ctrl+O opens the pager on all of it`;
}
