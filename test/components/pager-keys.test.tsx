import {describe, expect, it} from 'vitest';
import {asEntries} from '../../src/presentation/entry.js';
import type {Card} from '../../src/presentation/card.js';
import {arrayEntrySource, type EntrySource} from '../../src/transcript/entry-source.js';
import {PAGER_KEYS} from '../../components/pager/pager-keys.js';
import {makeCard, text} from '../layout/fixtures.js';
import {keys} from './harness/fake-terminal.js';
import {startPager} from './harness/pager-screen.js';


/** A settled `echo` card whose output is `lines` rows, so pages and half pages are easy to count. */
const card = (index: number, lines = 1): Card => ({
	...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `echo card${index}`}, result: {content: text(Array.from({length: lines}, (_, row) => `card${index} row${row}`).join('\n')), isError: false}}),
	seq: index,
});

const ctrl = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 96);

/** The status line (the pager's last non-blank row). */
function statusOf(text: string): string {
	return text.trimEnd().split('\n').at(-1)!.trimEnd();
}

describe('pager keys', () => {
	it('keeps "? help · q quit" whole on the status line at 120 and at 40 columns', async () => {
		const source = arrayEntrySource(asEntries(Array.from({length: 5}, (_, index) => card(index))));
		for (const columns of [120, 40]) {
			const pager = await startPager(source, {columns, rows: 12, title: columns === 120 ? 'session 2026-01-01' : 'a session title long enough to be cut at forty columns'});
			try {
				expect(statusOf(pager.tty.text())).toMatch(/\? help · q quit$/);
				if (columns === 120) {
					// The wide line also names the card keys, `o open` included.
					expect(pager.tty.text()).toContain('y copy  o open  e/E failures · ? help · q quit');
				}
			} finally {
				await pager.close();
			}
		}
	});

	it('lists every key on ?, scrolls the list, and any other key closes it without quitting', async () => {
		let quit = false;
		const source = arrayEntrySource(asEntries([card(0)]));
		// Wide enough that no key's line wraps.
		const pager = await startPager(source, {columns: 160, rows: 30, onExit() {
			quit = true;
		}});
		try {
			await pager.press('?');
			const shown = pager.tty.text();
			expect(shown).toContain('Pager keys');
			for (const key of PAGER_KEYS) {
				expect(shown).toContain(key.keys);
				expect(shown).toContain(key.does);
			}

			expect(shown).toContain('on the entries it quits like q');
			await pager.press('q');
			expect(quit).toBe(false);
			expect(pager.tty.text()).not.toContain('Pager keys');
			expect(pager.tty.text()).toContain('1/1');
		} finally {
			await pager.close();
		}
	});

	it('lists every key whole at 40 columns, each on its own row with what it does below', async () => {
		const pager = await startPager(arrayEntrySource(asEntries([card(0)])), {columns: 40, rows: 80});
		try {
			await pager.press('?');
			const rows = pager.tty.text().split('\n').map(row => row.trimEnd());
			for (const key of PAGER_KEYS) {
				expect(rows).toContain(key.keys);
			}

			expect(rows).toContain('  next / previous entry');
		} finally {
			await pager.close();
		}
	});

	it('takes less keys: Space and b page, Ctrl+D and Ctrl+U move half a page, g and G go to the ends', async () => {
		// 30 one-row-output cards, 2 rows each; 20 rows of terminal: 18 rows of cards on screen.
		const source = arrayEntrySource(asEntries(Array.from({length: 30}, (_, index) => card(index))));
		const pager = await startPager(source, {columns: 100, rows: 20});
		const firstShown = () => /echo card(\d+)/.exec(pager.tty.text())![1];
		try {
			await pager.press('g');
			expect(firstShown()).toBe('0');
			expect(statusOf(pager.tty.text())).toMatch(/^1\/30 /);
			await pager.press(' ');
			// A page is 18 rows: 9 cards.
			expect(firstShown()).toBe('9');
			await pager.press('b');
			expect(firstShown()).toBe('0');
			await pager.press(ctrl('d'));
			// Half a page: 9 rows, the top in the middle of card 4.
			expect(firstShown()).toBe('5');
			await pager.press(ctrl('u'));
			expect(firstShown()).toBe('0');
			await pager.press('G');
			expect(statusOf(pager.tty.text())).toMatch(/^30\/30 /);
			// Space no longer expands: Enter does.
			expect(pager.tty.text()).toContain('card29 row0');
		} finally {
			await pager.close();
		}
	});

	it('shows match i/N while stepping through search matches with n and N', async () => {
		const cards = Array.from({length: 8}, (_, index) => card(index));
		const source = arrayEntrySource(asEntries(cards));
		const pager = await startPager(source, {columns: 100, rows: 30});
		try {
			await pager.press('g');
			await pager.press('/');
			// card1, card3, card5 … no: every card whose text has `row0` matches; narrow to odd ones.
			for (const char of 'card3') {
				await pager.press(char);
			}

			await pager.press(keys.enter);
			expect(statusOf(pager.tty.text())).toMatch(/^4\/8 · match 1\/1 /);
			await pager.press('g');
			expect(statusOf(pager.tty.text())).toMatch(/^1\/8 · 1 match /);
			await pager.press('/');
			for (const char of 'echo') {
				await pager.press(char);
			}

			await pager.press(keys.enter);
			expect(statusOf(pager.tty.text())).toMatch(/^2\/8 · match 2\/8 /);
			await pager.press('n');
			expect(statusOf(pager.tty.text())).toMatch(/^3\/8 · match 3\/8 /);
			await pager.press('N');
			await pager.press('N');
			expect(statusOf(pager.tty.text())).toMatch(/^1\/8 · match 1\/8 /);
			// Before the first match, N goes round to the last one and says so (it said `no earlier match`).
			await pager.press('N');
			expect(statusOf(pager.tty.text())).toMatch(/^8\/8 · match 8\/8 · search wrapped /);
			await pager.press('n');
			expect(statusOf(pager.tty.text())).toMatch(/^1\/8 · match 1\/8 · search wrapped /);
			await pager.press('n');
			expect(statusOf(pager.tty.text())).toMatch(/^2\/8 · match 2\/8 · ● /);
		} finally {
			await pager.close();
		}
	});

	it('searches round the end: / from the newest entry, where the pager opens, finds the first match above and says the search wrapped', async () => {
		const source = arrayEntrySource(asEntries(Array.from({length: 8}, (_, index) => card(index))));
		const pager = await startPager(source, {columns: 100, rows: 30});
		const search = async (query: string) => {
			await pager.press('/');
			for (const char of query) {
				await pager.press(char);
			}

			await pager.press(keys.enter);
		};

		try {
			expect(statusOf(pager.tty.text())).toMatch(/^8\/8 /);
			await search('card3');
			// It said `no later match for "card3"` and stayed on 8/8.
			expect(statusOf(pager.tty.text())).toMatch(/^4\/8 · match 1\/1 · search wrapped /);
			// The only match is the cursor's own entry: n comes back to it, round the end.
			await pager.press('n');
			expect(statusOf(pager.tty.text())).toMatch(/^4\/8 · match 1\/1 · search wrapped /);
			// Any other key drops the note.
			await pager.press('j');
			expect(statusOf(pager.tty.text())).toMatch(/^5\/8 · 1 match · ● /);
			await search('nowhere');
			expect(statusOf(pager.tty.text())).toMatch(/^no match for "nowhere" · /);
		} finally {
			await pager.close();
		}
	});

	it('counts back from the newest card while a tail window is shown, so the wording holds when the index lands', async () => {
		const all = Array.from({length: 10}, (_, index) => card(index));
		let shown = all.slice(7);
		let generation = 0;
		const listeners = new Set<() => void>();
		const source: EntrySource = {
			count: () => shown.length,
			entry: index => (shown[index] === undefined ? undefined : {entry: 'card', card: shown[index]}),
			complete: () => generation === 1,
			progress: () => (generation === 1 ? 1 : 0),
			provisional: () => generation === 0,
			generation: () => generation,
			moved: (index, from) => (from === 0 ? index + 7 : index),
			subscribe(listener) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
		};
		const pager = await startPager(source, {columns: 100, rows: 30});
		try {
			// The very first frame already names the newest card, not `1/3`.
			expect(statusOf(pager.tty.text())).toMatch(/^newest · .* · indexing 0%/);
			await pager.press('k');
			expect(statusOf(pager.tty.text())).toMatch(/^1 before newest · /);
			shown = all;
			generation = 1;
			for (const listener of listeners) {
				listener();
			}

			await pager.tty.waitForText('9/10');
			expect(statusOf(pager.tty.text())).not.toContain('indexing');
		} finally {
			await pager.close();
		}
	});
});
