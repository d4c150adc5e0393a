/**
@module The pager's card source for a saved log file: a card-level index built in one streaming pass,
with cards built on demand from their own lines. Memory holds byte positions, not events or cards
(beyond a bounded cache of built ones), so a 100 MB log costs a few MB of index.

Opening, as the user sees it:
1. A plain log opens on its newest cards at once: the last MB is indexed on its own
   (`tail-window.ts`); the status line says `indexing N%`. Cards whose call lies before that
   window are not shown yet.
2. The full index is built in the background; when it completes, the source switches to it in one
   step: `count()` becomes the log's card count, `generation()` increments, and `moved(index, from)`
   tells where a card of the tail window now is (same anchor seq), so a pager can keep its cursor on
   the same card. A pager that was following the end simply stays at the end.
3. A zstd log cannot be read from its end: it is decompressed once into a temporary plain file while
   it is indexed, and its cards appear as they are indexed (append-only numbering, no switch).

Exactness: the index routes every event through the fold's own pairing (session/fold/entry-pairing.ts)
without building cards and records, per card, the byte positions of every line that changes it. `card(i)` reads those lines and
folds them alone in a fresh `SessionFold`, which yields the same card as the full fold: every pairing
decision was already taken by the index, and within one card's lines the fold decides the same way.
The one thing dropped is live progress of cards that later settled (settling discards it); its
revision bumps are added back.
*/
import {closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync} from 'node:fs';
import {open, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {EntrySource} from './entry-source.js';
import type {CardStatus} from '../presentation/card.js';
import {emptyOutcomeCounts, type CardOutcome, type OutcomeCounts} from '../presentation/card-outcome.js';
import type {AssistantEntry, TranscriptEntry} from '../presentation/entry.js';
import {appendStreamText, chunkFacts, emptyStreamText} from '../session/fold/chunk-facts.js';
import {composeStreamEntry} from '../session/fold/compose-entry.js';
import type {PresenterLookup} from '../presentation/presenters.js';
import {LogEventDecoder} from '../session/reader/event-decoder.js';
import type {SessionEvent, SessionHeader} from '../session/events/events.js';
import {SessionFold} from '../session/fold/fold.js';
import {KeptDiagnostics, type DamagedLines} from '../session/reader/kept-diagnostics.js';
import type {LogDiagnostic} from '../session/reader/log-errors.js';
import {logRecords} from '../session/reader/log-records.js';
import {openLogSource, resolveSessionLogPath} from '../session/reader/log-source.js';
import {DEFAULT_MAX_LINE_BYTES, LineSplitter} from '../session/reader/line-splitter.js';
import {decodeRecord, openSessionLog} from '../session/reader/read-session-log.js';
import {DEFAULT_TAIL_BYTES, forEachTailLine, readLogTail, type TailWindow} from './tail-window.js';
import {ThrottledSignal} from './throttled-signal.js';
import {EntryPairing, type OpenStream} from '../session/fold/entry-pairing.js';
import type {ContextTimeline} from '../session/fold/context-timeline.js';
import {assertNever} from '../presentation/assert-never.js';
import {isCompressed} from '../session/reader/log-index.js';
import {foreignAgentOf} from '../session/foreign/contract-lines.js';

/** Options of `openIndexedEntrySource`. */
export type IndexedEntrySourceOptions = {
	/** Presenters for the session, chosen once its header is known. */
	readonly presenters: (header: SessionHeader) => PresenterLookup;
	/** Bytes of the log's end folded for the first frame (plain logs). */
	readonly tailBytes?: number;
	/** Built cards kept in memory. */
	readonly cacheSize?: number;
	/** Bytes of log lines behind the built cards kept in memory (cards with huge outputs count for more). */
	readonly cacheBytes?: number;
	/** Listeners hear about progress at most this often. */
	readonly intervalMs?: number;
	/** Damaged lines, as the reader reports them. */
	readonly onDiagnostic?: (diagnostic: LogDiagnostic) => void;
	/** Skip the tail window and wait for the index (tests, benchmarks). */
	readonly tail?: boolean;
};

const CHUNK_BYTES = 1024 * 1024;

/**
Byte positions of every top-level card's lines, as events stream past. Which card a line belongs to
is the fold's own decision (`CardPairing`); nothing of an event is kept after its line is recorded.
*/
export class CardLineIndex {
	readonly #pairing = new EntryPairing<readonly [number, number]>({context: true});
	#capacity = 1024;
	/** Byte offset and length of the line that created card i. */
	#offsets = new Float64Array(this.#capacity);
	#lengths = new Float64Array(this.#capacity);
	/** Byte offset and length of the `tool/result` that settled card i (-1: none). */
	#resultOffsets = new Float64Array(this.#capacity);
	#resultLengths = new Float64Array(this.#capacity);
	/** Progress events card i received before it settled (dropped lines; their revision bumps count). */
	#bumps = new Uint32Array(this.#capacity);
	/** Revisions of entries that replaced a stream (the lines they are built from do not hold the stream's). */
	readonly #revisions = new Map<number, number>();
	/** Other lines of card i, as [offset, length, …] (approvals, sub-calls, interrupts, announcements). */
	readonly #extras = new Map<number, number[]>();
	/** Progress lines of card i while it runs. */
	readonly #progress = new Map<number, number[]>();
	/** Called with the index of a card whose lines changed. */
	onChange: ((index: number) => void) | undefined;

	/** Cards indexed so far. */
	get count(): number {
		return this.#pairing.count;
	}

	/** Top-level card counts by outcome. */
	get counts(): OutcomeCounts {
		return this.#pairing.counts;
	}

	/** What the model's context held at each step of the lines indexed so far. */
	get context(): ContextTimeline | undefined {
		return this.#pairing.context;
	}

	/** Outcome of card `index`. */
	outcomeOf(index: number): CardOutcome | undefined {
		return this.#pairing.outcomeOf(index);
	}

	/** The open streams after the entries: the transcript's tail (`EntryPairing.streams`), with their lines. */
	get streams(): ReadonlyArray<OpenStream<readonly [number, number]>> {
		return this.#pairing.shownStreams;
	}

	/** The revision entry `index` takes instead of the one its lines give (an entry that replaced a stream). */
	revisionOf(index: number): number | undefined {
		return this.#revisions.get(index);
	}

	/** The anchor seq (card key) of card `index`. */
	seqOf(index: number): number | undefined {
		return this.#pairing.seqOf(index);
	}

	/** The card whose anchor seq is `seq`. */
	indexOfSeq(seq: number): number | undefined {
		return this.#pairing.entryOfSeq(seq);
	}

	/** Whether entry `index` was created by its own anchor line (not an orphan result or a parentless sub-call). */
	anchored(index: number): boolean {
		return this.#pairing.anchored(index);
	}

	/** Status of card `index`. */
	statusOf(index: number): CardStatus | undefined {
		return this.#pairing.statusOf(index);
	}

	/** The lines that make card `index`, in file order, as [offset, length, …]; and its dropped progress bumps. */
	linesOf(index: number): {readonly lines: number[]; readonly bumps: number} {
		const pairs: Array<[number, number]> = [[this.#offsets[index]!, this.#lengths[index]!]];
		if (this.#resultOffsets[index]! >= 0) {
			pairs.push([this.#resultOffsets[index]!, this.#resultLengths[index]!]);
		}

		for (const lines of [this.#extras.get(index), this.#progress.get(index)]) {
			for (let at = 0; lines !== undefined && at < lines.length; at += 2) {
				pairs.push([lines[at]!, lines[at + 1]!]);
			}
		}

		pairs.sort((a, b) => a[0] - b[0]);
		const sorted: number[] = [];
		let previous = -1;
		for (const [offset, length] of pairs) {
			// One line can matter twice to a card (a line is applied once: it is one event).
			if (offset !== previous) {
				sorted.push(offset, length);
				previous = offset;
			}
		}

		return {lines: sorted, bumps: this.#bumps[index]!};
	}

	/** Records one event read from the line at `offset` (`length` bytes). */
	add(event: SessionEvent, offset: number, length: number): void {
		// An announcing message's line joins the card of an orphan result it titles.
		const pairing = this.#pairing.route(event, [offset, length]);
		switch (pairing.op) {
			case 'none':
			case 'note':
			case 'stream': {
				// A stream is the pairing's until it becomes an entry.
				break;
			}

			case 'call':
			case 'child-start': {
				if (pairing.op === 'call' || pairing.created) {
					this.#created(pairing.card, offset, length);
				} else {
					this.#extra(pairing.card, offset, length);
				}

				break;
			}

			case 'result': {
				if (pairing.created) {
					this.#created(pairing.card, offset, length);
					const line = pairing.announced?.token;
					if (line !== undefined) {
						this.#extra(pairing.card, line[0], line[1]);
					}
				} else {
					this.#resultOffsets[pairing.card] = offset;
					this.#resultLengths[pairing.card] = length;
				}

				this.#dropProgress(pairing.card);
				this.onChange?.(pairing.card);
				break;
			}

			case 'child-settle':
			case 'approval-asked':
			case 'approval-decided': {
				this.#extra(pairing.card, offset, length);
				break;
			}

			case 'interrupt': {
				for (const card of pairing.cards) {
					this.#dropProgress(card);
					this.#extra(card, offset, length);
				}

				break;
			}

			case 'progress': {
				push(this.#progress, pairing.card, offset, length);
				this.onChange?.(pairing.card);
				break;
			}

			case 'entry': {
				for (const card of pairing.interrupted ?? []) {
					this.#dropProgress(card);
					this.#extra(card, offset, length);
				}

				this.#created(pairing.entry, offset, length);
				// A turn's end is built from its start and its steps' usage too; a closed stream's text from its deltas.
				for (const line of pairing.turn?.lines ?? []) {
					this.#extra(pairing.entry, line[0], line[1]);
				}

				if (pairing.stream?.from === 'close') {
					let previous = -1;
					for (const line of pairing.stream.lines) {
						// A packed row is one line for several deltas.
						if (line[0] !== previous) {
							this.#extra(pairing.entry, line[0], line[1]);
							previous = line[0];
						}
					}
				}

				if (pairing.revision !== undefined) {
					this.#revisions.set(pairing.entry, pairing.revision);
				}

				break;
			}

			default: {
				assertNever(pairing, 'CardLineIndex.add');
			}
		}
	}

	#created(card: number, offset: number, length: number): void {
		if (card >= this.#capacity) {
			this.#grow();
		}

		this.#offsets[card] = offset;
		this.#lengths[card] = length;
		this.#resultOffsets[card] = -1;
		this.onChange?.(card);
	}

	#extra(key: number, offset: number, length: number): void {
		push(this.#extras, key, offset, length);
		this.onChange?.(key);
	}

	/** Settling discards live output: keep only how many revisions it added. */
	#dropProgress(key: number): void {
		const lines = this.#progress.get(key);
		if (lines !== undefined) {
			this.#bumps[key] += lines.length / 2;
			this.#progress.delete(key);
		}
	}

	#grow(): void {
		this.#capacity *= 2;
		this.#offsets = grow(this.#offsets, this.#capacity);
		this.#lengths = grow(this.#lengths, this.#capacity);
		this.#resultOffsets = grow(this.#resultOffsets, this.#capacity);
		this.#resultLengths = grow(this.#resultLengths, this.#capacity);
		const bumps = new Uint32Array(this.#capacity);
		bumps.set(this.#bumps);
		this.#bumps = bumps;
	}
}

function push(map: Map<number, number[]>, key: number, offset: number, length: number): void {
	const lines = map.get(key);
	if (lines === undefined) {
		map.set(key, [offset, length]);
	} else {
		lines.push(offset, length);
	}
}

function grow(array: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
	const bigger = new Float64Array(capacity);
	bigger.set(array);
	return bigger;
}

/** The tail window's own index and the cards it shows (those created by a call inside the window). */
type TailCards = {
	readonly index: CardLineIndex;
	/** Tail-index card numbers shown, in order. */
	readonly shown: readonly number[];
	readonly counts: OutcomeCounts;
};

/**
A `CardSource` over a log file: the tail window first (plain logs), then the full card index.
Open one with `openIndexedEntrySource`; `close()` it when done.
*/
export class IndexedEntrySource implements EntrySource {
	/** The log's header. */
	readonly header: SessionHeader;
	/** The file card lines are read from (a temporary copy for zstd logs). */
	readonly path: string;
	/** Resolves when indexing ends: complete, failed (see `error`) or stopped by `close()`. */
	readonly ready: Promise<void>;
	readonly #index = new CardLineIndex();
	readonly #presenters: PresenterLookup;
	/** Built cards by number, least recently used first, with the bytes of the lines they came from. */
	readonly #cache = new Map<number, {readonly entry: TranscriptEntry; readonly bytes: number}>();
	readonly #cacheSize: number;
	readonly #cacheBytes: number;
	#cachedBytes = 0;
	readonly #signal: ThrottledSignal;
	readonly #cleanup: () => void;
	readonly #fd: number;
	/** The tail window while it is shown; `undefined` once the full index is. */
	#tail: TailCards | undefined;
	/** The tail window's cards, kept after the switch to answer `moved`. */
	readonly #tailSeqs: readonly number[];
	#generation = 0;
	#complete = false;
	#progress = 0;
	#closed = false;
	#error: Error | undefined;
	readonly #damage: DamagedLines;
	/** The last built tail entry of each open stream. */
	readonly #streamCache = new Map<string, AssistantEntry>();

	/** Use `openIndexedEntrySource`. */
	constructor(init: {
		header: SessionHeader;
		/** Filled by `build` as it indexes (each chunk's progress signal tells the pager). */
		damage: DamagedLines;
		path: string;
		presenters: PresenterLookup;
		tail: TailWindow | undefined;
		cacheSize: number;
		cacheBytes: number;
		intervalMs: number;
		cleanup: () => void;
		build: (index: CardLineIndex, progress: (fraction: number) => void, closed: () => boolean) => Promise<void>;
	}) {
		this.header = init.header;
		this.#damage = init.damage;
		this.path = init.path;
		this.#presenters = init.presenters;
		this.#cacheSize = init.cacheSize;
		this.#cacheBytes = init.cacheBytes;
		this.#signal = new ThrottledSignal(init.intervalMs);
		this.#cleanup = init.cleanup;
		this.#fd = openSync(init.path, 'r');
		this.#tail = init.tail === undefined ? undefined : indexTail(init.tail, init.path);
		this.#tailSeqs = this.#tail?.shown.map(card => this.#tail!.index.seqOf(card)!) ?? [];
		// While the full index is shown and still growing (zstd), a card whose lines change is rebuilt.
		this.#index.onChange = this.#tail === undefined ? index => this.#forget(index) : undefined;
		this.ready = init.build(this.#index, fraction => {
			this.#progress = fraction;
			this.#signal.schedule();
		}, () => this.#closed).catch((error: unknown) => {
			this.#error = error instanceof Error ? error : new Error(String(error));
		}).finally(() => {
			this.#index.onChange = undefined;
			if (this.#closed) {
				return;
			}

			this.#complete = true;
			this.#progress = 1;
			if (this.#tail !== undefined && this.#error === undefined) {
				this.#tail = undefined;
				this.#cache.clear();
				this.#cachedBytes = 0;
				this.#generation++;
			}

			this.#signal.fire();
		});
	}

	count(): number {
		return this.#entryCount() + this.#lineIndex().streams.length;
	}

	entry(index: number): TranscriptEntry | undefined {
		if (!Number.isInteger(index) || index < 0 || index >= this.count()) {
			return undefined;
		}

		const entries = this.#entryCount();
		if (index >= entries) {
			return this.#streamEntry(this.#lineIndex().streams[index - entries]!);
		}

		const cached = this.#cache.get(index);
		if (cached !== undefined) {
			// Most recently used last.
			this.#cache.delete(index);
			this.#cache.set(index, cached);
			return cached.entry;
		}

		const built = this.#tail === undefined ? this.#build(this.#index, index) : this.#build(this.#tail.index, this.#tail.shown[index]!);
		if (built === undefined) {
			return undefined;
		}

		this.#cache.set(index, built);
		this.#cachedBytes += built.bytes;
		for (const oldest of this.#cache.keys()) {
			if (this.#cache.size <= this.#cacheSize && this.#cachedBytes <= this.#cacheBytes) {
				break;
			}

			if (oldest !== index) {
				this.#forget(oldest);
			}
		}

		return built.entry;
	}

	complete(): boolean {
		return this.#complete;
	}

	/** Numbered entries shown (the open tail comes after them). */
	#entryCount(): number {
		return this.#tail === undefined ? this.#index.count : this.#tail.shown.length;
	}

	#lineIndex(): CardLineIndex {
		return this.#tail?.index ?? this.#index;
	}

	/** The tail entry of an open stream: its text rebuilt from its delta lines (cached per revision). */
	#streamEntry(stream: OpenStream<readonly [number, number]>): AssistantEntry {
		const cached = this.#streamCache.get(stream.key);
		if (cached !== undefined && cached.seq === stream.seq && cached.revision === stream.revision) {
			return cached;
		}

		const decoder = new LogEventDecoder(this.path, () => undefined);
		let text = emptyStreamText;
		let previous = -1;
		for (const [offset, length] of stream.lines) {
			if (offset === previous) {
				continue;
			}

			previous = offset;
			const buffer = Buffer.allocUnsafe(length);
			const read = readSync(this.#fd, buffer, 0, length, offset);
			for (const event of decoder.decode(buffer.toString('utf8', 0, read), 0)) {
				const facts = event.type === 'assistant/chunk' ? chunkFacts(event.data) : undefined;
				if (typeof facts === 'object' && `${facts.turn}:${facts.step}` === stream.key && facts.delta !== undefined && facts.delta.kind !== 'tool') {
					text = appendStreamText(text, facts.delta);
				}
			}
		}

		const entry = composeStreamEntry(stream, text);
		this.#streamCache.clear();
		this.#streamCache.set(stream.key, entry);
		return entry;
	}

	progress(): number | undefined {
		return this.#progress;
	}

	damage(): DamagedLines {
		return this.#damage;
	}

	counts(): OutcomeCounts {
		return this.#tail === undefined ? this.#index.counts : this.#tail.counts;
	}

	/** The tail window's timeline while it is shown (what came before it is not read yet), then the whole log's. */
	context(): ContextTimeline | undefined {
		return this.#lineIndex().context;
	}

	subscribe(listener: () => void): () => void {
		return this.#signal.subscribe(listener);
	}

	/** Whether the tail window is shown: its numbers are not the log's card numbers. */
	provisional(): boolean {
		return this.#tail !== undefined;
	}

	/** Incremented when cards were renumbered (the tail window replaced by the full index). */
	generation(): number {
		return this.#generation;
	}

	/** Where card `index` of numbering `from` (a past `generation()`) is now; `undefined` when it is gone. */
	moved(index: number, from: number): number | undefined {
		if (from === this.#generation) {
			return index;
		}

		const seq = this.#tailSeqs[index];
		return seq === undefined ? undefined : this.#index.indexOfSeq(seq);
	}

	/** The key of card `index`: the seq of the event that created it, stable across renumbering. */
	keyOf(index: number): number | undefined {
		return this.#tail === undefined ? this.#index.seqOf(index) : this.#tailSeqs[index];
	}

	/** The card with key `key` in the current numbering. */
	indexOfKey(key: number): number | undefined {
		if (this.#tail === undefined) {
			return this.#index.indexOfSeq(key);
		}

		const found = this.#tailSeqs.indexOf(key);
		return found === -1 ? undefined : found;
	}

	/** Status of card `index` without building it (cheap: for jumps over many cards). */
	statusOf(index: number): CardStatus | undefined {
		return this.#tail === undefined ? this.#index.statusOf(index) : this.#tail.index.statusOf(this.#tail.shown[index] ?? -1);
	}

	/** A reading error that ended indexing early (the cards indexed before it stay available). */
	get error(): Error | undefined {
		return this.#error;
	}

	/** Stops indexing and releases the file (and a zstd log's temporary copy). */
	close(): void {
		if (this.#closed) {
			return;
		}

		this.#closed = true;
		this.#signal.cancel();
		closeSync(this.#fd);
		this.#cleanup();
	}

	#forget(index: number): void {
		const cached = this.#cache.get(index);
		if (cached !== undefined) {
			this.#cache.delete(index);
			this.#cachedBytes -= cached.bytes;
		}
	}

	/**
	Reads the lines of card `card` of `index` and folds them alone. `undefined` (and `error` set) when
	they no longer make a card: the file was rewritten after it was indexed.
	*/
	#build(index: CardLineIndex, card: number): {readonly entry: TranscriptEntry; readonly bytes: number} | undefined {
		const {lines, bumps} = index.linesOf(card);
		const fold = new SessionFold(this.#presenters);
		// A fresh decoder: seq continuity was checked by the index.
		const decoder = new LogEventDecoder(this.path, () => undefined);
		let bytes = 0;
		for (let at = 0; at < lines.length; at += 2) {
			const length = lines[at + 1]!;
			bytes += length;
			const buffer = Buffer.allocUnsafe(length);
			const read = readSync(this.#fd, buffer, 0, length, lines[at]!);
			for (const event of decoder.decode(buffer.toString('utf8', 0, read), 0)) {
				fold.apply(event);
			}
		}

		// The entry is the one anchored on its first line (the others these lines make are other entries).
		const anchor = index.seqOf(card);
		const position = anchor === undefined ? undefined : fold.indexOfSeq(anchor);
		const built = position === undefined ? undefined : fold.entries[position];
		if (built === undefined) {
			this.#error ??= new Error(`${this.path}: entry ${card + 1} could not be rebuilt from its lines at byte ${lines[0]}; the file changed after it was indexed`);
			return undefined;
		}

		if (built.entry !== 'card') {
			const revision = index.revisionOf(card);
			return {entry: revision === undefined ? built : {...built, revision}, bytes};
		}

		return {entry: bumps === 0 ? built : {entry: 'card', card: {...built.card, revision: built.card.revision + bumps}}, bytes};
	}

}

/** Indexes the tail window's lines on their own; shows the cards its own calls created (all of them for a whole file). */
function indexTail(window: TailWindow, path: string): TailCards {
	const index = new CardLineIndex();
	const decoder = new LogEventDecoder(path, () => undefined);
	forEachTailLine(window, (text, offset, length) => {
		for (const event of decoder.decode(text, 0)) {
			index.add(event, offset, length);
		}
	});
	const shown: number[] = [];
	const counts = emptyOutcomeCounts();
	for (let card = 0; card < index.count; card++) {
		if (window.whole || index.anchored(card)) {
			shown.push(card);
			const outcome = index.outcomeOf(card);
			if (outcome !== undefined) {
				counts[outcome]++;
			}
		}
	}

	return {index, shown, counts};
}

/**
Opens `source` (a plain or zstd log file, or a session folder) for the pager: reads the header (a bad
one throws `SessionLogError`), indexes the tail window of a plain log, and starts the full index in
the background.
*/
export async function openIndexedEntrySource(source: string, options: IndexedEntrySourceOptions): Promise<IndexedEntrySource> {
	const path = await resolveSessionLogPath(source);
	const log = await openSessionLog(path);
	const header = log.header;
	await log.close();
	const presenters = options.presenters(header);
	const damage = new KeptDiagnostics();
	const report = (diagnostic: LogDiagnostic): void => {
		damage.add(diagnostic);
		options.onDiagnostic?.(diagnostic);
	};

	const common = {header, damage, presenters, cacheSize: options.cacheSize ?? 2000, cacheBytes: options.cacheBytes ?? 64 * 1024 * 1024, intervalMs: options.intervalMs ?? 100};
	// A compressed log, or another agent's session file read as the contract's lines, is indexed in a copy of its lines.
	if (await isCompressed(path) || foreignAgentOf(header) !== undefined) {
		const folder = mkdtempSync(join(tmpdir(), 'cardterm-pager-'));
		const copy = join(folder, 'session.jsonl');
		const fd = openSync(copy, 'w');
		return new IndexedEntrySource({
			...common,
			path: copy,
			tail: undefined,
			cleanup: () => {
				rmSync(folder, {recursive: true, force: true});
			},
			build: async (index, progress, closed) => {
				try {
					await indexCompressed(path, fd, index, report, progress, closed);
				} finally {
					closeSync(fd);
				}
			},
		});
	}

	return new IndexedEntrySource({
		...common,
		path,
		tail: options.tail === false ? undefined : readLogTail(path, options.tailBytes ?? DEFAULT_TAIL_BYTES),
		cleanup: () => undefined,
		build: async (index, progress, closed) => indexPlain(path, index, report, progress, closed),
	});
}

/** One pass over a plain log: split, decode as the reader does, record each event's line. */
async function indexPlain(path: string, index: CardLineIndex, report: (d: LogDiagnostic) => void, progress: (fraction: number) => void, closed: () => boolean): Promise<void> {
	const handle = await open(path, 'r');
	try {
		const size = (await handle.stat()).size;
		const splitter = new LineSplitter({maxLineBytes: DEFAULT_MAX_LINE_BYTES});
		const decoder = new LogEventDecoder(path, report);
		const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
		let position = 0;
		while (!closed()) {
			// Reading asynchronously chunk by chunk lets the pager draw and take keys in between.
			// eslint-disable-next-line no-await-in-loop -- one chunk after another, bounded memory
			const {bytesRead} = await handle.read(buffer, 0, buffer.length, position);
			if (bytesRead === 0) {
				break;
			}

			position += bytesRead;
			for (const record of splitter.push(buffer.subarray(0, bytesRead))) {
				if (record.line === 1) {
					continue;
				}

				const events = decodeRecord(record, decoder, report, path);
				if (record.kind === 'line') {
					for (const event of events) {
						index.add(event, record.offset, record.length);
					}
				}
			}

			progress(size === 0 ? 1 : Math.min(1, position / size));
		}

		const torn = splitter.end();
		if (torn !== undefined && !closed()) {
			decodeRecord({kind: 'torn', ...torn}, decoder, report, path);
		}
	} finally {
		await handle.close();
	}
}

/** One pass over a zstd log: each decompressed line is written to `fd` (a plain copy) and indexed at its offset there. */
async function indexCompressed(path: string, fd: number, index: CardLineIndex, report: (d: LogDiagnostic) => void, progress: (fraction: number) => void, closed: () => boolean): Promise<void> {
	const size = (await stat(path)).size;
	const opened = await openLogSource(path);
	let read = 0;
	const counted = (async function * () {
		for await (const chunk of opened.chunks) {
			read += chunk.length;
			yield chunk;
		}
	})();
	const decoder = new LogEventDecoder(path, report);
	let written = 0;
	let header = true;
	try {
		for await (const record of logRecords(counted, {name: path})) {
			if (closed()) {
				break;
			}

			if (record.kind === 'line') {
				const bytes = Buffer.from(`${record.text}\n`, 'utf8');
				writeSync(fd, bytes);
				const offset = written;
				written += bytes.length;
				if (header) {
					// The first line is the header (a foreign file's line 1 may make more lines than it).
					header = false;
					continue;
				}

				for (const event of decodeRecord(record, decoder, report, path)) {
					index.add(event, offset, bytes.length - 1);
				}

				progress(size === 0 ? 1 : Math.min(1, read / size));
			} else {
				decodeRecord(record, decoder, report, path);
			}
		}
	} finally {
		opened.close();
	}
}
