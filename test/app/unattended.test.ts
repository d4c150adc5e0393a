/**
`cardterm -p` without a person, through the real `bin/cardterm` against the strict fake model server
(issue 16: first day items 8 and 11, attacker items 2, 7 and 11): `--plugin` loads as in the
interactive session (a guard plugin guards unattended runs too; a missing file is named), a call
that needs approval is not run and both the model and the person are told how to allow it (exit 6),
the last line says what is on disk, a plugin whose apply never settles is given up with its name (and
a signal or Ctrl+C is heard meanwhile), and a plugin that breaks its tool after registering it breaks
nothing. Needs a built dist/ (rebuilt here when older than the sources); the screen parts need tmux.
*/
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeAnswer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, reportingExit, running, shellWord, shownExit, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const plugin = (name: string): string => fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url));
let folder = '';
let servers: FakeModelServer[] = [];

type Run = {readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string; readonly ms: number};

/** `bin/cardterm ARGS` in `folder`, its sessions in `folder/sessions`; `term` sends SIGTERM that long after the start. */
async function run(args: readonly string[], options: {readonly term?: number} = {}): Promise<Run> {
	const started = Date.now();
	const child = spawn(process.execPath, [cardterm, ...args], {cwd: folder, env: {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, OPENAI_API_KEY: 'test', CARDTERM_SESSION_DIR: join(folder, 'sessions'), XDG_CONFIG_HOME: join(folder, 'config')}});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString('utf8');
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString('utf8');
	});
	if (options.term !== undefined) {
		setTimeout(() => child.kill('SIGTERM'), options.term);
	}

	return new Promise(resolve => {
		child.on('close', (code, signal) => {
			resolve({code, signal, stdout, stderr, ms: Date.now() - started});
		});
	});
}

async function server(script: FakeAnswer[]): Promise<FakeModelServer> {
	const started = await startFakeModelServer({script});
	servers.push(started);
	return started;
}

/** `-p PROMPT` against `model`, no colour. */
function prompt(model: FakeModelServer, text: string, ...args: string[]): string[] {
	return ['-p', text, '--base-url', model.url, '--model', 'fake-model', '--no-color', ...args];
}

/** The tools the model was offered in its first request. */
function offered(model: FakeModelServer): string[] {
	return (model.requests[0]?.body.tools ?? []).map(tool => tool.function.name);
}

/** What the model read as the result of its call `id`. */
function toldAbout(model: FakeModelServer, id: string): string {
	const message = model.requests.flatMap(request => request.body.messages).find(each => each.role === 'tool' && each.tool_call_id === id);
	return String(message?.content);
}

const closingLine = /\ncardterm: session saved: (\S+session\.jsonl) \(\d+ events\)\n$/u;

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-unattended-'));
}, 300_000);

afterAll(async () => {
	await Promise.all(servers.map(async each => each.close()));
	servers = [];
	if (folder !== '') {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('cardterm -p --plugin (issue 16 item 8, attacker item 2)', () => {
	it('applies the plugin as the session does: its tool is offered, its guard stops bash even with --yolo', async () => {
		const model = await server([
			{toolCalls: [{id: 'b', name: 'bash', args: '{"command":"echo pwned > pwned.txt","description":"write a file"}'}]},
			{toolCalls: [{id: 'h', name: 'house_rules', args: '{}'}]},
			{text: 'No shell here.'},
		]);
		const result = await run([...prompt(model, 'make pwned.txt'), '--yolo', '--plugin', plugin('deny-bash.mjs')]);
		expect(result.stderr).toMatch(closingLine);
		expect([result.code, result.stdout]).toEqual([0, 'No shell here.\n']);
		expect(offered(model)).toContain('house_rules');
		expect(toldAbout(model, 'b')).toBe('Error: deny-bash: no shell commands in this workspace');
		expect(toldAbout(model, 'h')).toBe('no shell commands here');
		expect(existsSync(join(folder, 'pwned.txt'))).toBe(false);
	}, 60_000);

	it('names a plugin file that does not exist, and sends nothing to the model', async () => {
		const model = await server([{text: 'never'}]);
		const result = await run([...prompt(model, 'hello'), '--plugin', 'missing.mjs']);
		expect(result.code).toBe(2);
		expect(result.stderr).toBe(`cardterm: --plugin missing.mjs: no such file (${join(folder, 'missing.mjs')})\n`);
		expect(model.requests).toHaveLength(0);
	}, 60_000);
});

describe('cardterm -p with calls that need approval (issue 16 item 11)', () => {
	it('does not run them, tells the model plainly and the person how to allow them, and exits 6; --allow runs them', async () => {
		const script: FakeAnswer[] = [
			{toolCalls: [{id: 'w', name: 'write', args: '{"file_path":"notes.txt","content":"hi\\n"}'}, {id: 'b', name: 'bash', args: '{"command":"true","description":"nothing"}'}]},
			{text: 'I could not write notes.txt: it needs your approval.'},
		];
		const model = await server(script);
		const refused = await run(prompt(model, 'write notes.txt'));
		expect(refused.code).toBe(6);
		expect(refused.stdout).toBe('I could not write notes.txt: it needs your approval.\n');
		expect(refused.stderr).toContain('cardterm: 2 calls were not run (write, bash): they need approval, and -p has nobody to ask. Rerun with --allow write,bash, or --yolo to approve every call.\n');
		expect(toldAbout(model, 'w')).toContain('This is an unattended run (cardterm -p): nobody can approve calls in it, so this write call was not run. Do not try it again');
		expect(toldAbout(model, 'b')).toContain('the person can rerun with --allow bash, or --yolo to approve every call.');
		expect(existsSync(join(folder, 'notes.txt'))).toBe(false);

		const allowedModel = await server(script);
		const allowed = await run([...prompt(allowedModel, 'write notes.txt'), '--allow', 'write', '--allow', 'bash']);
		expect([allowed.code, allowed.stderr.includes('not run')]).toEqual([0, false]);
		expect(existsSync(join(folder, 'notes.txt'))).toBe(true);
		rmSync(join(folder, 'notes.txt'));
	}, 60_000);

	it('says last what is on disk: the session log that --resume goes on with', async () => {
		const model = await server([{text: 'Hello.'}]);
		const result = await run(prompt(model, 'hello'));
		expect(result.code).toBe(0);
		const saved = closingLine.exec(result.stderr)?.[1];
		expect(saved, result.stderr).toBeDefined();
		expect(existsSync(saved!)).toBe(true);
		expect(readdirSync(join(folder, 'sessions'))).toContain(saved!.split('/').at(-2));
	}, 60_000);
});

describe('a plugin whose apply never settles (attacker item 7)', () => {
	it('-p gives it up after the limit, naming it; its guard and tool are gone and the turn runs', async () => {
		const model = await server([{toolCalls: [{id: 'r', name: 'read', args: '{"file_path":"a.txt"}'}]}, {text: 'Read.'}]);
		const result = await run([...prompt(model, 'read a.txt'), '--plugin', plugin('hangs.mjs')]);
		expect(result.stderr).toContain(`cardterm: plugin "hangs" (${plugin('hangs.mjs')}) skipped: its apply(ctx) did not finish within 10.0s\n`);
		expect(result.code).toBe(0);
		expect(offered(model)).not.toContain('stuck_tool');
		expect(toldAbout(model, 'r')).not.toContain('hangs: everything is denied');
	}, 60_000);

	it('call hears SIGTERM while it waits (it exited 13 with no word before)', async () => {
		const result = await run(['call', 'read', '{"file_path":"a.txt"}', '--plugin', plugin('hangs.mjs')], {term: 1500});
		expect([result.code, result.signal]).toEqual([143, null]);
		// Well before the 10 s limit: the signal ended the wait, not the limit.
		expect(result.ms).toBeLessThan(8000);
	}, 60_000);
});

describe('a plugin that breaks its tool after registering it (attacker item 11)', () => {
	it('-p offers the tool as it was registered, and its calls run', async () => {
		const model = await server([{toolCalls: [{id: 's', name: 'shout', args: '{"word":"hi"}'}]}, {text: 'It shouted.'}]);
		const result = await run([...prompt(model, 'shout hi'), '--plugin', plugin('breaks-schema.mjs')]);
		expect(result.stderr).not.toContain('lossless');
		expect(result.code).toBe(0);
		expect(model.requests[0]!.body.tools!.find(tool => tool.function.name === 'shout')?.function).toEqual({name: 'shout', description: 'Shout a word.', parameters: {type: 'object', properties: {word: {type: 'string'}}, required: ['word']}});
		expect(toldAbout(model, 's')).toBe('HI');
	}, 60_000);
});

describe.skipIf(tmuxMissing)('plugins in the interactive session, in tmux (skipped when tmux is not installed)', () => {
	afterAll(() => {
		killTmuxServer();
	});

	it('a plugin that breaks its tool after registering it does not crash the session: the next line runs its tool', async () => {
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'sessions')}, '--plugin', plugin('breaks-schema.mjs')).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'breaks', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'breaks', 'remain-on-exit', 'on');
		const appPid = Number(tmux('display-message', '-p', '-t', 'breaks', '#{pane_pid}').trim());
		await shows('type !command', 'breaks');
		tmux('send-keys', '-t', 'breaks', '-l', 'shout {"word": "hi"}');
		tmux('send-keys', '-t', 'breaks', 'Enter');
		await shows('HI', 'breaks');
		tmux('send-keys', '-t', 'breaks', 'C-d');
		await waitFor('the app to exit', () => !running(appPid), 20_000, 'breaks');
	}, 60_000);

	it('Ctrl+C while a plugin hangs at start-up quits at once (it was held until the plugin settled: never)', async () => {
		const command = reportingExit(cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'sessions')}, '--plugin', plugin('hangs.mjs')).map(word => shellWord(word)).join(' '));
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'hangs', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'hangs', 'remain-on-exit', 'on');
		await shows('starting…', 'hangs');
		const pressed = Date.now();
		tmux('send-keys', '-t', 'hangs', 'C-c');
		expect(await shownExit('hangs')).toBe(130);
		// Before the 10 s limit would have let the session start.
		expect(Date.now() - pressed).toBeLessThan(8000);
	}, 60_000);
});
