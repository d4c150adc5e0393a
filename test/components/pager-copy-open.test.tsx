import {describe, expect, it, vi} from 'vitest';
import React from 'react';
import {render} from 'ink';
import {asEntries} from '../../src/presentation/entry.js';
import type {Card} from '../../src/presentation/card.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import {Pager} from '../../components/Pager.js';
import {makeCard, text} from '../layout/fixtures.js';
import {FakeStdin, FakeTty, keys} from './harness/fake-terminal.js';
import {FROZEN_NOW} from './harness/interactive-screen.js';
import {startPager} from './harness/pager-screen.js';


/** A read card whose model-facing content is the `<path>…<content>` envelope, as the fs tool sends it. */
const readCard: Card = makeCard({
	name: 'read',
	callView: {card: 'generic', title: 'README.md', kind: 'read'},
	result: {
		content: text('<path>/w/README.md</path>\n<content>\n1: # e2e\n2: \n3: A readme.\n</content>'),
		view: {card: 'read', path: 'README.md', offset: 1, totalLines: 3, lines: [{number: 1, text: '# e2e'}, {number: 2, text: ''}, {number: 3, text: 'A readme.'}]},
	},
});

describe('pager y and o', () => {
	it('y copies the lines a read card shows, not its model-facing text, and says what it copied', async () => {
		const copied: string[] = [];
		const pager = await startPager(arrayEntrySource(asEntries([readCard])), {columns: 100, rows: 20, onCopy(value) {
			copied.push(value);
			return `copied ${value.length} characters`;
		}});
		try {
			await pager.press('y');
			expect(copied).toEqual(['read: README.md\n# e2e\n\nA readme.']);
			expect(pager.tty.text()).toContain(`copied ${copied[0]!.length} characters · README.md lines 1–3 as shown`);
		} finally {
			await pager.close();
		}
	});

	it('says why y and o do nothing where the pager has no copy or open action', async () => {
		const pager = await startPager(arrayEntrySource(asEntries([readCard])), {columns: 100, rows: 20});
		try {
			await pager.press('y');
			expect(pager.tty.text()).toContain('y: copying is not available here');
			await pager.press('o');
			expect(pager.tty.text()).toContain('o: opening files is not available here');
		} finally {
			await pager.close();
		}
	});

	it('takes Ctrl+Y and Ctrl+O for no keys of its own: only y copies and only o opens (Ctrl+O opened $EDITOR in Ctrl+O\'s pager)', async () => {
		const copied: string[] = [];
		let opened = 0;
		const pager = await startPager(arrayEntrySource(asEntries([readCard])), {columns: 100, rows: 20, onCopy(value) {
			copied.push(value);
			return 'copied';
		}, onOpen() {
			opened++;
			return {message: 'opened README.md', ran: false};
		}});
		try {
			await pager.press(keys.ctrlO);
			await pager.press('\u0019');
			expect({opened, copied: copied.length}).toEqual({opened: 0, copied: 0});
			await pager.press('o');
			await pager.press('y');
			expect({opened, copied: copied.length}).toEqual({opened: 1, copied: 1});
		} finally {
			await pager.close();
		}
	});

	it('after an editor ran, switches back to the alternate screen before Ink redraws, and redraws the whole frame', async () => {
		const tty = new FakeTty(100, 20);
		const stdin = new FakeStdin();
		let opened = 0;
		const instance = render(
			<Pager source={arrayEntrySource(asEntries([readCard]))} theme={colorTheme} title="t" now={() => FROZEN_NOW} onExit={() => undefined} onOpen={() => {
				opened++;
				// What an editor leaves: the main screen, and the pager's rows gone from view.
				tty.write('\u001B[?1049l');
				return {message: 'opened README.md in ed', ran: true};
			}} />,
			{stdout: tty as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, stderr: tty as unknown as NodeJS.WriteStream, exitOnCtrlC: false, patchConsole: false},
		);
		try {
			await tty.settle();
			tty.write('\u001B[?1049h');
			const before = tty.bytes.length;
			stdin.send('o');
			await tty.waitForText('opened README.md in ed');
			expect(opened).toBe(1);
			const written = tty.bytes.slice(before);
			// The switch comes before anything Ink writes (its erase of the last frame would hit the main screen).
			expect(written.indexOf('\u001B[?1049h')).toBeGreaterThanOrEqual(0);
			expect(written.indexOf('\u001B[?1049h')).toBeLessThan(written.indexOf('\u001B[2J'));
			expect(tty.text()).toContain('● read README.md');
		} finally {
			instance.unmount();
		}
	});
});
