/**
@module How much of a continued session the scrollback shows when it opens: all of it up to a bound,
else its newest entries. A terminal's scrollback only grows downwards, so the newest part of a long
history is the part that can be shown first; the bound keeps the start-up's layout and write
bounded however long the session ran (the pager, Ctrl+O, reads the whole log).
*/

/**
Entries written at most. A card's settled layout is bounded (a header and a folded body), so this
bounds the rows too; 5 000 entries are about 2 000 model-driven calls (a call, its step's message,
its turn's end) and lay out in well under half a second.
*/
export const HISTORY_ENTRIES = 5000;

/** The first entry to write of `count`, and how many before it are left out. */
export function historyWindow(count: number, bound = HISTORY_ENTRIES): {readonly from: number; readonly hidden: number} {
	const from = Math.max(0, count - bound);
	return {from, hidden: from};
}

/** The line above a cut history. */
export function hiddenHistoryText(hidden: number): string {
	return `${hidden === 1 ? '1 earlier entry' : `${hidden} earlier entries`} of this session not shown here: Ctrl+O opens the pager on all of it`;
}
