/**
@module What a compaction card says, in words: its headline, its rows (what was pruned and
summarised, with their seq ranges), and what it shows expanded (the summary, the evidence). One
wording for the layout, the pager's search and copy, and print mode.
*/
import type {CompactionEntry} from './entry.js';

export type CompactionText = {readonly headline: string; readonly rows: readonly string[]; readonly detail: readonly string[]};

export function compactionText(entry: CompactionEntry): CompactionText {
	const trigger = entry.trigger === undefined ? '' : ` (${triggerWords(entry.trigger)})`;
	const tokens = entry.tokensBefore === undefined ? '' : ` · ${count(entry.tokensBefore)}${entry.tokensAfter === undefined ? '' : ` → ${count(entry.tokensAfter)}`} tokens`;
	const headline = entry.error === undefined ? `compacted the context${trigger}${tokens}` : `compaction failed${trigger}: ${entry.error}`;
	const rows: string[] = [];
	if (entry.pruned !== undefined) {
		rows.push(`pruned ${entry.pruned.count} tool ${entry.pruned.count === 1 ? 'result' : 'results'} (${count(entry.pruned.tokens)} tokens)${range(entry.pruned.range)}`);
	}

	if (entry.summarised !== undefined) {
		const tokensOf = entry.summarised.tokens === undefined ? '' : ` (${count(entry.summarised.tokens)} tokens)`;
		rows.push(`summarised ${entry.summarised.count} ${entry.summarised.count === 1 ? 'message' : 'messages'}${tokensOf}${range(entry.summarised.range)}`);
	}

	if (entry.focus !== undefined) {
		rows.push(`focus: ${entry.focus}`);
	}

	if (entry.note !== undefined) {
		rows.push(entry.note);
	}

	// A log's summary may have any number of lines: concatenated, never spread into a call.
	let detail: string[] = entry.summary === undefined ? [] : entry.summary.split('\n');
	if (entry.evidence.length > 0) {
		detail = detail.concat(detail.length > 0 ? [''] : [], entry.evidence);
	}

	return {headline, rows, detail};
}

/** All of it as plain text (search, copy). */
export function compactionPlainText(entry: CompactionEntry): string {
	const text = compactionText(entry);
	return [text.headline, ...text.rows, ...text.detail].join('\n');
}

function triggerWords(trigger: string): string {
	switch (trigger) {
		case 'auto': {
			return 'automatic';
		}

		case 'manual': {
			return '/compact';
		}

		case 'overflow': {
			return 'the provider said the context was too long';
		}

		default: {
			return trigger;
		}
	}
}

function range(seqs: {readonly start: number; readonly end: number} | undefined): string {
	return seqs === undefined ? '' : ` · log seqs ${seqs.start}–${seqs.end}`;
}

function count(tokens: number): string {
	return tokens >= 1000 ? `${(tokens / 1000).toFixed(tokens >= 10_000 ? 0 : 1).replace(/\.0$/, '')}k` : String(tokens);
}
