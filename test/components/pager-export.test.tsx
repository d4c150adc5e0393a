import {appendFile, copyFile, mkdtemp, readdir, readFile, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {exportBesideLog, liveExport} from '../../src/cli/pager/pager-actions.js';
import {makeCard, text} from '../layout/fixtures.js';
import {startPager} from './harness/pager-screen.js';
import {keys} from './harness/fake-terminal.js';
import {startInteractive} from './harness/interactive-screen.js';

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

	it('reads a log being written up to its durable bytes: a line half-written after them is not read', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'cardterm-pager-export-'));
		const log = join(dir, 'session.jsonl');
		await copyFile(join(fixtures, 'logs/basic.jsonl'), log);
		const durable = (await stat(log)).size;
		await appendFile(log, '{"v":1,"seq":999,"type":"user/mess');
		// The whole file has a damaged last line; up to the durable bytes it has none.
		expect(await readFile(await pageOf(await exportBesideLog(log, {}, dir)), 'utf8')).toContain('1 damaged line of the log skipped');
		expect(await readFile(await pageOf(await exportBesideLog(log, {}, dir, durable)), 'utf8')).not.toContain('damaged line');
	});
});

/** The page an export's status message names. */
async function pageOf(message: string): Promise<string> {
	return message.match(/^exported to (.+\.html) \(/)![1]!;
}

describe('x in the live session\'s pager (Ctrl+O)', () => {
	it('exports the log so far beside it, redacted, with the call still running; again to a new name', async () => {
		const folder = await mkdtemp(join(tmpdir(), 'cardterm-live-export-'));
		const logPath = join(folder, 'session.jsonl');
		const token = `ghp_${'b'.repeat(36)}`;
		const screen = await startInteractive('live-export', {columns: 100, rows: 24, logPath, onExport: model => liveExport(model.durableLog, {}, folder)});
		try {
			await screen.type(`!echo ${token}`, '● bash echo');
			screen.stdin.send('!sleep 30\r');
			await screen.tty.waitForText('○ bash sleep 30');
			await screen.press(keys.ctrlO);
			await screen.press('x');
			await screen.tty.waitForText('exported to');
			expect(screen.tty.text()).toContain(`exported to ${join(folder, 'session.html')}`);
			const page = await readFile(join(folder, 'session.html'), 'utf8');
			expect(page).not.toContain(token);
			expect(page).toContain('[REDACTED:github-token]');
			// The running call is in the page: the log was flushed up to it.
			expect(page).toContain('sleep 30');
			await screen.press('x');
			await screen.tty.waitForText('session-2.html');
			// Two entries so far: the finished command and the running one.
			expect(screen.tty.text()).toContain('session-2.html (2 entries, 1 kind of secret redacted)');
			await screen.press('q');
			await screen.press(keys.escape);
		} finally {
			await screen.close();
		}
	}, 60_000);
});
