/**
@module The open streams: a step's output while the model writes it (`assistant/chunk`: text,
reasoning, tool calls being prepared), the transcript's tail after every entry (§E3.4). One of the
pairing's three machines (`entry-pairing.ts`); it knows nothing of cards or turns' clocks.

A stream's text stops streaming at its step's `assistant/message` (the message is the entry that
replaces it); a `preparing` row goes when its `tool/call` arrives; the rest goes when the step
ends, the turn ends, or the model is retried. A step that closes with visible text and no message
leaves that text as an interrupted entry (`closeStep`).

`T` is the consumer's token for a chunk event (the lazy log index keeps a line's position): a
stream keeps its text chunks' tokens, so the text can be rebuilt from them.
*/
import type {TextDelta, ToolDelta} from './chunk-facts.js';

/** A step's output while it streams: the transcript's open tail. */
export type OpenStream<T> = {
	readonly key: string;
	readonly turn: number;
	readonly step: number;
	/** Seq and time of its first chunk. */
	readonly seq: number;
	readonly time: number;
	/** Text and reasoning still stream (until the step's `assistant/message`). */
	readonly textOpen: boolean;
	/** Some streamed text or reasoning is not blank. */
	readonly visible: boolean;
	/** Names of the tool calls being prepared, oldest first (`undefined`: no delta named it yet). */
	readonly preparing: ReadonlyArray<string | undefined>;
	/** Tokens of its text and reasoning chunk events, in order (the log index rebuilds the text from them). */
	readonly lines: readonly T[];
	/** Changes so far: the tail entry's revision. */
	readonly revision: number;
};

/** A step that closed while its text streamed: what it showed becomes an interrupted entry of this revision. */
export type ClosedText<T> = {readonly key: string; readonly revision: number; readonly lines: readonly T[]};

type Stream<T> = {
	key: string; turn: number; step: number; seq: number; time: number; textOpen: boolean; visible: boolean;
	calls: Map<string, string | undefined>; lines: T[]; revision: number;
};

/** Streams kept open at most, and tool calls being prepared per stream: bounds against hostile logs (a step streams one at a time, with a few calls). */
export const MAX_OPEN_STREAMS = 8;
export const MAX_PREPARING_CALLS = 64;

/** The key of step `step` of turn `turn`'s stream. */
export function streamKey(turn: number, step: number): string {
	return `${turn}:${step}`;
}

export class OpenStreams<T> {
	/** Open streams by key, oldest first. */
	readonly #streams = new Map<string, Stream<T>>();
	#version = 0;
	#views: {readonly version: number; readonly all: ReadonlyArray<OpenStream<T>>; readonly shown: ReadonlyArray<OpenStream<T>>} | undefined;

	/** Increments whenever the streams change. */
	get version(): number {
		return this.#version;
	}

	/** The open streams, oldest first. Rebuilt once per change. */
	get all(): ReadonlyArray<OpenStream<T>> {
		return this.#viewsNow().all;
	}

	/** The open streams with something to show (visible text, or a call being prepared): the tail entries. */
	get shown(): ReadonlyArray<OpenStream<T>> {
		return this.#viewsNow().shown;
	}

	/** Whether step `step` of turn `turn` has an open stream. */
	has(turn: number, step: number): boolean {
		return this.#streams.has(streamKey(turn, step));
	}

	/** Whether the text of stream `key` still streams. */
	textOpen(key: string): boolean {
		return this.#streams.get(key)?.textOpen === true;
	}

	/** A text or reasoning delta; the stream's key when it changed (not after the step's message: the message is the text). */
	text(turn: number, step: number, at: {readonly seq: number; readonly time: number}, delta: TextDelta, token: T | undefined): string | undefined {
		const key = streamKey(turn, step);
		let stream = this.#streams.get(key);
		if (stream !== undefined && !stream.textOpen) {
			return undefined;
		}

		stream ??= this.#open(key, turn, step, at);
		if (token !== undefined) {
			stream.lines.push(token);
		}

		stream.visible ||= delta.text.trim() !== '';
		this.#changed(stream);
		return key;
	}

	/** A tool call being prepared; the stream's key when it changed (a first name, or a new call within the bound). */
	preparing(turn: number, step: number, at: {readonly seq: number; readonly time: number}, delta: ToolDelta): string | undefined {
		const key = streamKey(turn, step);
		const stream = this.#streams.get(key) ?? this.#open(key, turn, step, at);
		const known = stream.calls.get(delta.id);
		if ((stream.calls.has(delta.id) && (known !== undefined || delta.name === undefined)) || (!stream.calls.has(delta.id) && stream.calls.size >= MAX_PREPARING_CALLS)) {
			return undefined;
		}

		stream.calls.set(delta.id, delta.name ?? known);
		this.#changed(stream);
		return key;
	}

	/** The step's message arrived: its text stops streaming. Returns the key and the revision the message's entry takes, when its text streamed. */
	closeText(turn: number, step: number): {readonly key: string; readonly revision: number} | undefined {
		const stream = this.#streams.get(streamKey(turn, step));
		if (stream?.textOpen !== true) {
			return undefined;
		}

		stream.textOpen = false;
		stream.visible = false;
		stream.lines = [];
		this.#changed(stream);
		if (stream.calls.size === 0) {
			this.#streams.delete(stream.key);
		}

		return {key: stream.key, revision: stream.revision};
	}

	/** A call started: its preview goes (and the stream, when nothing else of it is left). Without its step, from any stream. */
	started(callId: string, turn: number | undefined, step: number | undefined): void {
		const streams = turn !== undefined && step !== undefined ? [this.#streams.get(streamKey(turn, step))] : [...this.#streams.values()];
		for (const stream of streams) {
			if (stream?.calls.delete(callId) === true) {
				this.#changed(stream);
				if (stream.calls.size === 0 && !stream.textOpen) {
					this.#streams.delete(stream.key);
				}
			}
		}
	}

	/** The step ended: its stream goes; its text, when it still streamed something visible, is returned to become an entry. */
	closeStep(turn: number, step: number): ClosedText<T> | undefined {
		const key = streamKey(turn, step);
		const stream = this.#streams.get(key);
		if (stream === undefined) {
			return undefined;
		}

		this.#streams.delete(key);
		this.#version++;
		return stream.textOpen && stream.visible ? {key, revision: stream.revision + 1, lines: stream.lines} : undefined;
	}

	/** Streams of `turn` go (a retried attempt streams again from the start; a turn ended without its step's end); all of them when `turn` is undefined. */
	drop(turn: number | undefined): void {
		for (const stream of [...this.#streams.values()]) {
			if (turn === undefined || stream.turn === turn) {
				this.#streams.delete(stream.key);
				this.#version++;
			}
		}
	}

	#open(key: string, turn: number, step: number, at: {readonly seq: number; readonly time: number}): Stream<T> {
		// A session streams one step at a time; a log with more open is hostile or broken: the oldest go.
		for (const oldest of this.#streams.keys()) {
			if (this.#streams.size < MAX_OPEN_STREAMS) {
				break;
			}

			this.#streams.delete(oldest);
		}

		const stream: Stream<T> = {key, turn, step, seq: at.seq, time: at.time, textOpen: true, visible: false, calls: new Map(), lines: [], revision: -1};
		this.#streams.set(key, stream);
		return stream;
	}

	#changed(stream: Stream<T>): void {
		stream.revision++;
		this.#version++;
	}

	#viewsNow(): {readonly all: ReadonlyArray<OpenStream<T>>; readonly shown: ReadonlyArray<OpenStream<T>>} {
		if (this.#views?.version !== this.#version) {
			const all: Array<OpenStream<T>> = [];
			const shown: Array<OpenStream<T>> = [];
			for (const stream of this.#streams.values()) {
				const view: OpenStream<T> = {
					key: stream.key, turn: stream.turn, step: stream.step, seq: stream.seq, time: stream.time, textOpen: stream.textOpen,
					visible: stream.visible, preparing: [...stream.calls.values()], lines: stream.lines, revision: stream.revision,
				};
				all.push(view);
				if ((view.textOpen && view.visible) || view.preparing.length > 0) {
					shown.push(view);
				}
			}

			this.#views = {version: this.#version, all, shown};
		}

		return this.#views;
	}
}
