/**
@module Transcript entries: what a session shows, in order. A tool card is one kind; the others are
the person's messages, the model's answers and reasoning, turn boundaries, notices and the todo
checklist. Entries are plain immutable data, like cards; `seq` is the anchor event's seq (the key
that survives renumbering) and `revision` bumps on every change (layout caches key on it).
*/
import type {ImageAttachment} from '../tools/content.js';
import type {Card} from './card.js';
import type {PromptReference} from './prompt-reference.js';

/**
What the person (or a steering message) said. Attached images are `images` (a row each); an image
block without a readable reference is a `[image W×H name]` placeholder in `text`.
*/
export type UserEntry = {
	readonly entry: 'user';
	readonly seq: number;
	readonly time: number;
	/** `steering`: a message sent while the model was working (`steering/message`). */
	readonly source: 'user' | 'steering';
	readonly text: string;
	/** Its `@` references: what each attached, or why it did not (absent: none). */
	readonly references?: readonly PromptReference[];
	readonly images?: readonly ImageAttachment[];
	readonly revision: number;
};

/** What the model answered in one step: Markdown text and reasoning. */
export type AssistantEntry = {
	readonly entry: 'assistant';
	readonly seq: number;
	readonly time: number;
	readonly turn?: number;
	readonly step?: number;
	readonly text: string;
	readonly reasoning: string;
	/** The stream was cancelled: the text is the prefix that had arrived. */
	readonly interrupted: boolean;
	/** Still growing from `assistant/chunk` deltas (the step is open). */
	readonly streaming: boolean;
	/** Tool calls the stream is preparing (`tool-call-delta`), shown until their `tool/call` arrives. */
	readonly preparing: readonly string[];
	readonly revision: number;
};

/**
Token usage, summed over a turn's steps. Reasoning and cache-read tokens are present only when a
provider reported some (a count of 0 is how cardterm's client logs "not given").
*/
/** Token usage; `inputTokens` counts cached input too (`cacheReadTokens` read from the provider's cache, `cacheWriteTokens` written to it). */
export type Usage = {readonly inputTokens: number; readonly outputTokens: number; readonly reasoningTokens?: number; readonly cacheReadTokens?: number; readonly cacheWriteTokens?: number};

/** How a turn ended, for a person. `failed` colours it; `advice` says what to do next about a failure. */
export type TurnOutcome = {readonly text: string; readonly failed: boolean; readonly advice?: string};

/** The end of a turn: why, how long, what it cost. */
export type TurnEntry = {
	readonly entry: 'turn';
	readonly seq: number;
	readonly time: number;
	readonly turn: number;
	readonly outcome: TurnOutcome;
	/** From its `turn/start`; undefined when the start is not in the log. */
	readonly durationMs?: number;
	readonly usage?: Usage;
	readonly revision: number;
};

/** Something the harness or a plugin said: one dim line, with detail shown when expanded. */
export type NoticeEntry = {
	readonly entry: 'notice';
	readonly seq: number;
	readonly time: number;
	/** Who said it: a plugin's name or the event type (`hook/result`, `llm/retry`, …). */
	readonly source: string;
	readonly summary: string;
	readonly detail?: string;
	readonly revision: number;
};

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** The todo checklist as a `todo/write` (or a `todo_write` call) left it. */
export type TodoEntry = {
	readonly entry: 'todo';
	readonly seq: number;
	readonly time: number;
	readonly items: ReadonlyArray<{readonly content: string; readonly status: TodoStatus}>;
	readonly revision: number;
};

/** A range of the log's seqs (the pager follows it to the entries it covers). */
export type SeqRange = {readonly start: number; readonly end: number};

/**
A compaction of the model's context (cardterm's or another producer's): the tokens before and after,
what was pruned and summarised (seq ranges), the summary and the evidence lists generated from the
log. Fields a producer did not record are absent.
*/
export type CompactionEntry = {
	readonly entry: 'compaction';
	readonly seq: number;
	readonly time: number;
	/** `auto`, `manual`, `overflow`, or another producer's word. */
	readonly trigger?: string;
	readonly tokensBefore?: number;
	readonly tokensAfter?: number;
	readonly pruned?: {readonly count: number; readonly tokens: number; readonly range?: SeqRange};
	readonly summarised?: {readonly count: number; readonly tokens?: number; readonly range?: SeqRange};
	readonly summary?: string;
	/** `Files read: …` and the other evidence lines. */
	readonly evidence: readonly string[];
	readonly focus?: string;
	readonly note?: string;
	/** The compaction failed (or was refused): why. */
	readonly error?: string;
	readonly revision: number;
};

/** A tool call: the card model, tagged. */
export type CardEntry = {readonly entry: 'card'; readonly card: Card};

export type TranscriptEntry = CardEntry | UserEntry | AssistantEntry | TurnEntry | NoticeEntry | TodoEntry | CompactionEntry;

/** The cards among `entries`, in order. */
export function cardsOf(entries: readonly TranscriptEntry[]): Card[] {
	const cards: Card[] = [];
	for (const entry of entries) {
		if (entry.entry === 'card') {
			cards.push(entry.card);
		}
	}

	return cards;
}

/** Cards as transcript entries. */
export function asEntries(cards: readonly Card[]): CardEntry[] {
	return cards.map(card => ({entry: 'card', card}));
}
