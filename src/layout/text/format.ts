/**
@module Numbers and times as cards print them. Pure: the clock is an argument.
*/
import type {Usage} from '../../presentation/entry.js';

/** Plain digits in groups of three from the right, a space between groups. */
function groupThousands(digits: string): string {
	let grouped = digits.slice(0, digits.length % 3 || 3);
	for (let index = grouped.length; index < digits.length; index += 3) {
		grouped += ` ${digits.slice(index, index + 3)}`;
	}

	return grouped;
}

/** `1 204`: thousands grouped with a space, readable in every locale and stable in snapshots. */
export function formatCount(value: number): string {
	const digits = String(Math.trunc(Math.abs(value)));
	// Most counts have no thousands to group; the regex is kept for exponent forms (`1e+21`).
	const grouped = digits.length <= 3 ? digits : (Math.abs(value) < 1e21 ? groupThousands(digits) : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' '));
	return value < 0 ? `-${grouped}` : grouped;
}

/** `1 line` / `3 lines`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
	return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** Elapsed time of a running card, in whole seconds: `3s`, `1m 05s`, `2h 03m`. */
export function formatElapsed(milliseconds: number): string {
	const seconds = Math.max(0, Math.floor(milliseconds / 1000));
	if (seconds < 60) {
		return `${seconds}s`;
	}

	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) {
		return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
	}

	return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Duration of a settled card: `120ms`, `1.2s`, `1m 05s`. */
export function formatDuration(milliseconds: number): string {
	const value = Math.max(0, milliseconds);
	if (value < 1000) {
		return `${Math.round(value)}ms`;
	}

	if (value < 60_000) {
		return `${(Math.floor(value / 100) / 10).toFixed(1)}s`;
	}

	return formatElapsed(value);
}

/** Token usage as the turn boundary and the status line word it: `1 204 in · 340 out · 30 reasoning · 1 664 cached · 120 cache writes`. */
export function formatUsage(usage: Usage): string {
	const parts = [`${formatCount(usage.inputTokens)} in`, `${formatCount(usage.outputTokens)} out`];
	if (usage.reasoningTokens !== undefined) {
		parts.push(`${formatCount(usage.reasoningTokens)} reasoning`);
	}

	if (usage.cacheReadTokens !== undefined) {
		parts.push(`${formatCount(usage.cacheReadTokens)} cached`);
	}

	// Anthropic bills writing to its cache apart (1.25× input): worth seeing beside the reads.
	if (usage.cacheWriteTokens !== undefined) {
		parts.push(`${formatCount(usage.cacheWriteTokens)} cache writes`);
	}

	return parts.join(' · ');
}
