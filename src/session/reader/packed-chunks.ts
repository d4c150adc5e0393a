/**
@module Expansion of packed chunk rows (contract.md §E3.7). A row replaces ≥3 consecutive
delta chunks of one block; member k becomes an `assistant/chunk` with `seq = seq0 + k` and
`time = time0 + dt[0] + … + dt[k-1]` (so `dt` needs one entry fewer than there are members).
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {AssistantChunkEvent, StreamChunk} from '../events/events.js';

/** A checked packed row, ready to expand. */
export type PackedRow = {
	readonly type: 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks';
	readonly seq0: number;
	readonly time0: number;
	readonly turn: number;
	readonly step: number;
	readonly index: number;
	readonly dt: readonly number[];
	readonly parts: readonly string[];
	readonly id?: string;
	readonly name?: string;
};

/** Checks a parsed packed row; returns the row or the first problem. */
export function checkPackedRow(type: PackedRow['type'], row: Record<string, unknown>): PackedRow | string {
	if (!Number.isSafeInteger(row.seq0) || (row.seq0 as number) < 0) {
		return 'missing or invalid "seq0"';
	}

	if (typeof row.time0 !== 'number' || !Number.isFinite(row.time0)) {
		return 'missing or invalid "time0"';
	}

	const data = row.data;
	if (!isPlainRecord(data)) {
		return 'missing or invalid "data" (must be an object)';
	}

	for (const key of ['turn', 'step', 'index'] as const) {
		if (!Number.isSafeInteger(data[key])) {
			return `invalid "${type}" data: "${key}" must be an integer`;
		}
	}

	const partsKey = type === 'tool-call-chunks' ? 'args' : 'texts';
	const parts = data[partsKey];
	if (!Array.isArray(parts) || parts.length === 0 || !parts.every(part => typeof part === 'string')) {
		return `invalid "${type}" data: "${partsKey}" must be a non-empty array of strings`;
	}

	const dt = data.dt;
	if (!Array.isArray(dt) || dt.length < parts.length - 1 || !dt.every(gap => typeof gap === 'number' && Number.isFinite(gap))) {
		return `invalid "${type}" data: "dt" must hold at least ${parts.length - 1} numbers`;
	}

	if (type === 'tool-call-chunks') {
		if (typeof data.id !== 'string') {
			return 'invalid "tool-call-chunks" data: "id" must be a string';
		}

		if (data.name !== undefined && typeof data.name !== 'string') {
			return 'invalid "tool-call-chunks" data: "name" must be a string when present';
		}
	}

	return {
		type,
		seq0: row.seq0 as number,
		time0: row.time0,
		turn: data.turn as number,
		step: data.step as number,
		index: data.index as number,
		dt: dt as number[],
		parts: parts as string[],
		...(typeof data.id === 'string' ? {id: data.id} : {}),
		...(typeof data.name === 'string' ? {name: data.name} : {}),
	};
}

/** The `assistant/chunk` events a packed row stands for, in seq order. */
export function expandPackedRow(row: PackedRow): AssistantChunkEvent[] {
	const events: AssistantChunkEvent[] = [];
	let time = row.time0;
	for (const [k, part] of row.parts.entries()) {
		if (k > 0) {
			time += row.dt[k - 1];
		}

		events.push({type: 'assistant/chunk', seq: row.seq0 + k, time, data: {turn: row.turn, step: row.step, chunk: memberChunk(row, k, part)}});
	}

	return events;
}

function memberChunk(row: PackedRow, k: number, part: string): StreamChunk {
	switch (row.type) {
		case 'text-chunks':
			return {type: 'text-delta', index: row.index, text: part};
		case 'reasoning-chunks':
			return {type: 'reasoning-delta', index: row.index, text: part};
		case 'tool-call-chunks':
			// The name travels on the first delta only, as in an unpacked stream.
			return k === 0 && row.name !== undefined
				? {type: 'tool-call-delta', index: row.index, id: row.id, name: row.name, argumentsDelta: part}
				: {type: 'tool-call-delta', index: row.index, id: row.id, argumentsDelta: part};
		default:
			return assertNever(row.type, 'packed chunk row type');
	}
}
