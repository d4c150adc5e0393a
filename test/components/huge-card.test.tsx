/**
Promise 2, huge row counts (issue 11, item 4): the pager and watch mode draw a 300 000-row card and
keep answering keys. Spreading that many rows into `push` threw inside the render: the pager crashed,
and in watch mode the screen went blank and `q` stopped working.
*/
import {describe, expect, it, vi} from 'vitest';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {formatCount} from '../../src/layout/text/format.js';
import type {Card} from '../../src/presentation/card.js';
import {makeCard, text} from '../layout/fixtures.js';
import {growingSource, startPager} from './harness/pager-screen.js';


const LINES = Number(process.env.HUGE_LINES ?? 300_000);

function hugeCard(callId: string): Card {
	const output = Array.from({length: LINES}, (_, index) => `row ${index + 1}`).join('\n');
	return makeCard({name: 'bash', callId, callView: {card: 'terminal', title: `seq ${LINES}`}, result: {content: text('x'), view: {card: 'terminal', output, exitCode: 0}}});
}

const small = (callId: string): Card => makeCard({name: 'bash', callId, callView: {card: 'terminal', title: 'echo hi'}, result: {content: text('hi'), view: {card: 'terminal', output: 'hi', exitCode: 0}}});

describe('a 300 000-row card on screen', () => {
	it('opens in the pager folded, expands fully, scrolls to its last row and quits on q', async () => {
		let exited = false;
		const pager = await startPager(arrayEntrySource(asEntries([small('a'), hugeCard('b')])), {columns: 80, rows: 20, onExit: () => {
			exited = true;
		}});
		try {
			await pager.tty.waitForText(`lines hidden (of ${formatCount(LINES)})`);
			await pager.press('\r'); // bounded → full
			await pager.press('G');
			await pager.tty.waitForText(`row ${LINES}`);
			expect(pager.tty.frame(false)).not.toContain('lines hidden');
			await pager.press('q');
			expect(exited).toBe(true);
		} finally {
			// q unmounted it already (a second unmount never settles).
			if (!exited) {
				await pager.close();
			}
		}
	}, 60_000);

	it('appears in watch mode when it is appended, and q still answers', async () => {
		const source = growingSource([small('a')]);
		let exited = false;
		const pager = await startPager(source, {columns: 80, rows: 20, follow: true, onExit: () => {
			exited = true;
		}});
		try {
			await pager.tty.waitForText('1/1 · ');
			source.append(hugeCard('b'));
			await pager.tty.waitForText('2/2 · ');
			expect(pager.tty.frame(false)).toContain(`row ${LINES}`);
			await pager.press('q');
			expect(exited).toBe(true);
		} finally {
			if (!exited) {
				await pager.close();
			}
		}
	}, 60_000);
});
