/**
@module Packing of streamed deltas into chunk rows (contract.md §E3.7), the writer's side
of `packed-chunks.ts`: consecutive `text-delta`, `reasoning-delta` or `tool-call-delta` chunks of
one block of one step become one `text-chunks` / `reasoning-chunks` / `tool-call-chunks` row when
there are at least three of them; shorter runs stay event lines. A row expands back to exactly the
events it replaced, so live listeners and a replay see the same events.
*/
import type {SessionEvent} from '../events/events.js';

/** One line for the log and how many events (seqs) it stands for. */
export type LogLine = {readonly text: string; readonly events: number};

/** Longest run kept open: bounds memory and the size of one row while a long answer streams. */
const MAX_RUN = 256;

type RunKind = 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks';

type Run = {
	readonly kind: RunKind;
	readonly turn: number;
	readonly step: number;
	readonly index: number;
	readonly id?: string;
	readonly name?: string;
	readonly seq0: number;
	readonly time0: number;
	lastTime: number;
	readonly dt: number[];
	readonly parts: string[];
	/** The members' own lines, used when the run is too short to pack. */
	readonly lines: string[];
};

/** The run a delta chunk can join: its kind, block and text; `undefined` for every other event. */
type Member = {kind: RunKind; turn: number; step: number; index: number; id?: string; name?: string; part: string};

/**
Whether `value`'s own enumerable keys are exactly `keys`, in any order. It runs for every streamed
delta: no key list is built or sorted (that was a tenth of a live session's allocations).
*/
function hasExactKeys(value: object, keys: readonly string[]): boolean {
	let count = 0;
	for (const key in value) {
		if (Object.hasOwn(value, key)) {
			if (!keys.includes(key)) {
				return false;
			}

			count++;
		}
	}

	return count === keys.length;
}

const DATA_KEYS = ['turn', 'step', 'chunk'];
const TEXT_DELTA_KEYS = ['type', 'index', 'text'];
const TOOL_DELTA_KEYS = ['type', 'index', 'id', 'argumentsDelta'];
const NAMED_TOOL_DELTA_KEYS = ['type', 'index', 'id', 'name', 'argumentsDelta'];

/** A delta whose event is exactly what a row member expands to (no other fields), else `undefined`. */
function memberOf(event: SessionEvent): Member | undefined {
	if (event.type !== 'assistant/chunk' || 'ignorable' in event || 'surfaceOp' in event || 'sourceEventSeqs' in event) {
		return undefined;
	}

	const data = event.data as {turn?: unknown; step?: unknown; chunk?: Record<string, unknown>};
	const chunk = data.chunk;
	if (!hasExactKeys(data, DATA_KEYS) || typeof chunk !== 'object' || chunk === null || !Number.isSafeInteger(data.turn) || !Number.isSafeInteger(data.step) || !Number.isSafeInteger(chunk.index)) {
		return undefined;
	}

	const place = {turn: data.turn as number, step: data.step as number, index: chunk.index as number};
	switch (chunk.type) {
		case 'text-delta':
		case 'reasoning-delta': {
			return hasExactKeys(chunk, TEXT_DELTA_KEYS) && typeof chunk.text === 'string' ? {kind: chunk.type === 'text-delta' ? 'text-chunks' : 'reasoning-chunks', ...place, part: chunk.text} : undefined;
		}

		case 'tool-call-delta': {
			const named = typeof chunk.name === 'string' && hasExactKeys(chunk, NAMED_TOOL_DELTA_KEYS);
			if ((!named && !hasExactKeys(chunk, TOOL_DELTA_KEYS)) || typeof chunk.id !== 'string' || typeof chunk.argumentsDelta !== 'string') {
				return undefined;
			}

			return {kind: 'tool-call-chunks', ...place, id: chunk.id, ...(named ? {name: chunk.name as string} : {}), part: chunk.argumentsDelta};
		}

		default: {
			return undefined;
		}
	}
}

/** Collects delta runs and turns them into log lines. */
export class ChunkPacker {
	#run: Run | undefined;

	/** Events held in the open run (appended, not yet lines). */
	get held(): number {
		return this.#run?.parts.length ?? 0;
	}

	/**
	Add a recorded event and its own line; returns the lines that are final now, in seq order (the
	closed run, if this event does not continue it, then this event's line unless it opened a run).
	*/
	add(event: SessionEvent, line: string): LogLine[] {
		const member = memberOf(event);
		const run = this.#run;
		if (member !== undefined && run !== undefined && continues(run, member, event.seq)) {
			run.dt.push(event.time - run.lastTime);
			run.lastTime = event.time;
			run.parts.push(member.part);
			run.lines.push(line);
			return run.parts.length >= MAX_RUN ? this.close() : [];
		}

		const out = this.close();
		if (member === undefined) {
			out.push({text: line, events: 1});
			return out;
		}

		this.#run = {
			kind: member.kind,
			turn: member.turn,
			step: member.step,
			index: member.index,
			...(member.id === undefined ? {} : {id: member.id}),
			...(member.name === undefined ? {} : {name: member.name}),
			seq0: event.seq,
			time0: event.time,
			lastTime: event.time,
			dt: [],
			parts: [member.part],
			lines: [line],
		};
		return out;
	}

	/** Close the open run: one packed row when it has three members or more, else its event lines. */
	close(): LogLine[] {
		const run = this.#run;
		this.#run = undefined;
		if (run === undefined) {
			return [];
		}

		if (run.parts.length < 3) {
			return run.lines.map(text => ({text, events: 1}));
		}

		const data = run.kind === 'tool-call-chunks'
			? {turn: run.turn, step: run.step, index: run.index, dt: run.dt, id: run.id, ...(run.name === undefined ? {} : {name: run.name}), args: run.parts}
			: {turn: run.turn, step: run.step, index: run.index, dt: run.dt, texts: run.parts};
		return [{text: `${JSON.stringify({type: run.kind, seq0: run.seq0, time0: run.time0, data})}\n`, events: run.parts.length}];
	}
}

/** Whether `member` (at `seq`) is the next member of `run`: same block, next seq, and a name only on the first delta. */
function continues(run: Run, member: Member, seq: number): boolean {
	return member.kind === run.kind && member.turn === run.turn && member.step === run.step && member.index === run.index
		&& member.id === run.id && member.name === undefined && seq === run.seq0 + run.parts.length;
}
