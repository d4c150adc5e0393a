/**
@module The `--json` object of a transcript entry: `entry` names the kind; a card keeps every field
of `cardToJson` (existing `jq` filters on cards keep working) plus the outcome.
*/
import {assertNever} from './assert-never.js';
import {cardToJson, type CardJson, type CardJsonChecks} from './card-json.js';
import type {ImageAttachment} from '../tools/content.js';
import type {CompactionEntry, TranscriptEntry, Usage} from './entry.js';
import type {PromptReference} from './prompt-reference.js';

export type EntryJson =
	| ({readonly entry: 'card'} & CardJson)
	| {readonly entry: 'user'; readonly seq: number; readonly time: number; readonly source: 'user' | 'steering'; readonly text: string; readonly references?: readonly PromptReference[]; readonly images?: readonly ImageAttachment[]}
	| {readonly entry: 'assistant'; readonly seq: number; readonly time: number; readonly turn: number | null; readonly step: number | null; readonly text: string; readonly reasoning: string; readonly interrupted: boolean; readonly streaming: boolean; readonly preparing: readonly string[]}
	| {readonly entry: 'turn'; readonly seq: number; readonly time: number; readonly turn: number; readonly outcome: string; readonly failed: boolean; readonly durationMs: number | null; readonly usage: Usage | null}
	| {readonly entry: 'notice'; readonly seq: number; readonly time: number; readonly source: string; readonly summary: string; readonly detail: string | null}
	| {readonly entry: 'todo'; readonly seq: number; readonly time: number; readonly items: ReadonlyArray<{readonly content: string; readonly status: string}>}
	| ({readonly entry: 'compaction'} & Omit<CompactionEntry, 'entry' | 'revision'>);

/** `checks` are passed to `cardToJson` for cards. */
export function entryToJson(entry: TranscriptEntry, checks: CardJsonChecks = {}): EntryJson {
	switch (entry.entry) {
		case 'card': {
			return {entry: 'card', ...cardToJson(entry.card, checks)};
		}

		case 'user': {
			// `references` and `images` only when the message has some: existing filters on plain messages see what they saw.
			return {entry: 'user', seq: entry.seq, time: entry.time, source: entry.source, text: entry.text, ...(entry.references === undefined ? {} : {references: entry.references}), ...(entry.images === undefined ? {} : {images: entry.images})};
		}

		case 'assistant': {
			return {entry: 'assistant', seq: entry.seq, time: entry.time, turn: entry.turn ?? null, step: entry.step ?? null, text: entry.text, reasoning: entry.reasoning, interrupted: entry.interrupted, streaming: entry.streaming, preparing: entry.preparing};
		}

		case 'turn': {
			return {entry: 'turn', seq: entry.seq, time: entry.time, turn: entry.turn, outcome: entry.outcome.text, failed: entry.outcome.failed, ...(entry.outcome.advice === undefined ? {} : {advice: entry.outcome.advice}), durationMs: entry.durationMs ?? null, usage: entry.usage ?? null};
		}

		case 'notice': {
			return {entry: 'notice', seq: entry.seq, time: entry.time, source: entry.source, summary: entry.summary, detail: entry.detail ?? null};
		}

		case 'todo': {
			return {entry: 'todo', seq: entry.seq, time: entry.time, items: entry.items};
		}

		case 'compaction': {
			const {revision: _revision, ...fields} = entry;
			return fields;
		}

		default: {
			return assertNever(entry, 'entryToJson');
		}
	}
}
