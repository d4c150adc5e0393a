/**
API keys stay out of the model's commands and out of what is logged (attacker item 6 of issue 16),
through the real `bin/cardterm -p` against the fake model server: the model runs `env` and reads a
file holding the key; the commands do not see the provider keys cardterm knows nor the variables
the config names (unless the person's own config passes them), and no key value reaches the log,
the printed transcript or the model's next request, in whole or split across live-output pieces.
The session's folder is the person's alone (0700) and its log too (0600). Needs a built dist/
(rebuilt when older than the sources).
*/
import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardtermCommand} from './e2e-helpers.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const TOKEN = 'tok-config-named-9876543210';

let folder = '';
let workspace = '';
let server: FakeModelServer | undefined;

beforeAll(() => {
	buildDist();
}, 300_000);

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'cardterm-secrets-'));
	workspace = join(folder, 'repo');
	mkdirSync(workspace);
	// A file of the project that holds the key (a `.env`): reading it must not put the key in the log.
	writeFileSync(join(workspace, 'key.txt'), `OPENAI_API_KEY=${KEY}\n`);
	writeFileSync(join(workspace, 'first.txt'), KEY.slice(0, 12));
	writeFileSync(join(workspace, 'second.txt'), `${KEY.slice(12)}\n`);
});

afterEach(async () => {
	await server?.close();
	server = undefined;
	rmSync(folder, {recursive: true, force: true});
});

function userConfig(config: unknown): void {
	mkdirSync(join(folder, 'config', 'cardterm'), {recursive: true});
	writeFileSync(join(folder, 'config', 'cardterm', 'config.json'), JSON.stringify(config));
}

const bash = (id: string, command: string): {id: string; name: string; args: string} => ({id, name: 'bash', args: JSON.stringify({command, description: id})});

/** `bin/cardterm -p PROMPT --yolo --json` in the workspace against the fake server, the key in its environment. */
async function run(prompt: string): Promise<{code: number; stdout: string; stderr: string; log: string; sessions: string}> {
	const sessions = join(folder, 'sessions');
	const environment = {OPENAI_API_KEY: KEY, MY_TOKEN: TOKEN, XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data'), CARDTERM_SESSION_DIR: sessions};
	const [command, ...rest] = cardtermCommand(environment, '-p', prompt, '--yolo', '--base-url', server!.url, '--model', 'fake-model', '--json');
	const result = await new Promise<{code: number; stdout: string; stderr: string}>(resolve => {
		execFile(command!, rest, {cwd: workspace, encoding: 'utf8', timeout: 60_000}, (error, stdout, stderr) => {
			resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stdout, stderr});
		});
	});
	const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
	return {...result, log: readFileSync(join(sessions, id!, 'session.jsonl'), 'utf8'), sessions};
}

type LoggedEvent = {type: string; data: Record<string, unknown>};

const events = (log: string): LoggedEvent[] => log.trim().split('\n').slice(1).map(line => JSON.parse(line) as LoggedEvent);

/** The text of each tool result in the log, by call id. */
function results(log: string): Map<string, string> {
	const texts = new Map<string, string>();
	for (const event of events(log)) {
		if (event.type === 'tool/result') {
			const message = event.data.message as {source: {callId: string}; content: Array<{content: Array<{text?: string}>}>};
			texts.set(message.source.callId, message.content.flatMap(block => block.content.map(part => part.text ?? '')).join(''));
		}
	}

	return texts;
}

describe('secrets in -p', () => {
	it('withholds the provider keys from commands, and redacts their values from the log, the transcript and the model\'s requests', async () => {
		server = await startFakeModelServer({script: [
			{toolCalls: [bash('env', 'env')]},
			// The model names the key itself (it cannot know it, but a prompt or a file could tell it): arguments are redacted too.
			{toolCalls: [bash('cat', `cat key.txt; echo "${KEY}"`)]},
			// Live output in pieces: the key's first half, a pause (its own progress event), the rest.
			{toolCalls: [bash('split', 'cat first.txt; sleep 0.4; cat second.txt; sleep 0.4; echo done')]},
			{text: 'All done.'},
		]});
		const result = await run('look around');
		expect(result.code).toBe(0);
		const output = results(result.log);
		// The commands did not get them; they did get the rest of the environment.
		expect(output.get('env')).toContain('PATH=');
		expect(output.get('env')).not.toContain('OPENAI_API_KEY');
		// What the commands printed of it anyway is redacted, named by its variable.
		expect(output.get('cat')).toBe('OPENAI_API_KEY=[REDACTED:OPENAI_API_KEY]\n[REDACTED:OPENAI_API_KEY]\n');
		expect(output.get('split')).toContain('[REDACTED:OPENAI_API_KEY]\ndone');
		const progress = events(result.log).filter(event => event.type === 'cardterm/tool-progress' && event.data.callId === 'split').map(event => event.data.text as string);
		expect(progress.length).toBeGreaterThan(1);
		expect(progress.join('')).not.toContain(KEY.slice(0, 12));
		for (const secret of [KEY, KEY.slice(0, 12)]) {
			expect(result.log).not.toContain(secret);
			expect(result.stdout + result.stderr).not.toContain(secret);
			// The model's context is rebuilt from the redacted events: the next requests do not carry them.
			for (const request of server.requests) {
				expect(JSON.stringify(request.body)).not.toContain(secret);
			}
		}

		expect(result.stdout).toContain('[REDACTED:OPENAI_API_KEY]');
		// The key was still used for what it is for.
		expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
		// The session's folder and log are the person's alone, and so is the sessions folder cardterm made.
		const dir = join(result.sessions, readdirSync(result.sessions).find(name => !name.startsWith('.'))!);
		expect(statSync(result.sessions).mode & 0o777).toBe(0o700);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(statSync(join(dir, 'session.jsonl')).mode & 0o777).toBe(0o600);
	}, 60_000);

	it('keeps the variables the config names too; passes a key to commands when the person\'s own config says so (still redacted from the log); a project\'s config cannot', async () => {
		userConfig({env: {passthrough: ['OPENAI_API_KEY'], secrets: ['MY_TOKEN']}});
		mkdirSync(join(workspace, '.cardterm'));
		writeFileSync(join(workspace, '.cardterm', 'config.json'), JSON.stringify({env: {passthrough: ['MY_TOKEN']}}));
		server = await startFakeModelServer({script: [
			{toolCalls: [bash('seen', 'printf "%s|%s" "$OPENAI_API_KEY" "${MY_TOKEN:-withheld}"')]},
			{toolCalls: [bash('token', 'cat token.txt')]},
			{text: 'ok'},
		]});
		writeFileSync(join(workspace, 'token.txt'), `token=${TOKEN}\n`);
		const result = await run('use the key');
		expect(result.code).toBe(0);
		expect(result.stderr).toContain('"env.passthrough" ignored: only your user config can pass your keys to commands');
		expect(results(result.log).get('seen')).toBe('[REDACTED:OPENAI_API_KEY]|withheld');
		expect(results(result.log).get('token')).toBe('token=[REDACTED:MY_TOKEN]\n');
		expect(result.log).not.toContain(KEY);
		expect(result.log).not.toContain(TOKEN);
		expect(result.stdout + result.stderr).not.toContain(TOKEN);
	}, 60_000);

	it('`cardterm call`, the person\'s own call, runs in the whole environment; its log is still redacted', async () => {
		const log = join(folder, 'call.jsonl');
		const [command, ...rest] = cardtermCommand({OPENAI_API_KEY: KEY}, 'call', 'bash', JSON.stringify({command: 'printf "%s %s" "$OPENAI_API_KEY" "$(printf %s "$OPENAI_API_KEY" | wc -c)"', description: 'key'}), '--log', log, '--json');
		const result = await new Promise<{code: number; stdout: string}>(resolve => {
			execFile(command!, rest, {cwd: workspace, encoding: 'utf8', timeout: 60_000}, (error, stdout) => {
				resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stdout});
			});
		});
		expect(result.code).toBe(0);
		expect(results(readFileSync(log, 'utf8')).values().next().value).toBe(`[REDACTED:OPENAI_API_KEY] ${KEY.length}`);
		expect(readFileSync(log, 'utf8') + result.stdout).not.toContain(KEY);
	}, 60_000);

	it('names a config entry that is no variable\'s name', async () => {
		userConfig({env: {secrets: ['MY TOKEN']}});
		server = await startFakeModelServer({script: [{text: 'never'}]});
		const [command, ...rest] = cardtermCommand({XDG_CONFIG_HOME: join(folder, 'config'), CARDTERM_SESSION_DIR: join(folder, 'sessions')}, '-p', 'hi', '--base-url', server.url, '--model', 'fake-model');
		const result = await new Promise<{code: number; stderr: string}>(resolve => {
			execFile(command!, rest, {cwd: workspace, encoding: 'utf8', timeout: 60_000}, (error, _stdout, stderr) => {
				resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stderr});
			});
		});
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('"env.secrets[0]" must be an environment variable\'s name such as GITHUB_TOKEN (got "MY TOKEN")');
		expect(server.received).toBe(0);
	}, 60_000);
});
