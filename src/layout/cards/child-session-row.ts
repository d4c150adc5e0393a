/**
@module The one dim row under a subagent card that says where its child session is: found (the
pager opens it on Enter; print mode inlines it when everything is expanded), or not found beside
the log.
*/
import {sanitizeInline} from '../text/sanitize.js';
import {span, truncateSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

/** Where a subagent card's child session is. */
export type ChildLink = {readonly found: true; readonly id: string} | {readonly found: false};

/** The row for `link`; `hint` follows a found child (what opens it). */
export function childSessionRow(link: ChildLink, theme: Theme, width: number, hint?: string): StyledLine {
	const text = link.found ? `↳ child session ${sanitizeInline(link.id)}${hint === undefined ? '' : ` · ${hint}`}` : '↳ child session not found beside this log';
	return {spans: truncateSpans([span(text, theme.muted)], width)};
}
