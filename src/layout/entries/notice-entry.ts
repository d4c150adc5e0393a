/**
@module A notice: a muted `· source: summary`, wrapped between words under its text (a hanging
indent) rather than cut or left to the terminal to break mid-word; expanded (`full`), its detail
follows under the text in the same tone. A source that is an event type (`llm/retry`, `hook/result`, `acp/mode`)
names the log's record, not anyone a person knows: the summary says what happened, and a summary
that is only the type and its fields reads the type as words (`permission preset · mode yolo`).
*/
import type {NoticeEntry} from '../../presentation/entry.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {pushAll} from '../text/push-all.js';
import {span, wrapHanging} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

/** An event type: lower-case words joined by `/` (plugins name themselves otherwise: `@acme/x`, `skill-catalog`). */
const EVENT_TYPE = /^[a-z][a-z\d-]*(?:\/[a-z\d-]+)+$/;

/** What the notice says, for a person. */
function noticeText(source: string, summary: string): string {
	if (!EVENT_TYPE.test(source)) {
		return `${sanitizeInline(source)}: ${sanitizeInline(summary)}`;
	}

	const said = summary.startsWith(source) ? `${source.replaceAll(/[/-]/g, ' ')}${summary.slice(source.length)}` : summary;
	return sanitizeInline(said);
}

export function layoutNoticeEntry(entry: NoticeEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const more = entry.detail === undefined ? '' : (options.expansion === 'full' ? '' : ' …');
	const rows = wrapHanging([span('· ', theme.notice)], [span(`${noticeText(entry.source, entry.summary)}${more}`, theme.notice)], width);
	if (entry.detail !== undefined && options.expansion === 'full') {
		// The detail goes on from the summary, which is its first line, under its text.
		const detail = entry.detail.startsWith(entry.summary) ? entry.detail.slice(entry.summary.length).replace(/^\n+/, '') : entry.detail;
		for (const line of sanitizeLines(detail)) {
			pushAll(rows, line === '' ? [{spans: []}] : wrapHanging([span('  ')], [span(line, theme.notice)], width));
		}
	}

	return rows;
}
