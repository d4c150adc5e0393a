/**
The pager's "what the model knew" over a log with a compaction, drawn by Ink from the lazy log
index: each model step's ledger row says what it sent, the entries out of the model's context at the
selected entry's step get a dim gutter, `c` toggles the view, `l` on the compaction card follows its
range, and `/#N` goes to the entry of log seq N.
*/
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {openIndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {makeCard, text} from '../layout/fixtures.js';
import {startPager} from './harness/pager-screen.js';

const log = join(resolve(import.meta.dirname, '../fixtures/logs'), 'harness-compaction.jsonl');

async function openLog() {
	const source = await openIndexedEntrySource(log, {presenters: () => referencePresenters('/'), tail: false});
	await source.ready;
	return source;
}

/** The screen's rows (the frame without its numbering). */
function rows(frame: string): string[] {
	return [...frame.matchAll(/^\d+\| "(.*)"$/gm)].map(match => match[1]!);
}

describe('the pager\'s model view', () => {
	it('is on in a log with a compaction: ledger rows per step, and at the newest step the summarised turn has the dim gutter', async () => {
		const source = await openLog();
		const pager = await startPager(source, {columns: 80, rows: 24});
		try {
			const shown = rows(pager.tty.frame(false));
			// The cursor is on the newest entry: its step (turn 2) saw the checkpoint, not turn 1.
			expect(shown.slice(0, 6)).toEqual([
				'│ › Read the config and tell me the level.',
				'  ▸ turn 1 · step 1 sent ~10 tokens',
				'│ ● read src/config.ts · 9ms',
				'│ export const config = {level: \'info\'}',
				'  ▸ turn 1 · step 2 sent ~29 tokens',
				'│ The level is info.',
			]);
			// Neither the turn's end nor the compaction cards were ever in the context: no mark.
			expect(shown.filter(row => row.startsWith('│') || row.startsWith('┆'))).toHaveLength(4);
			expect(shown).toContain('  › Thanks.');
			expect(shown).toContain('  ▸ turn 2 · step 1 sent ~33 tokens');

			// On the first entry nothing had been compacted yet: no gutter anywhere.
			await pager.press('g');
			expect(rows(pager.tty.frame(false)).filter(row => row.startsWith('│') || row.startsWith('┆'))).toEqual([]);

			// c turns the view off: the transcript as the pager always drew it.
			await pager.press('c');
			const off = rows(pager.tty.frame(false));
			expect(off[0]).toBe('› Read the config and tell me the level.');
			expect(off.some(row => row.includes('▸ turn'))).toBe(false);
			expect(off.at(-1)).toContain('c: the model\'s view is off');
			await pager.press('c');
			expect(rows(pager.tty.frame(false))[1]).toBe('  ▸ turn 1 · step 1 sent ~10 tokens');
		} finally {
			await pager.close();
			source.close();
		}
	});

	it('marks a card whose result was pruned with ┆ at a step between the prune and the summary', async () => {
		// The fixture's prune (seq 12–13) and summary (14–15) come before any step: cut the summary out so the prune alone stands at turn 2.
		const {readFileSync, writeFileSync, mkdtempSync, rmSync} = await import('node:fs');
		const {tmpdir} = await import('node:os');
		const dir = mkdtempSync(join(tmpdir(), 'cardterm-model-view-'));
		const pruned = join(dir, 'pruned.jsonl');
		writeFileSync(pruned, readFileSync(log, 'utf8').split('\n').filter(line => !/"seq":1[45],/.test(line)).join('\n'));
		const source = await openIndexedEntrySource(pruned, {presenters: () => referencePresenters('/'), tail: false});
		await source.ready;
		const pager = await startPager(source, {columns: 80, rows: 24});
		try {
			const shown = rows(pager.tty.frame(false));
			expect(shown.slice(0, 6)).toEqual([
				'  › Read the config and tell me the level.',
				'  ▸ turn 1 · step 1 sent ~10 tokens',
				'┆ ● read src/config.ts · 9ms',
				'┆ export const config = {level: \'info\'}',
				'  ▸ turn 1 · step 2 sent ~29 tokens',
				'  The level is info.',
			]);
		} finally {
			await pager.close();
			source.close();
			rmSync(dir, {recursive: true, force: true});
		}
	});

	it('l on the compaction card goes to the first entry it summarised; /#N goes to the entry holding log seq N', async () => {
		const source = await openLog();
		const pager = await startPager(source, {columns: 80, rows: 24});
		try {
			// /#14 goes to the compaction card (entry 5 of 9, anchored at seq 14); l follows its range.
			await pager.press('/#14\r');
			expect(rows(pager.tty.frame(false)).at(-1)).toMatch(/^5\/9 /);
			await pager.press('l');
			expect(rows(pager.tty.frame(false)).at(-1)).toMatch(/^1\/9 /);
			// l elsewhere says what it is for.
			await pager.press('l');
			expect(rows(pager.tty.frame(false)).slice(-2).join('\n')).toContain('l: only a compaction card links to entries');
			// The tool result at seq 5 is on the read card (entry 2); so is its pruned copy (13).
			await pager.press('G/#5\r');
			expect(rows(pager.tty.frame(false)).at(-1)).toMatch(/^2\/9 /);
			await pager.press('G/#13\r');
			expect(rows(pager.tty.frame(false)).at(-1)).toMatch(/^2\/9 /);
			// Past the log's end: the newest entry holds it.
			await pager.press('g/#99999\r');
			expect(rows(pager.tty.frame(false)).at(-1)).toMatch(/^9\/9 /);
		} finally {
			await pager.close();
			source.close();
		}
	});

	it('a source without the model\'s context (cards from memory) draws as before, and c says why it cannot', async () => {
		const source = arrayEntrySource(asEntries([makeCard({name: 'bash', callId: 'c1', callView: {card: 'terminal', title: 'echo hi'}, result: {content: text('hi'), isError: false}})]));
		const pager = await startPager(source, {columns: 80, rows: 10});
		try {
			const before = pager.tty.frame(false);
			expect(before).not.toContain('▸');
			await pager.press('c');
			expect(rows(pager.tty.frame(false)).slice(-2).join('\n')).toContain('c: this view has no record of the model\'s context');
		} finally {
			await pager.close();
		}
	});
});
