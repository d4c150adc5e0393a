/**
@module The todo checklist: a `todo · 1 of 3 done` row, then one row per item with a glyph per
status (`✔` done, `◐` in progress, `○` pending); done items are recessed. `summary` keeps the first row.
*/
import type {TodoEntry, TodoStatus} from '../../presentation/entry.js';
import {formatCount} from '../text/format.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span, truncateSpans, wrapProseSpans} from '../text/spans.js';
import type {StyledLine, Style} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

const glyphs: Readonly<Record<TodoStatus, string>> = {completed: '✔', in_progress: '◐', pending: '○'};

function itemStyle(status: TodoStatus, theme: Theme): Style {
	return status === 'completed' ? theme.muted : (status === 'in_progress' ? theme.running : theme.title);
}

export function layoutTodoEntry(entry: TodoEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const done = entry.items.filter(item => item.status === 'completed').length;
	const rows: StyledLine[] = [{spans: truncateSpans([span('todo', theme.toolName), span(` · ${formatCount(done)} of ${formatCount(entry.items.length)} done`, theme.muted)], width)}];
	if (options.expansion === 'summary') {
		return rows;
	}

	for (const item of entry.items) {
		const style = itemStyle(item.status, theme);
		for (const row of wrapProseSpans([span(`${glyphs[item.status]} `, style), span(sanitizeInline(item.content), style)], width)) {
			rows.push(row);
		}
	}

	return rows;
}
