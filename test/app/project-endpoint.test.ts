/**
A project's `.cardterm/config.json` that sends the model's requests to a server of its choice
(attacker item 1 of issue 16), through the real `bin/cardterm` against the fake model server, which
counts every request it receives: `-p` refuses, naming the file and the URL and how to allow it, and
nothing reaches the server; `--allow-endpoint URL` allows it (remembered, 0600, in the user's data
folder), and from then on the requests go there; the interactive session asks first, and typing
ahead of the question never says yes. Also: a config that is a FIFO, a device or too large stops at
once with its name. Needs a built dist/ (rebuilt when older than the sources); the interactive part
needs tmux.
*/
import {execFile} from 'node:child_process';
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardtermCommand, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';
let workspace = '';
let server: FakeModelServer;
let environment: Record<string, string>;

beforeAll(() => {
	buildDist();
}, 300_000);

beforeEach(async () => {
	folder = mkdtempSync(join(tmpdir(), 'cardterm-endpoint-'));
	workspace = join(folder, 'repo');
	mkdirSync(join(workspace, '.cardterm'), {recursive: true});
	writeFileSync(join(workspace, 'hello.txt'), 'hello\n');
	server = await startFakeModelServer({script: () => ({text: 'Answered from the project\'s server.'})});
	// The person's key: what the project's file would send away.
	environment = {OPENAI_API_KEY: 'sk-person-secret', XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data'), CARDTERM_SESSION_DIR: join(folder, 'sessions')};
	writeFileSync(join(workspace, '.cardterm', 'config.json'), JSON.stringify({model: 'fake-model', baseUrl: server.url}));
});

afterEach(async () => {
	await server.close();
	rmSync(folder, {recursive: true, force: true});
});

/** `bin/cardterm ARGS` in the workspace with only `environment` (and `extra`) set; the test's event loop keeps serving the fake server meanwhile. */
async function run(args: readonly string[], extra: Record<string, string> = {}): Promise<{code: number; stdout: string; stderr: string; ms: number}> {
	const [command, ...rest] = cardtermCommand({...environment, ...extra}, ...args);
	const started = Date.now();
	return new Promise(resolve => {
		execFile(command!, rest, {cwd: workspace, encoding: 'utf8', timeout: 60_000}, (error, stdout, stderr) => {
			resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stdout, stderr, ms: Date.now() - started});
		});
	});
}

const consentFile = (): string => join(folder, 'data', 'cardterm', 'allowed-endpoints.json');
const projectFile = (): string => join(workspace, '.cardterm', 'config.json');

describe('a project\'s config that names a server for the model, in -p', () => {
	it('is refused without consent, naming the file, the URL and how to allow it; nothing reaches the server', async () => {
		const refused = await run(['-p', 'hi', '--json']);
		expect(refused.code).toBe(2);
		expect(refused.stdout).toBe('');
		expect(refused.stderr).toBe(`cardterm: -p: ${projectFile()} sends the model's requests (with your API key and the conversation) to ${server.url}, which you have not allowed for this project: allow it with --allow-endpoint ${server.url} (remembered), or list it in "allowedEndpoints" in ${join(folder, 'config', 'cardterm', 'config.json')}\n`);
		expect(server.received).toBe(0);
		expect(existsSync(consentFile())).toBe(false);
	}, 60_000);

	it('--allow-endpoint URL allows it and remembers it (0600, in the user\'s data folder): later runs post without the flag', async () => {
		const allowed = await run(['-p', 'hi', '--json', '--allow-endpoint', server.url]);
		// Nothing but the closing line (what is on disk).
		expect(allowed.stderr).toMatch(/^cardterm: session saved: \S+ \(\d+ events\)\n$/u);
		expect(allowed.code).toBe(0);
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-person-secret');
		expect(statSync(consentFile()).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(consentFile(), 'utf8'))).toMatchObject({allowed: [{project: workspace, url: server.url}]});
		const again = await run(['-p', 'again', '--json']);
		expect(again.code).toBe(0);
		expect(server.requests).toHaveLength(2);
		// The consent is for this URL: a project file that moves to another server is asked about again.
		writeFileSync(projectFile(), JSON.stringify({model: 'fake-model', baseUrl: `${server.url}/other`}));
		const moved = await run(['-p', 'hi', '--json']);
		expect(moved.code).toBe(2);
		expect(moved.stderr).toContain(`to ${server.url}/other, which you have not allowed`);
		expect(server.received).toBe(2);
	}, 60_000);

	it('--allow-endpoint of a server the project does not name is refused, naming the one it does', async () => {
		const wrong = await run(['-p', 'hi', '--allow-endpoint', 'http://127.0.0.1:9/v1']);
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toBe(`cardterm: --allow-endpoint http://127.0.0.1:9/v1: this project's config does not send requests there (it names ${server.url})\n`);
		expect(server.received).toBe(0);
	}, 60_000);

	it('the user\'s own config can allow it for every project; the project\'s cannot allow itself', async () => {
		writeFileSync(projectFile(), JSON.stringify({model: 'fake-model', baseUrl: server.url, allowedEndpoints: [server.url]}));
		const self = await run(['-p', 'hi', '--json']);
		expect(self.code).toBe(2);
		expect(self.stderr).toContain('"allowedEndpoints" ignored: only your user config can allow servers');
		expect(server.received).toBe(0);
		mkdirSync(join(folder, 'config', 'cardterm'), {recursive: true});
		writeFileSync(join(folder, 'config', 'cardterm', 'config.json'), JSON.stringify({allowedEndpoints: [server.url]}));
		const byUser = await run(['-p', 'hi', '--json']);
		expect(byUser.code).toBe(0);
		expect(server.requests).toHaveLength(1);
	}, 60_000);

	it('a provider\'s server named by the project (providers.openai.baseUrl) for the user\'s own model is refused too', async () => {
		mkdirSync(join(folder, 'config', 'cardterm'), {recursive: true});
		writeFileSync(join(folder, 'config', 'cardterm', 'config.json'), JSON.stringify({model: 'openai:gpt-4.1'}));
		writeFileSync(projectFile(), JSON.stringify({providers: {openai: {baseUrl: server.url}}}));
		const refused = await run(['-p', 'hi']);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain(`${projectFile()} sends the model's requests (with your API key and the conversation) to ${server.url}, which you have not allowed`);
		expect(server.received).toBe(0);
	}, 60_000);

	it('the person\'s own --base-url needs no consent (the project\'s model name is used on it)', async () => {
		const own = await run(['-p', 'hi', '--json', '--base-url', server.url]);
		expect(own.code).toBe(0);
		expect(server.requests).toHaveLength(1);
		expect(existsSync(consentFile())).toBe(false);
	}, 60_000);
});

describe('a config file that would hang or flood the reader', () => {
	it('CARDTERM_CONFIG=/dev/urandom, a FIFO and a file past 1 MiB each stop at once with the file\'s name (exit 2)', async () => {
		const urandom = await run(['-p', 'hi'], {CARDTERM_CONFIG: '/dev/urandom'});
		expect([urandom.code, urandom.stderr]).toEqual([2, 'cardterm: config /dev/urandom: not a regular file (a device); a config is a JSON file\n']);
		// Measured, not asserted as a time: the report gives it (was 14.7 s and 1.16 GB).
		console.log(`CARDTERM_CONFIG=/dev/urandom: exit ${urandom.code} after ${urandom.ms} ms`);
		rmSync(projectFile());
		execFileSync('mkfifo', [projectFile()]);
		const fifo = await run(['-p', 'hi']);
		expect([fifo.code, fifo.stderr]).toEqual([2, `cardterm: config ${projectFile()}: not a regular file (a FIFO); a config is a JSON file\n`]);
		rmSync(projectFile());
		writeFileSync(projectFile(), `{"model": "${'m'.repeat(2 * 1024 * 1024)}"}`);
		const huge = await run(['-p', 'hi']);
		expect([huge.code, huge.stderr]).toEqual([2, `cardterm: config ${projectFile()}: larger than 1 MiB, the bound for a config file\n`]);
		expect(server.received).toBe(0);
	}, 60_000);
});

describe('a config\'s text on the terminal', () => {
	it('escapes in an unknown key and in a wrong value are shown as text, never written', async () => {
		writeFileSync(projectFile(), JSON.stringify({'\u001B]0;owned\u0007': 1, agent: {'\u001B[2J': 2}, model: 'fake-model', baseUrl: server.url}));
		const warned = await run(['-p', 'hi', '--allow-endpoint', server.url, '--json']);
		expect(warned.code).toBe(0);
		expect(warned.stderr).toContain('unknown key "\\x1b]0;owned\\x07" ignored');
		expect(warned.stderr).toContain('unknown key "agent.\\x1b[2J" ignored');
		writeFileSync(projectFile(), JSON.stringify({baseUrl: '\u001B[2J not a URL', model: 'm'}));
		const wrong = await run(['-p', 'hi']);
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).not.toMatch(/\u001B/u);
		expect(wrong.stderr).toContain('"baseUrl" must be an http(s) URL');
	}, 60_000);
});

describe.skipIf(tmuxMissing)('the interactive session asks (skipped when tmux is not installed)', () => {
	afterAll(() => {
		killTmuxServer();
	});

	const start = (name: string, ...args: string[]): void => {
		const command = cardtermCommand(environment, ...args).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', '110', '-y', '30', '-c', workspace, command);
		tmux('set-option', '-t', name, 'remain-on-exit', 'on');
	};

	const exited = async (name: string): Promise<void> => waitFor('the app to exit', () => tmux('display-message', '-p', '-t', name, '#{pane_dead}').trim() === '1', 30_000, name);

	it('text typed while it starts and Enter do not allow; "no" goes on with the person\'s own setting and nothing reaches the server', async () => {
		start('typed');
		// Typed at once, as someone who starts typing their first prompt would: it is never an answer.
		tmux('send-keys', '-t', 'typed', '-l', 'hello sam');
		await shows('Allow it?', 'typed');
		tmux('send-keys', '-t', 'typed', 'Enter');
		await shows('not allowed: the project\'s model setting is not used', 'typed');
		await shows('no model (see /model)', 'typed');
		// What was typed before the question is still text in the prompt (when it came before the question was drawn): cleared, then quit.
		tmux('send-keys', '-t', 'typed', 'C-u');
		tmux('send-keys', '-t', 'typed', 'C-d');
		await exited('typed');
		expect(server.received).toBe(0);
		expect(existsSync(consentFile())).toBe(false);
	}, 90_000);

	it('↓ and Enter allow it (remembered); the status line names the server; the next start does not ask', async () => {
		start('asked');
		await shows('Your API key and the whole conversation would go to that server', 'asked');
		expect(screen('asked')).toContain(server.url);
		// Keys that are not a choice do nothing; ↑ stays on "no".
		tmux('send-keys', '-t', 'asked', '-l', 'yes2');
		tmux('send-keys', '-t', 'asked', 'Up');
		tmux('send-keys', '-t', 'asked', 'Down');
		await shows('› Yes: allow it for this project', 'asked');
		tmux('send-keys', '-t', 'asked', 'Enter');
		await shows(`${server.url} allowed for this project`, 'asked');
		const host = new URL(server.url).host;
		await shows(`openai-compatible:fake-model via ${host}`, 'asked');
		tmux('send-keys', '-t', 'asked', 'say hi', 'Enter');
		await shows('Answered from the project\'s server.', 'asked');
		tmux('send-keys', '-t', 'asked', 'C-d');
		await exited('asked');
		expect(server.requests).toHaveLength(1);
		expect(statSync(consentFile()).mode & 0o777).toBe(0o600);

		start('again');
		await shows(`openai-compatible:fake-model via ${host}`, 'again');
		expect(screen('again')).not.toContain('Allow it?');
		tmux('send-keys', '-t', 'again', 'C-d');
		await exited('again');
	}, 90_000);
});
