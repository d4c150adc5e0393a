/**
@module What an `assistant/chunk` says (contract.md §E3.2, §E3.4), read once: a piece of
the streamed text or reasoning, or a tool call being prepared. Block starts, usage and finish chunks
say nothing a view shows while the step streams; the final `assistant/message` carries them.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {ChunkData} from '../events/events.js';

const isInt = (value: unknown): value is number => Number.isSafeInteger(value);

/** A delta of streamed text or reasoning; `index` is its content block. */
export type TextDelta = {readonly kind: 'text' | 'reasoning'; readonly index: number; readonly text: string};

/** A tool call the model is writing (`tool-call-delta`, or the `block-end` that completes it). */
export type ToolDelta = {readonly kind: 'tool'; readonly id: string; readonly name?: string};

export type ChunkFacts = {readonly turn: number; readonly step: number; readonly delta: TextDelta | ToolDelta | undefined};

/** The facts of an `assistant/chunk`'s data, or why it cannot be used. `delta` is undefined for chunks nothing shows. */
export function chunkFacts(data: ChunkData): ChunkFacts | string {
	if (data.turn === undefined || data.step === undefined) {
		return 'assistant/chunk needs integer turn and step';
	}

	const {turn, step, chunk} = data;
	const index = isInt(chunk.index) ? chunk.index : 0;
	switch (chunk.type) {
		case 'text-delta':
		case 'reasoning-delta': {
			return typeof chunk.text === 'string' ? {turn, step, delta: {kind: chunk.type === 'text-delta' ? 'text' : 'reasoning', index, text: chunk.text}} : `${chunk.type} without a string text`;
		}

		case 'tool-call-delta': {
			if (typeof chunk.id !== 'string') {
				return 'tool-call-delta without a string id';
			}

			return {turn, step, delta: {kind: 'tool', id: chunk.id, ...(typeof chunk.name === 'string' && chunk.name !== '' ? {name: chunk.name} : {})}};
		}

		case 'block-end': {
			const block = isJsonObject(chunk.block) ? chunk.block : undefined;
			// The complete tool-call block names a call whose deltas may not have.
			return block?.type === 'tool-call' && typeof block.id === 'string'
				? {turn, step, delta: {kind: 'tool', id: block.id, ...(typeof block.name === 'string' && block.name !== '' ? {name: block.name} : {})}}
				: {turn, step, delta: undefined};
		}

		default: {
			return {turn, step, delta: undefined};
		}
	}
}

/** Streamed text so far, as the final message will join its blocks (a blank line between two blocks). */
export type StreamText = {readonly text: string; readonly reasoning: string; readonly textIndex?: number; readonly reasoningIndex?: number};

export const emptyStreamText: StreamText = Object.freeze({text: '', reasoning: ''});

/** `so` with `delta` appended. */
export function appendStreamText(so: StreamText, delta: TextDelta): StreamText {
	if (delta.kind === 'text') {
		const joint = so.textIndex !== undefined && so.textIndex !== delta.index && so.text !== '' ? '\n\n' : '';
		return {...so, text: so.text + joint + delta.text, textIndex: delta.index};
	}

	const joint = so.reasoningIndex !== undefined && so.reasoningIndex !== delta.index && so.reasoning !== '' ? '\n\n' : '';
	return {...so, reasoning: so.reasoning + joint + delta.text, reasoningIndex: delta.index};
}
