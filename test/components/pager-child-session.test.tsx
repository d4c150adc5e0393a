import {rmSync} from 'node:fs';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {referencePresenters} from '../../src/cli/replay-command.js';
import {childSessionLinks} from '../../src/transcript/child-session-links.js';
import {openIndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {NAMED_CHILD, TIMED_CHILD, writeSubagentTree} from '../session/subagent-fixture.js';
import {keys} from './harness/fake-terminal.js';
import {startPager} from './harness/pager-screen.js';

// Ink renders nothing live when it believes it runs in CI (is-in-ci reads the environment on import).
vi.hoisted(() => {
	for (const key of Object.keys(process.env)) {
		if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) {
			delete process.env[key];
		}
	}
});

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) {
		rmSync(root, {recursive: true, force: true});
	}
});

describe('the pager on a log whose subagent cards have child sessions', () => {
	it('says under each subagent card where its child is; Enter opens the child in a nested pager and q returns', async () => {
		const {root, parentLog} = writeSubagentTree();
		roots.push(root);
		const presenters = () => referencePresenters('/tmp/proj');
		const source = await openIndexedEntrySource(parentLog, {presenters, tail: false});
		await source.ready;
		const pager = await startPager(source, {columns: 90, rows: 40, title: 'parent', childSessions: childSessionLinks(parentLog, source.header, presenters)});
		try {
			await pager.tty.waitForText(`↳ child session ${TIMED_CHILD} · ⏎ opens it`);
			expect(pager.tty.text()).toContain(`↳ child session ${NAMED_CHILD} · ⏎ opens it`);
			expect(pager.tty.text()).toContain('↳ child session not found beside this log');
			// To the first card (entry 2 of 6), then Enter.
			await pager.press('g');
			await pager.press('j');
			await pager.tty.waitForText('2/6 · ');
			await pager.press(keys.enter);
			await pager.tty.waitForText(`child ${TIMED_CHILD}`);
			expect(pager.tty.text()).toContain('› Reply with exactly DIRECT_CHILD_OK and nothing else.');
			expect(pager.tty.text()).not.toContain('Ask two helpers.');
			await pager.press('q');
			await pager.tty.waitForText('Ask two helpers.');
			expect(pager.tty.text()).toContain('· parent ·');
			// Enter on a card whose child is missing expands it, as on any card.
			await pager.press('G');
			await pager.press('k');
			await pager.press('k');
			await pager.tty.waitForText('4/6 · ');
			expect(pager.tty.text()).not.toContain('"description": "Lost helper"');
			await pager.press(keys.enter);
			// Fully expanded, a card of a tool without a presenter shows its whole arguments.
			await pager.tty.waitForText('"description": "Lost helper"');
			expect(pager.tty.text()).toContain('· parent ·');
		} finally {
			await pager.close();
			source.close();
		}
	});
});
