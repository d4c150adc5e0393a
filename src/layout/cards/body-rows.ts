/**
@module The rows of a card body as they are built. A `full` layout keeps every row; a folded one
(`bounded`, `summary`) keeps only what a fold can show — the pinned head, `keep` rows after it and
the last `keep` rows (a ring) — and counts the rest, so a 300 000-row output folds to 12 rows
without holding 300 000 row objects. The fold's `… N lines hidden (of M)` stays exact: the rows it
drops are counted, and so are the logical lines they begin.
*/
import type {BodySection, CardBody} from './card-body.js';
import type {StyledLine} from '../text/styled-line.js';

/** Anything rows can be appended to: a plain array or a `BodyRows`. */
export type RowTarget = {push(row: StyledLine): unknown};

export class BodyRows implements RowTarget {
	readonly #keep: number | undefined;
	readonly #head: StyledLine[] = [];
	readonly #tail: StyledLine[] = [];
	/** The section of each row of `#head` / `#tail`, kept only once a section was started. */
	#headSections: Array<BodySection | undefined> | undefined;
	#tailSections: Array<BodySection | undefined> | undefined;
	#section: BodySection | undefined;
	/** Index in `#tail` of its oldest row once the ring is full. */
	#tailStart = 0;
	#count = 0;
	/** Dropped rows that begin a logical line (not soft-wrap continuations). */
	#droppedStarts = 0;
	#pinnedTop = 0;
	#pinning: boolean;

	/**
	`keep`: rows a fold can show at each end (absent: keep every row). `pinned`: the first rows pushed
	are pinned (a `$ command`) and kept whole until `pin()` ends them.
	*/
	constructor(keep: number | undefined, options: {readonly pinned?: boolean} = {}) {
		this.#keep = keep;
		this.#pinning = options.pinned === true;
	}

	/** Rows pushed so far, kept or not. */
	get length(): number {
		return this.#count;
	}

	/** Start a section under `header` (its rows are pushed here): a fold that hides them repeats them. */
	startSection(header: readonly StyledLine[]): void {
		if (this.#headSections === undefined) {
			this.#headSections = Array.from({length: this.#head.length});
			this.#tailSections = Array.from({length: this.#tail.length});
		}

		this.#section = {at: this.#count, header};
		this.pushAll(header);
	}

	push(row: StyledLine): void {
		this.#count++;
		const keep = this.#keep;
		if (keep === undefined || this.#pinning || this.#head.length < this.#pinnedTop + keep) {
			this.#head.push(row);
			this.#headSections?.push(this.#section);
		} else if (this.#tail.length < keep) {
			this.#tail.push(row);
			this.#tailSections?.push(this.#section);
		} else if (keep > 0) {
			this.#drop(this.#tail[this.#tailStart]!);
			this.#tail[this.#tailStart] = row;
			if (this.#tailSections !== undefined) {
				this.#tailSections[this.#tailStart] = this.#section;
			}

			this.#tailStart = (this.#tailStart + 1) % keep;
		} else {
			this.#drop(row);
		}
	}

	#drop(row: StyledLine): void {
		if (row.softWrap !== true) {
			this.#droppedStarts++;
		}
	}

	pushAll(rows: Iterable<StyledLine>): void {
		for (const row of rows) {
			this.push(row);
		}
	}

	/** End the pinned head: the rows pushed so far stay visible in any fold. Returns their count. */
	pin(): number {
		this.#pinning = false;
		this.#pinnedTop = this.#count;
		return this.#pinnedTop;
	}

	/** The body: kept rows, pins, and how many rows were counted but not kept. Call once: it hands over the rows. */
	body(pinnedBottom = 0): CardBody {
		const lines = this.#head;
		const at = lines.length;
		const omitted = this.#count - lines.length - this.#tail.length;
		const sections = this.#headSections;
		for (let index = 0; index < this.#tail.length; index++) {
			const ring = (this.#tailStart + index) % this.#tail.length;
			lines.push(this.#tail[ring]!);
			sections?.push(this.#tailSections![ring]);
		}

		return {
			lines,
			...(this.#pinnedTop > 0 ? {pinnedTop: this.#pinnedTop} : {}),
			...(pinnedBottom > 0 ? {pinnedBottom} : {}),
			...(omitted > 0 ? {omitted: {at, count: omitted, starts: this.#droppedStarts}} : {}),
			...(sections === undefined ? {} : {sections}),
		};
	}
}
