/**
@module A compaction's card from the event it is anchored on: cardterm's `compaction/summary` (or,
when it only pruned, its `compaction/end`) carries every fact; another producer's summary carries
the shadowed range, seqs and tokens and the summary; an end with `error` says why it failed.
*/
import type {CompactionEntry} from '../../presentation/entry.js';
import type {CompactionEndEvent, CompactionSummaryEvent} from '../events/events.js';
import {contentText} from './entry-facts.js';

export function compactionEntry(event: CompactionSummaryEvent | CompactionEndEvent): CompactionEntry {
	const {data} = event;
	const summary = event.type === 'compaction/summary' && data.summary !== undefined ? contentText(event.data.summary).trim() : '';
	const shadowed = event.type === 'compaction/summary' ? event.data : undefined;
	const summarisedCount = shadowed?.shadowedSeqs?.length ?? (shadowed?.shadowedRange === undefined ? undefined : 0);
	return {
		entry: 'compaction',
		seq: event.seq,
		time: event.time,
		revision: 0,
		...(data.trigger === undefined ? {} : {trigger: data.trigger}),
		...(data.tokensBefore === undefined ? {} : {tokensBefore: data.tokensBefore}),
		...(data.tokensAfter === undefined ? {} : {tokensAfter: data.tokensAfter}),
		...(data.prunedCount === undefined ? {} : {pruned: {count: data.prunedCount, tokens: data.prunedTokens ?? 0, ...(data.prunedRange === undefined ? {} : {range: data.prunedRange})}}),
		...(summarisedCount === undefined ? {} : {summarised: {count: summarisedCount, ...(shadowed?.shadowedTokenCount === undefined ? {} : {tokens: shadowed.shadowedTokenCount}), ...(shadowed?.shadowedRange === undefined ? {} : {range: shadowed.shadowedRange})}}),
		...(summary === '' ? {} : {summary}),
		evidence: evidenceRows(data.evidence),
		...(data.focus === undefined ? {} : {focus: data.focus}),
		...(data.note === undefined ? {} : {note: data.note}),
		...(event.type === 'compaction/end' && event.data.error !== undefined ? {error: event.data.error} : {}),
	};
}

type Fields = Readonly<Record<string, unknown>>;

/** Items of each evidence list a card shows (the newest), and characters of each. */
const EVIDENCE_ITEMS = 40;
const EVIDENCE_ITEM_CHARS = 200;

/** The evidence lists as rows (`Files read: …`); what is not of its kind is left out. */
export function evidenceRows(evidence: Fields | undefined): string[] {
	if (evidence === undefined) {
		return [];
	}

	const rows: string[] = [];
	// A log may hold any number of items of any length: the newest few, each cut, are what a card can show.
	const list = (key: string): unknown[] => Array.isArray(evidence[key]) ? (evidence[key] as unknown[]).slice(-EVIDENCE_ITEMS).map(item => typeof item === 'string' ? item.slice(0, EVIDENCE_ITEM_CHARS) : item) : [];
	const read = list('filesRead').filter(item => typeof item === 'string');
	if (read.length > 0) {
		rows.push(`Files read: ${read.join(', ')}`);
	}

	const changed = list('filesChanged').filter((item): item is Fields => typeof item === 'object' && item !== null && typeof (item as Fields).path === 'string');
	if (changed.length > 0) {
		rows.push(`Files changed: ${changed.map(file => `${(file.path as string).slice(0, EVIDENCE_ITEM_CHARS)} (+${number(file.added)} −${number(file.removed)})`).join(', ')}`);
	}

	const commands = list('commands').filter((item): item is Fields => typeof item === 'object' && item !== null && typeof (item as Fields).command === 'string');
	if (commands.length > 0) {
		rows.push(`Commands run: ${commands.map(command => `${(command.command as string).slice(0, EVIDENCE_ITEM_CHARS)} (${typeof command.exitCode === 'number' ? `exit ${command.exitCode}` : 'no exit code'})`).join(', ')}`);
	}

	const failing = list('failingTests').filter(item => typeof item === 'string');
	if (failing.length > 0) {
		rows.push(`Failing tests seen: ${failing.join('; ')}`);
	}

	return rows;
}

function number(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
