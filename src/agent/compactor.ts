/**
@module Compaction: making the model's context smaller, cheapest first, recorded in the DeepSeek
harness's vocabulary so that a resumed session (and any reader of the format) rebuilds the
compacted conversation. One compaction is `compaction/start`; then, tier one, each old tool result
pruned — a `compaction/prune` and a `tool/result` replacement whose body is a stub naming its card;
then, only when pruning was not enough, tier two — a `compaction/summary` and the checkpoint
`user/message` (source `{kind: 'plugin', plugin: 'compact'}`) that stands for the oldest messages;
then `compaction/end`. The summary is the model's (goal, constraints, progress, decisions, next
steps); its evidence lists are the log's (`compaction-evidence.ts`), accumulated. The todo list is
re-injected in the checkpoint; the instruction files are in the system prompt, which is never
compacted. The split never falls between a call and its results.

A compaction that would not shrink the context is refused, a failed summary request falls back to
pruning (and says so), and the automatic one never runs twice without a model step between.
*/
import type {EventLog} from '../session/events/event-log.js';
import type {CompactionFacts, EventFields, SessionEvent, TodoItem} from '../session/events/events.js';
import type {ToolSchema} from '../tools/types.js';
import {evidenceFields, evidenceLines, evidenceOf, gatherEvidence, NO_EVIDENCE, type Evidence} from './compaction-evidence.js';
import type {Conversation, SurfaceItem} from './conversation.js';
import type {ContextLedger} from './context-ledger.js';
import type {ConversationMessage, ModelClient, ModelUsage} from './model-types.js';
import {estimateTokens} from './token-estimate.js';

export type CompactionTrigger = 'auto' | 'manual' | 'overflow';

/** What a compaction did, for the loop and `/compact`. */
export type CompactionOutcome =
	| {readonly kind: 'compacted'; readonly before: number; readonly after: number; readonly summarised: boolean; readonly note?: string}
	| {readonly kind: 'refused'; readonly reason: string};

type Entry = {readonly seq: number; readonly value: SurfaceItem};

export type CompactorOptions = {
	readonly log: EventLog;
	readonly conversation: Conversation;
	readonly ledger: ContextLedger;
	readonly model: () => ModelClient;
	readonly system: string;
	readonly tools: () => readonly ToolSchema[];
	/** Events of the session so far (a resumed log): the evidence, the todo list and the last compaction. */
	readonly history?: Iterable<SessionEvent>;
};

/** A pruned result's body: one line that names what it was and where the whole is. */
const STUB_TOKENS = 40;
/** After a compaction the context should be at most this share of the threshold, or the next step compacts again. */
const TARGET_SHARE = 0.7;
/** The newest messages a summary keeps verbatim, as a share of the threshold. */
const KEEP_SHARE = 0.3;
/** Tool results kept whole by pruning, as a share of the threshold (the newest ones). */
const PROTECT_SHARE = 0.25;
/** Most tokens a summary may have, and the share of the window it may take. */
const SUMMARY_MAX_TOKENS = 4000;
const SUMMARY_WINDOW_SHARE = 0.12;
/** Characters of one message in the summary request's material. */
const MATERIAL_MESSAGE_CHARS = 4000;

export const SUMMARY_SYSTEM = `You write the summary that replaces the older part of a coding agent's conversation when its context is compacted. The agent continues from your summary alone, so keep what it needs to go on and nothing else.

Answer in Markdown with exactly these sections:
## Goal
## Constraints and preferences
## Progress
### Done
### In progress
### Blocked
## Key decisions
## Next steps

Be specific: name files, functions, commands, error messages and numbers. Do not list files read or changed, commands run or failing tests: cardterm adds those lists from its log. Do not call tools.`;

export class Compactor {
	readonly #options: CompactorOptions;
	#evidence: Evidence = NO_EVIDENCE;
	#todos: readonly TodoItem[] = [];
	/** A compaction ran and no model step answered since: the automatic one waits. */
	#sinceStep = false;
	readonly #unlisten: () => void;

	constructor(options: CompactorOptions) {
		this.#options = options;
		for (const event of options.history ?? []) {
			this.#hear(event);
		}

		// Read by the loop's listener order: the conversation hears first (the loop subscribes it earlier).
		this.#unlisten = options.log.listen(event => {
			this.#hear(event);
		});
	}

	dispose(): void {
		this.#unlisten();
	}

	/** Whether the next request should compact first: over the threshold, and not just compacted. */
	due(): boolean {
		const threshold = this.#options.ledger.threshold;
		return threshold !== undefined && !this.#sinceStep && this.#estimate() > threshold;
	}

	/** Compact now; `focus` is what the summary should keep above all (`/compact FOCUS`). */
	async compact(trigger: CompactionTrigger, options: {readonly signal: AbortSignal; readonly focus?: string; readonly turn?: number}): Promise<CompactionOutcome> {
		const {ledger, log} = this.#options;
		const before = this.#estimate();
		// The provider refused the request (its window is smaller than the ledger's), or the person asked: the plan is made from what the context holds now.
		const known = ledger.threshold ?? ledger.window?.tokens ?? before;
		const threshold = trigger === 'auto' ? known : Math.min(known, Math.floor(before * (trigger === 'overflow' ? 0.8 : 1)));
		const target = Math.floor(threshold * TARGET_SHARE);
		const prunable = this.#prunable(Math.floor(threshold * PROTECT_SHARE));
		const pruneSaves = prunable.reduce((sum, entry) => sum + entry.value.tokens - STUB_TOKENS, 0);
		const summary = this.#summaryRange(Math.floor(threshold * KEEP_SHARE));
		const wantsSummary = trigger === 'manual' || before - pruneSaves > target;
		if (prunable.length === 0 && (summary === undefined || !wantsSummary)) {
			return {kind: 'refused', reason: summary === undefined ? 'nothing to compact: no old tool results to prune and too few messages to summarise' : 'nothing to prune, and the context is small enough'};
		}

		const compactionId = `compaction-${log.nextSeq}`;
		const turn = options.turn ?? null;
		log.emit({type: 'compaction/start', data: {compactionId, turn, trigger}});
		const pruned = this.#prune(prunable);
		let note: string | undefined;
		let summarised = false;
		let facts: CompactionFacts = {trigger, tokensBefore: before, ...(options.focus === undefined ? {} : {focus: options.focus}), ...pruned.facts};
		if (wantsSummary) {
			// The range again: pruning replaced seqs in it.
			const range = this.#summaryRange(Math.floor(threshold * KEEP_SHARE));
			if (range === undefined) {
				note = 'too few messages to summarise';
			} else {
				const written = await this.#summarise(range, compactionId, facts, options);
				if (typeof written === 'string') {
					note = written;
				} else {
					summarised = true;
					facts = written;
				}
			}
		}

		// A failed summary falls back to pruning every result but the newest.
		if (note !== undefined && wantsSummary && !summarised) {
			const more = this.#prune(this.#prunable(0));
			facts = {...facts, prunedCount: (facts.prunedCount ?? 0) + (more.facts.prunedCount ?? 0), prunedTokens: (facts.prunedTokens ?? 0) + (more.facts.prunedTokens ?? 0), ...(more.facts.prunedRange === undefined ? {} : {prunedRange: {start: facts.prunedRange?.start ?? more.facts.prunedRange.start, end: more.facts.prunedRange.end}})};
		}

		const after = this.#estimate();
		this.#sinceStep = true;
		const shrank = after < before;
		const error = shrank ? undefined : `the compaction did not shrink the context (${before} → ${after} tokens)`;
		const endFacts: CompactionFacts & EventFields = summarised ? {} : {...facts, tokensAfter: after, evidence: evidenceFields(this.#evidence), ...(note === undefined ? {} : {note})};
		log.emit({type: 'compaction/end', data: {compactionId, turn, ...endFacts, ...(error === undefined ? {} : {error})}});
		if (!shrank) {
			return {kind: 'refused', reason: error!};
		}

		return {kind: 'compacted', before, after, summarised, ...(note === undefined ? {} : {note})};
	}

	/** The estimated tokens of the next request. */
	#estimate(): number {
		const {ledger, conversation, system, tools} = this.#options;
		return ledger.estimate({system, tools: tools(), surface: conversation.surface()});
	}

	#hear(event: SessionEvent): void {
		switch (event.type) {
			case 'assistant/message': {
				if (typeof event.surfaceOp !== 'object') {
					this.#sinceStep = false;
				}

				break;
			}

			case 'todo/write': {
				this.#todos = event.data.todos;
				break;
			}

			case 'compaction/summary':
			case 'compaction/end': {
				if (event.data.evidence !== undefined) {
					this.#evidence = evidenceOf(event.data.evidence);
				}

				break;
			}

			default: {
				break;
			}
		}
	}

	/** Tool results older than the newest ones worth `protect` tokens, whose bodies are worth pruning. */
	#prunable(protect: number): Entry[] {
		const surface = this.#options.conversation.surface();
		const out: Entry[] = [];
		let kept = 0;
		let newest = true;
		for (let index = surface.length - 1; index >= 0; index--) {
			const entry = surface[index]!;
			const result = entry.value.result;
			if (result === undefined || result.pruned) {
				continue;
			}

			// The newest result always stays: the model is about to read it.
			if (newest || kept + entry.value.tokens <= protect) {
				newest = false;
				kept += entry.value.tokens;
				continue;
			}

			if (entry.value.tokens > STUB_TOKENS * 2) {
				out.unshift(entry);
			}
		}

		return out;
	}

	#prune(entries: readonly Entry[]): {readonly facts: CompactionFacts} {
		const {log} = this.#options;
		let tokens = 0;
		let first: number | undefined;
		let last: number | undefined;
		this.#evidence = gatherEvidence(this.#evidence, this.#withCalls(entries));
		for (const {seq, value} of entries) {
			const result = value.result!;
			const message = value.messages.find(candidate => candidate.role === 'tool');
			const text = `[pruned by a compaction: the ${result.name} result (about ${value.tokens} tokens) is no longer in the context; the whole is on the card of call ${result.callId} (log seq ${seq}). Run the call again if you need it.]`;
			log.emit({type: 'compaction/prune', data: {shadowedRange: {start: seq, end: seq}, shadowedSeqs: [seq], shadowedTokenCount: value.tokens}});
			const replacement = log.emit({
				type: 'tool/result',
				data: {
					...(result.turn === undefined ? {} : {turn: result.turn}),
					...(result.step === undefined ? {} : {step: result.step}),
					message: {id: `pruned-${log.nextSeq}`, role: 'user', source: {kind: 'tool', callId: result.callId}, content: [{type: 'tool-result', toolCallId: result.callId, content: [{type: 'text', text}], isError: message?.role === 'tool' ? message.isError : false}]},
					...(result.meta === undefined ? {} : {meta: result.meta}),
				},
				surfaceOp: {op: 'replace', start: seq, end: seq},
				sourceEventSeqs: [seq],
			});
			tokens += value.tokens;
			first ??= seq;
			last = replacement.seq;
		}

		return {facts: entries.length === 0 ? {} : {prunedCount: entries.length, prunedTokens: tokens, prunedRange: {start: first!, end: last!}}};
	}

	/** The messages a summary would stand for: all but the newest worth `keep` tokens, never ending between a call and its results. */
	#summaryRange(keep: number): Entry[] | undefined {
		const surface = this.#options.conversation.surface();
		let split = surface.length;
		let kept = 0;
		while (split > 1 && kept + surface[split - 1]!.value.tokens <= keep) {
			split--;
			kept += surface[split]!.value.tokens;
		}

		// Keep at least the newest message; a kept part that opens with results keeps the call that made them.
		split = Math.min(split, surface.length - 1);
		while (split > 0 && surface[split]!.value.messages[0]?.role === 'tool') {
			split--;
		}

		const range = surface.slice(0, split);
		// A range that is one earlier summary alone is no compaction.
		return range.length === 0 || (range.length === 1 && range[0]!.value.checkpoint === true) ? undefined : range;
	}

	/** Ask the model for the summary of `range`, and write it; the facts of the card, or why it could not. */
	async #summarise(range: readonly Entry[], compactionId: string, facts: CompactionFacts, options: {readonly signal: AbortSignal; readonly focus?: string}): Promise<CompactionFacts | string> {
		const {log, ledger} = this.#options;
		const model = this.#options.model();
		const window = ledger.window?.tokens;
		const maxTokens = Math.max(256, Math.min(SUMMARY_MAX_TOKENS, window === undefined ? SUMMARY_MAX_TOKENS : Math.floor(window * SUMMARY_WINDOW_SHARE)));
		// The request itself must fit: its material is cut to what the window leaves after the answer and the instructions.
		const budget = Math.max(1000, (ledger.threshold ?? window ?? 100_000) - maxTokens - estimateTokens(SUMMARY_SYSTEM) - 500);
		const material = summaryMaterial(range.map(entry => entry.value), budget, options.focus);
		let text = '';
		let usage: ModelUsage | undefined;
		try {
			for await (const part of model.stream({system: SUMMARY_SYSTEM, messages: [{role: 'user', text: material}], tools: [], signal: options.signal})) {
				if (part.type === 'error') {
					return `the summary request failed (${part.error.message}); pruned tool results instead`;
				}

				if (part.type === 'text-delta') {
					text += part.text;
				} else if (part.type === 'finish') {
					usage = part.usage;
				}
			}
		} catch (error) {
			return `the summary request failed (${error instanceof Error ? error.message : String(error)}); pruned tool results instead`;
		}

		if (options.signal.aborted) {
			return 'the summary request was cancelled; pruned tool results instead';
		}

		if (text.trim() === '') {
			return 'the model answered the summary request with nothing; pruned tool results instead';
		}

		const shadowed = range.map(entry => entry.seq);
		const shadowedTokens = range.reduce((sum, entry) => sum + entry.value.tokens, 0);
		this.#evidence = gatherEvidence(this.#evidence, this.#withCalls(range));
		const checkpoint = checkpointText(text.trim(), this.#evidence, this.#todos, options.focus);
		if (estimateTokens(checkpoint) >= shadowedTokens) {
			return `the summary (${estimateTokens(checkpoint)} tokens) was no smaller than what it would replace (${shadowedTokens}); kept the messages`;
		}

		const start = range[0]!.seq;
		const end = range.at(-1)!.seq;
		const summaryFacts: CompactionFacts = {...facts, tokensAfter: Math.max(0, this.#estimate() - shadowedTokens + estimateTokens(checkpoint)), evidence: evidenceFields(this.#evidence)};
		const summary = log.emit({
			type: 'compaction/summary',
			data: {
				compactionId, summary: [{type: 'text', text: text.trim()}], shadowedRange: {start, end}, shadowedSeqs: shadowed, shadowedTokenCount: shadowedTokens,
				provider: model.provider, model: model.model, maxTokens,
				...(usage === undefined ? {} : {usage: {inputTokens: usage.inputTokens, outputTokens: usage.outputTokens}}),
				...summaryFacts,
			},
		});
		log.emit({
			type: 'user/message',
			data: {id: `checkpoint-${compactionId}`, role: 'user', content: [{type: 'text', text: checkpoint}], source: {kind: 'plugin', plugin: 'compact', compactionId}},
			surfaceOp: {op: 'replace', start, end},
			sourceEventSeqs: [...shadowed, summary.seq],
		});
		return summaryFacts;
	}

	/** `entries` with the assistant messages that made their calls (a pruned result's call is an earlier message, for the evidence). */
	#withCalls(entries: readonly Entry[]): SurfaceItem[] {
		const items: SurfaceItem[] = entries.map(entry => entry.value);
		const wanted = new Set(entries.map(entry => entry.value.result?.callId).filter(id => id !== undefined));
		if (wanted.size === 0) {
			return items;
		}

		for (const {value} of this.#options.conversation.surface()) {
			if (value.messages.some(message => message.role === 'assistant' && message.content.some(part => part.type === 'tool-call' && wanted.has(part.id)))) {
				items.unshift(value);
			}
		}

		return items;
	}
}

/** The summary request's material: the messages as a transcript, each cut, the middle left out when the whole would not fit `budget` tokens. */
export function summaryMaterial(items: readonly SurfaceItem[], budget: number, focus: string | undefined): string {
	const rendered = items.flatMap(item => item.messages.map(message => cut(render(message), MATERIAL_MESSAGE_CHARS)));
	let total = rendered.reduce((sum, text) => sum + estimateTokens(text), 0);
	// The first message (often the last summary) and the newest stay; the middle goes first.
	let dropped = 0;
	while (total > budget && rendered.length > 2) {
		const [removed] = rendered.splice(1, 1);
		total -= estimateTokens(removed!);
		dropped++;
	}

	if (dropped > 0) {
		rendered.splice(1, 0, `[${dropped} messages left out here: the summary request had to fit the window]`);
	}

	const ask = `Summarise the conversation below for the agent that continues it.${focus === undefined ? '' : ` Above all keep what concerns: ${focus}`}`;
	return `${ask}\n\n<conversation>\n${rendered.join('\n\n')}\n</conversation>`;
}

function render(message: ConversationMessage): string {
	switch (message.role) {
		case 'user': {
			return `[user]\n${message.text}`;
		}

		case 'tool': {
			return `[result of ${message.name}${message.isError ? ', an error' : ''}]\n${message.text}`;
		}

		case 'assistant': {
			return `[assistant]\n${message.content.map(part => part.type === 'tool-call' ? `(calls ${part.name} ${part.arguments})` : (part.type === 'text' ? part.text : '')).filter(text => text !== '').join('\n')}`;
		}
	}
}

function cut(text: string, chars: number): string {
	return text.length <= chars ? text : `${text.slice(0, Math.floor(chars * 0.6))}\n[… ${text.length - chars} characters left out …]\n${text.slice(text.length - Math.floor(chars * 0.4))}`;
}

/** The checkpoint the model reads in place of the summarised messages. */
function checkpointText(summary: string, evidence: Evidence, todos: readonly TodoItem[], focus: string | undefined): string {
	const parts = [
		'This conversation was compacted: the messages before this one are replaced by the summary below. The system prompt and its instruction files (AGENTS.md) are unchanged.',
		`<summary>\n${summary}\n</summary>`,
	];
	const lines = evidenceLines(evidence);
	if (lines.length > 0) {
		parts.push(`Evidence from the session's log (written by cardterm from the calls' records, not by the model):\n${lines.map(line => `- ${line}`).join('\n')}`);
	}

	if (todos.length > 0) {
		parts.push(`The todo list now:\n${todos.map(todo => `- [${todo.status === 'completed' ? 'x' : (todo.status === 'in_progress' ? '~' : ' ')}] ${todo.content}`).join('\n')}`);
	}

	if (focus !== undefined) {
		parts.push(`The person asked to keep the focus on: ${focus}`);
	}

	return parts.join('\n\n');
}
