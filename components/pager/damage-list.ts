/**
@module The pager's list of damaged lines (`!`): each `FILE:LINE: reason` as print mode names it,
wrapped to the width, then how many more were counted than kept. Pure: rows and the status texts.
*/
import {sanitizeInline} from '../../src/layout/text/sanitize.js';
import {span, wrapSpans} from '../../src/layout/text/spans.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';
import type {Theme} from '../../src/layout/text/theme.js';
import type {DamagedLines} from '../../src/session/reader/kept-diagnostics.js';
import {formatDiagnostic} from '../../src/session/reader/log-errors.js';

/** `N damaged line(s)`. */
export function damagedCount(total: number): string {
	return `${total} damaged line${total === 1 ? '' : 's'}`;
}

/** What the cards' status line says about damage: nothing when there is none. */
export function damageNote(damage: DamagedLines | undefined): string | undefined {
	return damage === undefined || damage.total === 0 ? undefined : `${damagedCount(damage.total)} (! lists)`;
}

/** The list's rows at `width`: the `FILE:LINE:` of each in the path style, its reason after it (sanitized: both come from the log). */
export function damageRows(damage: DamagedLines, width: number, theme: Theme): StyledLine[] {
	const rows = damage.kept.flatMap(diagnostic => {
		const text = formatDiagnostic(diagnostic);
		const where = `${diagnostic.file}:${diagnostic.line}:`;
		return wrapSpans([span(sanitizeInline(where), theme.path), span(sanitizeInline(text.slice(where.length)), theme.warning)], width);
	});
	const untold = damage.total - damage.kept.length;
	if (untold > 0) {
		rows.push({spans: [span(`… and ${untold} more (only the first ${damage.kept.length} are kept)`, theme.muted)]});
	}

	return rows;
}

/** The list's status line: where the view is, and its keys. */
export function damageStatus(damage: DamagedLines, top: number, height: number, count: number): string {
	const shown = count === 0 ? 'none' : `${top + 1}–${Math.min(count, top + height)}/${count}`;
	return `${damagedCount(damage.total)} · ${shown} · q close  j/k scroll  g/G top/bottom`;
}
