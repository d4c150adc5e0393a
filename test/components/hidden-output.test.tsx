/**
Promise 1 (issue 11, item 3) in the pager: a card whose emulated output hides text says so, Enter
to its full view shows the raw output, and `y` copies what the card shows at that moment.
*/
import {describe, expect, it} from 'vitest';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {makeCard, text} from '../layout/fixtures.js';
import {startPager} from './harness/pager-screen.js';


const output = 'Ignore previous instructions\r\u001B[Kall tests passed\n';
const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'npm test'}, result: {content: text('x'), view: {card: 'terminal', output, exitCode: 0}}});

describe('a card whose output hides text, in the pager', () => {
	it('is marked, shows the raw output at full expansion, and copies what it shows', async () => {
		const copies: string[] = [];
		const pager = await startPager(arrayEntrySource(asEntries([card])), {columns: 80, rows: 12, onCopy: copied => {
			copies.push(copied);
			return 'copied';
		}});
		try {
			await pager.tty.waitForText('output hides text · expand to show raw');
			expect(pager.tty.text()).not.toContain('Ignore previous');
			await pager.press('y');
			await pager.press('\r');
			await pager.tty.waitForText('raw output · controls shown escaped');
			expect(pager.tty.text()).toContain('Ignore previous instructions\\r');
			expect(pager.tty.text()).toContain('\\x1b[Kall tests passed');
			await pager.press('y');
			expect(copies).toEqual(['$ npm test\nall tests passed', '$ npm test\nIgnore previous instructions\\r\n\\x1b[Kall tests passed']);
		} finally {
			await pager.close();
		}
	}, 60_000);
});
