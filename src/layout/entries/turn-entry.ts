/**
@module The end of a turn: one rule row `── completed · 12.3s · 1 204 in · 340 out ──` (reasoning and
cached tokens after them when the provider gave some), muted, or in
the error tone when the turn failed. Parts drop from the right when the width is short. A reason too
long for the rule (a provider's error, a refusal's explanation) is written whole above it, wrapped,
and the rule keeps its head (`error (HTTP 400)`, `blocked`, `max tokens`): a person reads why, not
`…`. A failure's advice (what to do next) is written under the reason, so the reason is then always
above the rule.
*/
import type {TurnEntry} from '../../presentation/entry.js';
import {formatDuration, formatUsage} from '../text/format.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span, truncateSpans, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import {displayWidth} from '../text/text-width.js';

export function layoutTurnEntry(entry: TurnEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const style = entry.outcome.failed ? theme.error : theme.notice;
	const text = sanitizeInline(entry.outcome.text);
	const colon = text.indexOf(': ');
	const {advice} = entry.outcome;
	if (colon > 0 && (advice !== undefined || displayWidth(text) + 6 > width)) {
		const adviceRows = advice === undefined ? [] : wrapProseSpans([span(sanitizeInline(advice), theme.notice)], width);
		return [...wrapProseSpans([span(text, style)], width), ...adviceRows, rule(text.slice(0, colon), entry, options)];
	}

	return [rule(text, entry, options)];
}

function rule(head: string, entry: TurnEntry, options: LayoutOptions): StyledLine {
	const {theme, width} = options;
	const parts = [head];
	if (entry.durationMs !== undefined) {
		parts.push(formatDuration(entry.durationMs));
	}

	if (entry.usage !== undefined) {
		parts.push(formatUsage(entry.usage));
	}

	const style = entry.outcome.failed ? theme.error : theme.notice;
	let label = ` ${parts.join(' · ')} `;
	while (parts.length > 1 && displayWidth(label) + 4 > width) {
		parts.pop();
		label = ` ${parts.join(' · ')} `;
	}

	const fill = Math.max(0, width - displayWidth(label) - 2);
	return {spans: truncateSpans([span(`──${label}${'─'.repeat(fill)}`, style)], width)};
}
