import type {Theme} from './theme.js';

/**
How much of a card body to show. `summary`: header and one line. `bounded`: head and tail around a
`… N lines hidden (of M)` marker. `full`: everything.
*/
export type Expansion = 'summary' | 'bounded' | 'full';

/** Everything a layout depends on besides the card: a frame is a function of these inputs. */
export type LayoutOptions = {
	/** Terminal columns available to the card (≥ 1). */
	readonly width: number;
	/** Absent: the default for the card's outcome (failures open further than successes). */
	readonly expansion?: Expansion;
	readonly theme: Theme;
	/** Epoch ms used for a running card's elapsed time. */
	readonly now: number;
	/** The session workspace (header `cwd`), to resolve and shorten paths and terminal cwd. */
	readonly sessionCwd?: string;
	/**
	Draw a running card's glyph as a spinner frame that advances with its elapsed seconds (the live
	region, when motion is on); otherwise `○`. Frames change at most once a second.
	*/
	readonly spinner?: boolean;
	/**
	The live region's rows for an answer still streaming: such an entry is laid out as its last
	`liveRows` rows, the first of them `… N earlier lines` when any are hidden, at a cost that does
	not grow with the answer (the live region shows no more; the settled answer is written whole).
	*/
	readonly liveRows?: number;
	/**
	`false`: rows drawn once (print mode streams each entry once, then forgets it), so the layout
	caches are neither read nor filled: nothing asks for those rows again, and cached rows would only
	be evicted unused — after surviving long enough to cost the garbage collector a copy or two.
	*/
	readonly cache?: boolean;
};
