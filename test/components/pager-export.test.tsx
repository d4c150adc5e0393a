import {copyFile, mkdtemp, readdir, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {exportBesideLog} from '../../src/cli/pager/pager-actions.js';
import {makeCard, text} from '../layout/fixtures.js';
import {startPager} from './harness/pager-screen.js';

const fixtures = join(import.meta.dirname, '../fixtures');
const done = makeCard({name: 'bash', callView: {card: 'generic', title: 'ls', kind: 'execute'}, result: {content: text('a.txt')}});

describe('x in the pager: the session exported as a page to share', () => {
	it('runs the export and shows its message on the status line', async () => {
		let exported = 0;
		const pager = await startPager(arrayEntrySource(asEntries([done])), {columns: 100, rows: 12, async onExport() {
			exported++;
			return 'exported to /w/s.html (1 entries, 0 kinds of secret redacted)';
		}});
		try {
			await pager.press('x');
			expect(exported).toBe(1);
			await pager.tty.settle();
			expect(pager.tty.text()).toContain('exported to /w/s.html (1 entries, 0 kinds of secret redacted)');
		} finally {
			await pager.close();
		}
	});

	it('says where the pager has no log to export', async () => {
		const pager = await startPager(arrayEntrySource(asEntries([done])), {columns: 100, rows: 12});
		try {
			await pager.press('x');
			expect(pager.tty.text()).toContain('x: exporting is not available here');
		} finally {
			await pager.close();
		}
	});

	it('writes cardterm export\'s page beside the log, redacted, never over an earlier export', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'cardterm-pager-export-'));
		const log = join(dir, 'ses_x.json');
		const secret = 'sk-ant-api03-' + 'A'.repeat(80);
		const exported = JSON.parse(await readFile(join(fixtures, 'foreign-sessions/opencode', (await readdir(join(fixtures, 'foreign-sessions/opencode')))[0]!), 'utf8')) as {messages: Array<{parts: Array<{type: string; text?: string}>}>};
		exported.messages[0]!.parts[0]!.text = `use ${secret} please`;
		await writeFile(log, JSON.stringify(exported, null, 2));
		const first = await exportBesideLog(log, {}, dir);
		expect(first).toBe(`exported to ${join(dir, 'ses_x.html')} (${first.match(/\((\d+) entries/)![1]} entries, 1 kind of secret redacted)`);
		const page = await readFile(join(dir, 'ses_x.html'), 'utf8');
		expect(page).toMatch(/^<!doctype html>/);
		expect(page).not.toContain(secret);
		expect(page).toContain('[REDACTED:');
		expect(page).toContain('Friendlier greeting');
		const second = await exportBesideLog(log, {}, dir);
		expect(second).toMatch(/^exported to .*ses_x-2\.html \(/);
		expect(await readFile(join(dir, 'ses_x.html'), 'utf8')).toBe(page);
		await copyFile(join(fixtures, 'logs/basic.jsonl'), join(dir, 'basic.jsonl'));
		expect(await exportBesideLog(join(dir, 'basic.jsonl'), {}, dir)).toMatch(/^exported to .*\/basic\.html \(\d+ entries, 0 kinds of secret redacted\)$/);
	});
});
