/**
The exported page in a real browser: Debian's chromium, driven by playwright-core (no browser
download). Skipped, saying why, where chromium is not installed (.ci/run installs it).
*/
import {execFileSync} from 'node:child_process';
import {existsSync, readdirSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {Browser, Page} from 'playwright-core';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../../cli/cli-io-fake.js';

function findChromium(): string | undefined {
	const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => path !== undefined);
	const found = candidates.find(path => existsSync(path));
	if (found !== undefined) {
		return found;
	}

	try {
		return execFileSync('which', ['chromium'], {encoding: 'utf8'}).trim() || undefined;
	} catch {
		return undefined;
	}
}

const chromium = findChromium();
const fixtures = join(import.meta.dirname, '../../fixtures/foreign-sessions');
const fileOf = (agent: string): string => join(fixtures, agent, readdirSync(join(fixtures, agent)).find(name => name.endsWith('.jsonl'))!);

/** Where the page's screenshots are kept (updated as every snapshot is: `vitest -u`). */
const SCREENSHOTS = join(import.meta.dirname, '../../../snapshots/export');

/**
Tolerance of the screenshot comparison. A pixel differs when a channel moved by more than
`CHANNEL_DELTA` of 255 (the anti-aliased edges of the same glyphs move by less); the shot differs
when more than `MAX_DIFFERING` pixels do, or when its size changed. With the page's fonts
(fonts-dejavu-core, html-page.ts) two runs differ in 0 pixels; the smallest real change, one
outcome mark of another colour, in 29 (checked below on every run), so any changed card fails.
*/
const CHANNEL_DELTA = 32;
const MAX_DIFFERING = 8;

/** Two PNGs decoded by the browser itself (no PNG library): their sizes and how many pixels differ. */
async function comparePngs(page: Page, expected: Buffer, actual: Buffer): Promise<{same: boolean; size: string; differing: number}> {
	return page.evaluate(async ({expected, actual, delta}) => {
		const pixels = async (base64: string): Promise<ImageData> => {
			const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
			const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
			const context = canvas.getContext('2d')!;
			context.drawImage(bitmap, 0, 0);
			return context.getImageData(0, 0, bitmap.width, bitmap.height);
		};

		const [a, b] = [await pixels(expected), await pixels(actual)];
		const size = `${a.width}×${a.height} then ${b.width}×${b.height}`;
		if (a.width !== b.width || a.height !== b.height) {
			return {same: false, size, differing: Math.max(a.width * a.height, b.width * b.height)};
		}

		let differing = 0;
		for (let index = 0; index < a.data.length; index += 4) {
			if (Math.abs(a.data[index]! - b.data[index]!) > delta || Math.abs(a.data[index + 1]! - b.data[index + 1]!) > delta || Math.abs(a.data[index + 2]! - b.data[index + 2]!) > delta) {
				differing++;
			}
		}

		return {same: true, size, differing};
	}, {expected: expected.toString('base64'), actual: actual.toString('base64'), delta: CHANNEL_DELTA});
}

async function exportPage(log: string, extra: string[] = []): Promise<string> {
	const out = join(await mkdtemp(join(tmpdir(), 'cardterm-page-')), 'page.html');
	expect(await main(['export', log, '-o', out, ...extra], fakeIo())).toBe(0);
	return out;
}

describe.skipIf(chromium === undefined)(`exported pages in headless Chromium${chromium === undefined ? ' (skipped: no chromium installed; apt-get install chromium, or set CHROMIUM_PATH)' : ''}`, () => {
	let browser: Browser;
	beforeAll(async () => {
		const {chromium: launcher} = await import('playwright-core');
		browser = await launcher.launch({executablePath: chromium, args: ['--no-sandbox']});
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
	});

	it('shows every card of each agent\'s real session, collapses and expands one', async () => {
		const cards = {claude: 11, codex: 6, gemini: 8, pi: 8};
		for (const [agent, count] of Object.entries(cards)) {
			const page = await browser.newPage();
			await page.goto(pathToFileURL(await exportPage(fileOf(agent))).href);
			expect(await page.locator('details.card').count()).toBe(count);
			// Every card is open as the pager first shows it; a click on its header closes and opens it.
			const card = page.locator('details.card').first();
			const body = card.locator('.row').first();
			expect(await card.evaluate(element => (element as HTMLDetailsElement).open)).toBe(true);
			expect(await body.isVisible()).toBe(true);
			await card.locator('summary').click();
			expect(await card.evaluate(element => (element as HTMLDetailsElement).open)).toBe(false);
			expect(await body.isVisible()).toBe(false);
			await card.locator('summary').click();
			expect(await body.isVisible()).toBe(true);
			await page.close();
		}
	}, 120_000);

	it('runs no script and loads nothing of a hostile log', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'cardterm-hostile-'));
		const hostile = '<script>window.pwned=1</script><img src="http://127.0.0.1:9/x.png" onerror="window.pwned=2"><style>@import url(http://127.0.0.1:9/y.css)</style><iframe src="http://127.0.0.1:9/"></iframe>';
		const lines = [
			{type: 'session', version: 0, id: 's-hostile', createdAt: 0, title: hostile},
			{type: 'user/message', seq: 0, time: 1, data: {content: [{type: 'text', text: `${hostile} [a](javascript:window.pwned=3) ![b](http://127.0.0.1:9/z.png)`}]}},
			{type: 'assistant/message', seq: 1, time: 2, data: {message: {content: [{type: 'text', text: `![img](http://127.0.0.1:9/md.png) <img src=x onerror="window.pwned=4"> [link](http://127.0.0.1:9/l)`}]}}},
			{type: 'tool/call', seq: 2, time: 3, data: {callId: 'c1', name: 'bash', arguments: JSON.stringify({command: hostile, description: hostile})}},
			{type: 'tool/result', seq: 3, time: 4, data: {message: {source: {callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', isError: false, content: [{type: 'text', text: `\u001B]8;;javascript:window.pwned=5\u0007click\u001B]8;;\u0007 ${hostile}`}]}]}}},
		];
		const log = join(dir, 'session.jsonl');
		await writeFile(log, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
		const page = await browser.newPage();
		const requests: string[] = [];
		page.on('request', request => {
			requests.push(request.url());
		});
		const dialogs: string[] = [];
		page.on('dialog', dialog => {
			dialogs.push(dialog.message());
			void dialog.dismiss();
		});
		const url = pathToFileURL(await exportPage(log)).href;
		await page.goto(url);
		await page.waitForLoadState('networkidle');
		expect(requests).toEqual([url]);
		expect(dialogs).toEqual([]);
		expect(await page.evaluate(() => (window as unknown as {pwned?: number}).pwned)).toBeUndefined();
		expect(await page.locator('script, img, iframe, link, object, embed').count()).toBe(0);
		// The hostile text is shown as text.
		expect(await page.locator('header h1').textContent()).toBe(hostile);
		await page.close();
	}, 60_000);
	it('looks as its committed screenshots at 1280 and 480 columns (snapshots/export/, vitest -u updates them)', async () => {
		const dir = join(fixtures, 'opencode');
		const url = pathToFileURL(await exportPage(join(dir, readdirSync(dir).find(name => name.endsWith('.json'))!))).href;
		const blank = await browser.newPage();
		await mkdir(SCREENSHOTS, {recursive: true});
		const update = expect.getState().snapshotState.snapshotUpdateState;
		for (const width of [1280, 480]) {
			const page = await browser.newPage({viewport: {width, height: 800}, deviceScaleFactor: 1, colorScheme: 'light'});
			await page.goto(url);
			const shot = await page.screenshot({fullPage: true});
			const file = join(SCREENSHOTS, `opencode-export--w${width}.png`);
			if (update === 'all' || (!existsSync(file) && update === 'new')) {
				await writeFile(file, shot);
			} else {
				const compared = await comparePngs(blank, await readFile(file), shot);
				if (!compared.same || compared.differing > MAX_DIFFERING) {
					const actual = join(await mkdtemp(join(tmpdir(), 'cardterm-shot-')), `w${width}.png`);
					await writeFile(actual, shot);
					expect.fail(`the ${width}-wide screenshot differs from ${file} (${compared.size}, ${compared.differing} pixels differ; this one is ${actual})`);
				}

				// The tolerance still catches a real change: one card's outcome mark of another colour.
				await page.addStyleTag({content: 'details.card.denied > summary > span.fg-red:first-child{color:#1a7f37 !important}'});
				const changed = await comparePngs(blank, await readFile(file), await page.screenshot({fullPage: true}));
				expect(changed.differing).toBeGreaterThan(MAX_DIFFERING);
			}

			await page.close();
		}

		await blank.close();
	}, 60_000);
});
