/**
@module The pager's card source for a saved log file: a card-level index built in one streaming pass,
with cards built on demand from their own lines. Memory holds byte positions, not events or cards
(beyond a bounded cache of built ones), so a 100 MB log costs a few MB of index.

Opening, as the user sees it:
1. A plain log opens on its newest cards at once: the last MB is indexed on its own
   (`tail-card-source.ts`); the status line says `indexing N%`. Cards whose call lies before that
   window are not shown yet.
2. The full index is built in the background; when it completes, the source switches to it in one
   step: `count()` becomes the log's card count, `generation()` increments, and `moved(index, from)`
   tells where a card of the tail window now is (same anchor seq), so a pager can keep its cursor on
   the same card. A pager that was following the end simply stays at the end.
3. A zstd log cannot be read from its end: it is decompressed once into a temporary plain file while
   it is indexed, and its cards appear as they are indexed (append-only numbering, no switch).

Exactness: the index replays the fold's pairing rules (session/fold.ts) without building cards and
records, per card, the byte positions of every line that changes it. `card(i)` reads those lines and
folds them alone in a fresh `SessionFold`, which yields the same card as the full fold: every pairing
decision was already taken by the index, and within one card's lines the fold decides the same way.
The one thing dropped is live progress of cards that later settled (settling discards it); its
revision bumps are added back.
*/
import {closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync} from 'node:fs';
import {open, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {CardSource} from '../../components/card-source.js';
import type {Card, CardStatus} from '../presentation/card.js';
import {settledStatus} from '../presentation/card-status.js';
import type {PresenterLookup} from '../presentation/presenters.js';
import {isContentBlocks} from '../presentation/view-guards.js';
import {LogEventDecoder} from '../session/event-decoder.js';
import type {SessionEvent, SessionHeader} from '../session/events.js';
import {SessionFold} from '../session/fold.js';
import {KeptDiagnostics, type DamagedLines} from '../session/kept-diagnostics.js';
import type {LogDiagnostic} from '../session/log-errors.js';
import {logRecords} from '../session/log-records.js';
import {openLogSource, resolveSessionLogPath} from '../session/log-source.js';
import {DEFAULT_MAX_LINE_BYTES, LineSplitter} from '../session/line-splitter.js';
import {decodeRecord, openSessionLog} from '../session/read-session-log.js';
import {DEFAULT_TAIL_BYTES, forEachTailLine, readLogTail, type TailWindow} from './tail-card-source.js';
import {ThrottledSignal} from './throttled-signal.js';
import {addTo} from '../session/add-to-set-map.js';
import {isCompressed} from '../session/log-index.js';
import {pushAll} from '../layout/push-all.js';

/** Options of `openIndexedCardSource`. */
export type IndexedCardSourceOptions = {
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

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
const statusCodes: readonly CardStatus[] = ['running', 'ok', 'error', 'cancelled', 'interrupted'];
const RUNNING = 0;
const INTERRUPTED = 4;
const CHUNK_BYTES = 1024 * 1024;

/**
Byte positions of every top-level card's lines, built by replaying the fold's pairing rules on
events as they stream past. Nothing of an event is kept after its line is recorded.
*/
export class CardLineIndex {
	#count = 0;
	#capacity = 1024;
	/** Seq of the event that created card i (its key; strictly increasing). */
	#seqs = new Float64Array(this.#capacity);
	/** Byte offset and length of the line that created card i. */
	#offsets = new Float64Array(this.#capacity);
	#lengths = new Float64Array(this.#capacity);
	/** Byte offset and length of the `tool/result` that settled card i (-1: none). */
	#resultOffsets = new Float64Array(this.#capacity);
	#resultLengths = new Float64Array(this.#capacity);
	/** Status code of card i (index into `statusCodes`). */
	#status = new Uint8Array(this.#capacity);
	/** 1 once card i has a result (an interrupted card without one can still be settled late). */
	#settled = new Uint8Array(this.#capacity);
	/** Progress events card i received before it settled (dropped lines; their revision bumps count). */
	#bumps = new Uint32Array(this.#capacity);
	/** 1 when card i was created by a `tool/call` (not an orphan result or a parentless sub-call). */
	#fromCall = new Uint8Array(this.#capacity);
	/** callId of card i. */
	readonly #callIds: string[] = [];
	/** Other lines of card i, as [offset, length, …] (approvals, sub-calls, interrupts, announcements). */
	readonly #extras = new Map<number, number[]>();
	/** Progress lines of card i while it runs. */
	readonly #progress = new Map<number, number[]>();
	/** callId → its unanswered cards, oldest first. */
	readonly #open = new Map<string, number[]>();
	/** callId → the latest card with it. */
	readonly #latest = new Map<string, number>();
	readonly #runningByStep = new Map<string, Set<number>>();
	readonly #runningByTurn = new Map<number, Set<number>>();
	/** Running cards' turn and step, to untrack them (NaN: not tracked / no step). */
	#turns = new Float64Array(this.#capacity);
	#steps = new Float64Array(this.#capacity);
	/** Announced tool-call id → the `assistant/message` line announcing it. */
	readonly #announced = new Map<string, readonly [number, number]>();
	readonly #approvals = new Map<string, number>();
	readonly #children = new Map<string, number>();
	readonly #topLevelChildren = new Set<string>();
	readonly #counts: Record<CardStatus, number> = {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0};
	/** Called with the index of a card whose lines changed. */
	onChange: ((index: number) => void) | undefined;

	/** Cards indexed so far. */
	get count(): number {
		return this.#count;
	}

	/** Card counts by status. */
	get counts(): Readonly<Record<CardStatus, number>> {
		return {...this.#counts};
	}

	/** The anchor seq (card key) of card `index`. */
	seqOf(index: number): number | undefined {
		return index >= 0 && index < this.#count ? this.#seqs[index] : undefined;
	}

	/** The card whose anchor seq is `seq`. */
	indexOfSeq(seq: number): number | undefined {
		let low = 0;
		let high = this.#count - 1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			const value = this.#seqs[middle]!;
			if (value === seq) {
				return middle;
			}

			if (value < seq) {
				low = middle + 1;
			} else {
				high = middle - 1;
			}
		}

		return undefined;
	}

	/** Whether card `index` was created by a `tool/call` line. */
	fromCall(index: number): boolean {
		return this.#fromCall[index] === 1;
	}

	/** Status of card `index`. */
	statusOf(index: number): CardStatus | undefined {
		return index >= 0 && index < this.#count ? statusCodes[this.#status[index]!] : undefined;
	}

	/** The lines that make card `index`, in file order, as [offset, length, …]; and its dropped progress bumps. */
	linesOf(index: number): {readonly lines: number[]; readonly bumps: number} {
		const lines = [this.#offsets[index]!, this.#lengths[index]!];
		if (this.#resultOffsets[index]! >= 0) {
			lines.push(this.#resultOffsets[index]!, this.#resultLengths[index]!);
		}

		// A card may have any number of progress lines: appended one by one, never spread.
		pushAll(lines, this.#extras.get(index) ?? []);
		pushAll(lines, this.#progress.get(index) ?? []);
		const pairs: Array<[number, number]> = [];
		for (let at = 0; at < lines.length; at += 2) {
			pairs.push([lines[at]!, lines[at + 1]!]);
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
		const data: unknown = event.data;
		switch (event.type) {
			case 'tool/call': {
				this.#call(event.seq, data, offset, length);
				break;
			}

			case 'tool/result': {
				this.#result(event.seq, data, event.surfaceOp, offset, length);
				break;
			}

			case 'tool/code-dispatch-start': {
				this.#childStart(event.seq, data, offset, length);
				break;
			}

			case 'tool/code-dispatch': {
				this.#childSettle(data, offset, length);
				break;
			}

			case 'step/end': {
				if (isRecord(data) && isInt(data.turn) && isInt(data.step)) {
					this.#interrupt(this.#runningByStep.get(`${data.turn}:${data.step}`), offset, length);
				}

				break;
			}

			case 'turn/end': {
				if (isRecord(data) && isInt(data.turn)) {
					this.#interrupt(this.#runningByTurn.get(data.turn), offset, length);
				}

				break;
			}

			case 'approval/asked': {
				if (isRecord(data) && typeof data.id === 'string') {
					const key = typeof data.callId === 'string' ? this.#latestKey(data.callId) : undefined;
					if (key !== undefined) {
						this.#approvals.set(data.id, key);
						this.#extra(key, offset, length);
					}
				}

				break;
			}

			case 'approval/decided': {
				if (isRecord(data) && typeof data.id === 'string' && typeof data.outcome === 'string') {
					const key = this.#approvals.get(data.id);
					if (key !== undefined) {
						this.#approvals.delete(data.id);
						this.#extra(key, offset, length);
					}
				}

				break;
			}

			case 'cardterm/tool-progress': {
				if (isRecord(data) && typeof data.callId === 'string' && typeof data.text === 'string') {
					const open = this.#open.get(data.callId);
					const key = open?.[open.length - 1];
					if (key !== undefined) {
						push(this.#progress, key, offset, length);
						this.onChange?.(key);
					}
				}

				break;
			}

			case 'assistant/message': {
				this.#announce(data, offset, length);
				break;
			}

			default: {
				break;
			}
		}
	}

	#call(seq: number, data: unknown, offset: number, length: number): void {
		if (!isRecord(data) || typeof data.callId !== 'string' || typeof data.name !== 'string' || typeof data.arguments !== 'string') {
			return;
		}

		this.#announced.delete(data.callId);
		const index = this.#insert(seq, data.callId, offset, length);
		this.#fromCall[index] = 1;
		const open = this.#open.get(data.callId);
		if (open === undefined) {
			this.#open.set(data.callId, [index]);
		} else {
			open.push(index);
		}

		if (isInt(data.turn)) {
			const step = isInt(data.step) ? data.step : undefined;
			this.#turns[index] = data.turn;
			this.#steps[index] = step ?? Number.NaN;
			addTo(this.#runningByTurn, data.turn, index);
			if (step !== undefined) {
				addTo(this.#runningByStep, `${data.turn}:${step}`, index);
			}
		}
	}

	#result(seq: number, data: unknown, surfaceOp: unknown, offset: number, length: number): void {
		// A replacement result is a context rewrite by compaction, not an execution.
		if (isRecord(surfaceOp)) {
			return;
		}

		const parsed = resultFacts(data);
		if (parsed === undefined) {
			return;
		}

		const open = this.#open.get(parsed.callId);
		let key = open?.pop();
		if (open !== undefined && open.length === 0) {
			this.#open.delete(parsed.callId);
		}

		if (key === undefined) {
			const latest = this.#latest.get(parsed.callId);
			if (latest !== undefined && this.#status[latest] === INTERRUPTED && this.#settled[latest] === 0) {
				// A late result settles the interrupted card.
				key = latest;
			} else {
				// An orphan: its own card, titled by an announcing message when there was one.
				const announced = this.#announced.get(parsed.callId);
				this.#announced.delete(parsed.callId);
				key = this.#insert(seq, parsed.callId, offset, length);
				if (announced !== undefined) {
					this.#extra(key, announced[0], announced[1]);
				}

				this.#settle(key, parsed.status);
				return;
			}
		}

		this.#untrack(key);
		this.#resultOffsets[key] = offset;
		this.#resultLengths[key] = length;
		this.#settle(key, parsed.status);
	}

	#childStart(seq: number, data: unknown, offset: number, length: number): void {
		if (!isRecord(data) || typeof data.parentCallId !== 'string' || typeof data.subCallId !== 'string' || typeof data.name !== 'string') {
			return;
		}

		const parent = this.#latestKey(data.parentCallId);
		if (parent === undefined) {
			// The parent is not in the log: the sub-call is a top-level card of its own.
			const index = this.#insert(seq, data.subCallId, offset, length);
			this.#children.set(data.subCallId, index);
			this.#topLevelChildren.add(data.subCallId);
			return;
		}

		this.#extra(parent, offset, length);
		this.#children.set(data.subCallId, parent);
	}

	#childSettle(data: unknown, offset: number, length: number): void {
		if (!isRecord(data) || typeof data.subCallId !== 'string' || typeof data.isError !== 'boolean' || !isContentBlocks(data.content)) {
			return;
		}

		const key = this.#children.get(data.subCallId);
		if (key === undefined) {
			return;
		}

		this.#children.delete(data.subCallId);
		this.#extra(key, offset, length);
		if (this.#topLevelChildren.delete(data.subCallId)) {
			this.#settle(key, data.isError ? 'error' : 'ok');
		}
	}

	#interrupt(keys: Set<number> | undefined, offset: number, length: number): void {
		if (keys === undefined || keys.size === 0) {
			return;
		}

		for (const key of [...keys]) {
			this.#untrack(key);
			const callId = this.#callIds[key]!;
			const open = this.#open.get(callId);
			if (open !== undefined) {
				open.splice(open.indexOf(key), 1);
				if (open.length === 0) {
					this.#open.delete(callId);
				}
			}

			this.#extra(key, offset, length);
			this.#dropProgress(key);
			this.#setStatus(key, INTERRUPTED);
		}
	}

	#announce(data: unknown, offset: number, length: number): void {
		if (!isRecord(data) || !isRecord(data.message) || !Array.isArray(data.message.content)) {
			return;
		}

		for (const block of data.message.content) {
			if (isRecord(block) && block.type === 'tool-call' && typeof block.id === 'string' && typeof block.name === 'string' && !this.#open.has(block.id)) {
				this.#announced.set(block.id, [offset, length]);
			}
		}
	}

	#insert(seq: number, callId: string, offset: number, length: number): number {
		if (this.#count === this.#capacity) {
			this.#grow();
		}

		const index = this.#count++;
		this.#seqs[index] = seq;
		this.#offsets[index] = offset;
		this.#lengths[index] = length;
		this.#resultOffsets[index] = -1;
		this.#turns[index] = Number.NaN;
		this.#status[index] = RUNNING;
		this.#callIds.push(callId);
		this.#latest.set(callId, index);
		this.#counts.running++;
		return index;
	}

	#settle(key: number, status: CardStatus): void {
		this.#settled[key] = 1;
		this.#dropProgress(key);
		this.#setStatus(key, statusCodes.indexOf(status));
	}

	#setStatus(key: number, code: number): void {
		this.#counts[statusCodes[this.#status[key]!]!]--;
		this.#counts[statusCodes[code]!]++;
		this.#status[key] = code;
		this.onChange?.(key);
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

	#untrack(key: number): void {
		const turn = this.#turns[key]!;
		if (Number.isNaN(turn)) {
			return;
		}

		const step = this.#steps[key]!;
		this.#turns[key] = Number.NaN;
		removeFrom(this.#runningByTurn, turn, key);
		if (!Number.isNaN(step)) {
			removeFrom(this.#runningByStep, `${turn}:${step}`, key);
		}
	}

	/** The most recent unanswered card with this id, else the most recent card with it. */
	#latestKey(callId: string): number | undefined {
		const open = this.#open.get(callId);
		return open?.[open.length - 1] ?? this.#latest.get(callId);
	}

	#grow(): void {
		this.#capacity *= 2;
		this.#seqs = grow(this.#seqs, this.#capacity);
		this.#offsets = grow(this.#offsets, this.#capacity);
		this.#lengths = grow(this.#lengths, this.#capacity);
		this.#resultOffsets = grow(this.#resultOffsets, this.#capacity);
		this.#resultLengths = grow(this.#resultLengths, this.#capacity);
		this.#turns = grow(this.#turns, this.#capacity);
		this.#steps = grow(this.#steps, this.#capacity);
		const status = new Uint8Array(this.#capacity);
		status.set(this.#status);
		this.#status = status;
		const settled = new Uint8Array(this.#capacity);
		settled.set(this.#settled);
		this.#settled = settled;
		const bumps = new Uint32Array(this.#capacity);
		bumps.set(this.#bumps);
		this.#bumps = bumps;
		const fromCall = new Uint8Array(this.#capacity);
		fromCall.set(this.#fromCall);
		this.#fromCall = fromCall;
	}
}

/** The callId and settled status of a usable `tool/result`, as the fold reads it; `undefined` when the fold would skip it. */
function resultFacts(data: unknown): {readonly callId: string; readonly status: CardStatus} | undefined {
	if (!isRecord(data) || !isRecord(data.message)) {
		return undefined;
	}

	const {message} = data;
	const block = Array.isArray(message.content) ? message.content.find(item => isRecord(item) && item.type === 'tool-result') as Fields | undefined : undefined;
	const source = isRecord(message.source) ? message.source : undefined;
	const callId = typeof source?.callId === 'string' ? source.callId : (typeof block?.toolCallId === 'string' ? block.toolCallId : undefined);
	if (callId === undefined || block === undefined || !isContentBlocks(block.content)) {
		return undefined;
	}

	const error = isRecord(data.error) && typeof data.error.name === 'string' && typeof data.error.code === 'string'
		? {name: data.error.name, code: data.error.code}
		: undefined;
	return {callId, status: settledStatus({content: block.content, isError: block.isError === true, ...(error === undefined ? {} : {error})})};
}

function push(map: Map<number, number[]>, key: number, offset: number, length: number): void {
	const lines = map.get(key);
	if (lines === undefined) {
		map.set(key, [offset, length]);
	} else {
		lines.push(offset, length);
	}
}

/** Removes `value`, and the set once empty (an empty set and none mean the same: nothing running there). */
function removeFrom<K>(map: Map<K, Set<number>>, key: K, value: number): void {
	const set = map.get(key);
	if (set !== undefined && set.delete(value) && set.size === 0) {
		map.delete(key);
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
	readonly counts: Readonly<Record<CardStatus, number>>;
};

/**
A `CardSource` over a log file: the tail window first (plain logs), then the full card index.
Open one with `openIndexedCardSource`; `close()` it when done.
*/
export class IndexedCardSource implements CardSource {
	/** The log's header. */
	readonly header: SessionHeader;
	/** The file card lines are read from (a temporary copy for zstd logs). */
	readonly path: string;
	/** Resolves when indexing ends: complete, failed (see `error`) or stopped by `close()`. */
	readonly ready: Promise<void>;
	readonly #index = new CardLineIndex();
	readonly #presenters: PresenterLookup;
	/** Built cards by number, least recently used first, with the bytes of the lines they came from. */
	readonly #cache = new Map<number, {readonly card: Card; readonly bytes: number}>();
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

	/** Use `openIndexedCardSource`. */
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
		return this.#tail === undefined ? this.#index.count : this.#tail.shown.length;
	}

	card(index: number): Card | undefined {
		if (!Number.isInteger(index) || index < 0 || index >= this.count()) {
			return undefined;
		}

		const cached = this.#cache.get(index);
		if (cached !== undefined) {
			// Most recently used last.
			this.#cache.delete(index);
			this.#cache.set(index, cached);
			return cached.card;
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

		return built.card;
	}

	complete(): boolean {
		return this.#complete;
	}

	progress(): number | undefined {
		return this.#progress;
	}

	damage(): DamagedLines {
		return this.#damage;
	}

	counts(): Readonly<Record<CardStatus, number>> {
		return this.#tail === undefined ? this.#index.counts : this.#tail.counts;
	}

	subscribe(listener: () => void): () => void {
		return this.#signal.subscribe(listener);
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
	#build(index: CardLineIndex, card: number): {readonly card: Card; readonly bytes: number} | undefined {
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

		const built = fold.cards[0];
		if (built === undefined) {
			this.#error ??= new Error(`${this.path}: card ${card + 1} could not be rebuilt from its lines at byte ${lines[0]}; the file changed after it was indexed`);
			return undefined;
		}

		return {card: bumps === 0 ? built : {...built, revision: built.revision + bumps}, bytes};
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
	const counts: Record<CardStatus, number> = {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0};
	for (let card = 0; card < index.count; card++) {
		if (window.whole || index.fromCall(card)) {
			shown.push(card);
			counts[index.statusOf(card)!]++;
		}
	}

	return {index, shown, counts};
}

/**
Opens `source` (a plain or zstd log file, or a session folder) for the pager: reads the header (a bad
one throws `SessionLogError`), indexes the tail window of a plain log, and starts the full index in
the background.
*/
export async function openIndexedCardSource(source: string, options: IndexedCardSourceOptions): Promise<IndexedCardSource> {
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
	if (await isCompressed(path)) {
		const folder = mkdtempSync(join(tmpdir(), 'cardterm-pager-'));
		const copy = join(folder, 'session.jsonl');
		const fd = openSync(copy, 'w');
		return new IndexedCardSource({
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

	return new IndexedCardSource({
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
				if (record.line === 1) {
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
