import {mkdtemp, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../cli-io-fake.js';

const fixtures = join(import.meta.dirname, '../../fixtures/foreign-sessions');
const anthropicKey = 'sk-ant-api03-' + 'A'.repeat(40);
const githubToken = 'ghp_' + 'b'.repeat(36);
const envValue = 'hunter2-very-secret';
const personal = 'my-own-token-value-123';

/** A cardterm log whose messages, arguments and results hold secrets of several kinds. */
async function secretLog(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), 'cardterm-export-'));
	const lines = [
		{type: 'session', version: 0, id: 's-secret', createdAt: Date.UTC(2026, 11, 1), cwd: '/p', title: `deploy with ${githubToken}`},
		{type: 'user/message', seq: 0, time: 1, data: {content: [{type: 'text', text: `use key ${anthropicKey} please`}]}},
		{type: 'tool/call', seq: 1, time: 2, data: {callId: 'c1', name: 'bash', arguments: JSON.stringify({command: 'cat .env', description: 'read env'})}},
		{type: 'tool/result', seq: 2, time: 3, data: {message: {source: {callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', isError: false, content: [{type: 'text', text: `DB_PASSWORD=${envValue}\nMY_TOKEN=${personal}\nPLAIN=hello`}]}]}}},
		{type: 'tool/call', seq: 3, time: 4, data: {callId: 'c2', name: 'bash', arguments: JSON.stringify({command: `curl -H "Authorization: Bearer ${'t'.repeat(30)}" x`, description: 'call'})}},
		{type: 'tool/result', seq: 4, time: 5, data: {message: {source: {callId: 'c2'}, content: [{type: 'tool-result', toolCallId: 'c2', isError: false, content: [{type: 'text', text: 'ok'}]}]}}},
	];
	const path = join(dir, 'session.jsonl');
	await writeFile(path, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	return path;
}

/** The lines of a Markdown text outside its code fences (all of an HTML page). */
function outsideFences(text: string): string {
	let fence: string | undefined;
	return text.split('\n').filter(line => {
		const marker = /^(`{3,})/.exec(line)?.[1];
		if (marker !== undefined && (fence === undefined || marker === fence)) {
			fence = fence === undefined ? marker : undefined;
			return false;
		}

		return fence === undefined;
	}).join('\n');
}

describe('cardterm export', () => {
	it('redacts known secret shapes and the environment\'s secrets, and lists what and where', async () => {
		const log = await secretLog();
		const out = join(await mkdtemp(join(tmpdir(), 'cardterm-export-out-')), 'page.html');
		const io = fakeIo({env: {MY_SERVICE_TOKEN: personal}});
		expect(await main(['export', log, '-o', out], io)).toBe(0);
		const page = await readFile(out, 'utf8');
		for (const secret of [anthropicKey, githubToken, envValue, personal, 't'.repeat(30)]) {
			expect(page).not.toContain(secret);
		}

		expect(page).toContain('PLAIN=hello');
		expect(page).toContain('[REDACTED:anthropic-key]');
		expect(page).toMatch(/<li>anthropic-key: a message of the person/);
		expect(page).toMatch(/<li>env-value: the result of bash c1/);
		expect(page).toMatch(/<li>bearer-token: the arguments of bash c2/);
		expect(page).toContain('[REDACTED:MY_SERVICE_TOKEN]');
		expect(io.err()).toMatch(/wrote .*page\.html \(\d+ entries, \d+ kinds of secret redacted\)/);
	});

	it('says loudly that redaction is off with --no-redact, on stderr and on the page', async () => {
		const log = await secretLog();
		const io = fakeIo();
		expect(await main(['export', log, '--no-redact'], io)).toBe(0);
		expect(io.err()).toContain('REDACTION IS OFF');
		expect(io.out()).toContain('REDACTION IS OFF');
		expect(io.out()).toContain(anthropicKey);
	});

	it('writes a page that can load or run nothing, with every card a <details>, of a real Claude Code session', async () => {
		const io = fakeIo();
		expect(await main(['export', join(fixtures, 'claude', '812438e1-f9de-4649-bac1-c3d23741f754.jsonl')], io)).toBe(0);
		const page = io.out();
		expect(page).toContain('content="default-src \'none\'; style-src \'unsafe-inline\'');
		expect(page).not.toMatch(/<script|<link|<img|<iframe|src=|@import|url\(/i);
		expect(page.match(/<details class="card /g)).toHaveLength(11);
		expect(page).toContain('11 cards · ● 6 ok  ✗ 1 failed  ✗ 2 error  ✗ 1 denied  ⊘ 1 cancelled');
	});

	it('escapes a hostile log: markup in messages and tool output stays text', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'cardterm-export-'));
		const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'</div></details>';
		const lines = [
			{type: 'session', version: 0, id: 's-hostile', createdAt: 0, title: hostile},
			{type: 'user/message', seq: 0, time: 1, data: {content: [{type: 'text', text: hostile}]}},
			{type: 'tool/call', seq: 1, time: 2, data: {callId: 'c1', name: `x${hostile}`, arguments: JSON.stringify({command: hostile})}},
			{type: 'tool/result', seq: 2, time: 3, data: {message: {source: {callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', isError: false, content: [{type: 'text', text: `\u001B]8;;javascript:alert(3)\u0007link\u001B]8;;\u0007 ${hostile}`}]}]}}},
		];
		const path = join(dir, 'session.jsonl');
		await writeFile(path, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
		for (const md of [false, true]) {
			const io = fakeIo();
			expect(await main(['export', path, ...(md ? ['--md'] : [])], io)).toBe(0);
			// Markdown keeps a card's text verbatim inside fences (shown as code); outside them, as HTML, only escaped.
			expect(outsideFences(io.out())).not.toMatch(/<script|<img|href="javascript:|<a /i);
			expect(outsideFences(io.out())).toContain('&lt;script&gt;alert');
		}
	});
});
