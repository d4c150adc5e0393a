import type {StyledLine} from '../text/styled-line.js';

/**
A card body before folding: rows already wrapped to the width, plus how many rows at each end must
survive any fold (a `$ command` line at the top, an `[exit N]` or `+A −R` footer at the bottom).
Folding (`bounded`) keeps those pinned rows and replaces the middle with one marker row.
*/
export type CardBody = {
	readonly lines: readonly StyledLine[];
	/** Leading rows always shown (default 0). */
	readonly pinnedTop?: number;
	/** Trailing rows always shown (default 0). */
	readonly pinnedBottom?: number;
	/**
	Rows a folded layout counted but did not build (see body-rows.ts): `count` rows belong between
	`lines[at - 1]` and `lines[at]`; `starts` of them begin a logical line (are not soft wraps).
	Absent: `lines` is every row.
	*/
	readonly omitted?: {readonly at: number; readonly count: number; readonly starts: number};
	/**
	The section (a grep card's file) each row of `lines` belongs to, parallel to `lines`: a fold that
	hides a section's header repeats it above the rows it shows of that section.
	*/
	readonly sections?: ReadonlyArray<BodySection | undefined>;
	/** The one row a `summary` shows, when the body knows better than the fold's rule (a failure: its message, the code dim). */
	readonly summary?: StyledLine;
};

/** A run of rows under one header: `at` is the header's first row in the whole body. */
export type BodySection = {readonly at: number; readonly header: readonly StyledLine[]};
