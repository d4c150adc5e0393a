/**
Issue 11, item 4: a folded layout builds only the rows its fold shows (src/layout/cards/body-rows.ts),
and folds exactly as folding every row would.
*/
import {describe, expect, it} from 'vitest';
import type {BodyContext} from '../../../src/layout/cards/body-text.js';
import {BodyRows} from '../../../src/layout/cards/body-rows.js';
import {foldBody, foldPolicy} from '../../../src/layout/cards/fold-body.js';
import {layoutCardBody, layoutCardUncached} from '../../../src/layout/cards/layout-card.js';
import type {Expansion} from '../../../src/layout/text/layout-options.js';
import {layoutHeader} from '../../../src/layout/cards/card-header.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {StyledLine} from '../../../src/layout/text/styled-line.js';
import type {Card} from '../../../src/presentation/card.js';
import {makeCard, text} from '../fixtures.js';
import {options} from '../helpers.js';
import {snapshotCases} from '../snapshot-cases.js';

const LINES = 300_000;
const output = (lines: number) => Array.from({length: lines}, (_, index) => `row ${index + 1}`).join('\n');

/** Cards of every body that builds rows through BodyRows, with `lines` rows of output each. */
const bigCards = (lines: number): Card[] => [
	makeCard({name: 'bash', callView: {card: 'terminal', title: `seq ${lines}`, description: 'many rows'}, result: {content: text('x\n[exit code: 1]'), view: {card: 'terminal', output: output(lines), exitCode: 1}}}),
	makeCard({name: 'bash', callView: {card: 'terminal', title: 'tail -f log'}, progress: {text: output(lines), truncated: true}}),
	makeCard({name: 'job_output', callView: {card: 'generic', title: 'Read output'}, result: {content: text(output(lines))}}),
	makeCard({name: 'job_output', callView: {card: 'generic', title: 'Read output'}, result: {content: text(`boom\n${output(lines)}`), isError: true, error: {name: 'ToolError', code: 'E_BOOM'}}}),
	makeCard({name: 'run_code', callView: {card: 'generic', title: 'Run', rawInput: 'for (;;) log()'}, progress: {text: output(lines), truncated: false}}),
	makeCard({name: 'glob', args: {pattern: '*'}, callView: {card: 'generic', title: 'Glob *'}, result: {content: text('x'), view: {card: 'search', shape: 'paths', paths: Array.from({length: lines}, (_, index) => `f${index}.ts`), truncated: false, total: lines}}}),
];

/** The old way: every row built (no `keep`), then folded; the header and body rows. */
function foldedFromEveryRow(card: Card, width: number, expansion: Expansion): StyledLine[] {
	const layout = options(width, {expansion});
	const context: BodyContext = {width, theme: layout.theme, expansion, sessionCwd: layout.sessionCwd};
	return [layoutHeader(card, layout), ...foldBody(layoutCardBody(card, context), expansion, foldPolicy(card), width, layout.theme)];
}

describe('folded layouts', () => {
	it('keep at most the pinned rows and twice the fold budget of a 300 000-row body', () => {
		for (const card of bigCards(LINES)) {
			const {budget} = foldPolicy(card);
			const body = layoutCardBody(card, {width: 80, theme: colorTheme, expansion: 'bounded', keep: budget});
			expect(body.lines.length).toBeLessThanOrEqual((body.pinnedTop ?? 0) + 2 * budget);
			expect(body.lines.length + (body.omitted?.count ?? 0)).toBeGreaterThanOrEqual(LINES);
		}
	});

	it('fold exactly as folding every row does, for every snapshot case and 5 000-row cards', () => {
		const cards = [...snapshotCases().map(item => item.card), ...bigCards(5000)];
		for (const card of cards) {
			for (const expansion of ['bounded', 'summary'] as const) {
				for (const width of [40, 80]) {
					const expected = foldedFromEveryRow(card, width, expansion);
					expect(layoutCardUncached(card, options(width, {expansion})).slice(0, expected.length)).toEqual(expected);
				}
			}
		}
	});

	it('build only the footer of a diff or search card for a folded summary (the one row it shows)', () => {
		const cards = snapshotCases().map(item => item.card).filter(card => card.resultView?.card === 'diff' || card.resultView?.card === 'search');
		const seen = new Set<string>();
		for (const card of cards) {
			const body = layoutCardBody(card, {width: 80, theme: colorTheme, expansion: 'summary', keep: foldPolicy(card).budget});
			const full = layoutCardBody(card, {width: 80, theme: colorTheme, expansion: 'summary'});
			expect(body.lines).toEqual(full.lines.slice(-body.lines.length));
			expect(body.lines.length).toBe(full.pinnedBottom);
			const view = card.resultView!;
			seen.add(view.card === 'search' ? `search-${view.shape}` : view.card);
		}

		expect([...seen].sort()).toEqual(['diff', 'search-matches', 'search-paths']);
	});

	it('keeps the head, the pinned rows and a ring of the last rows', () => {
		const rows = new BodyRows(2, {pinned: true});
		const row = (label: string) => ({spans: [{text: label}]});
		rows.push(row('$ cmd'));
		rows.pin();
		for (let index = 1; index <= 7; index++) {
			rows.push(row(`r${index}`));
		}

		const body = rows.body();
		expect(body.lines.map(line => line.spans[0]!.text)).toEqual(['$ cmd', 'r1', 'r2', 'r6', 'r7']);
		expect(body).toMatchObject({pinnedTop: 1, omitted: {at: 3, count: 3}});
	});
});
