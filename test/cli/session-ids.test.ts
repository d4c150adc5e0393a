/**
Sessions a person can tell apart and go on with (issue 16 item 9, attacker item 11), through the
CLI against the strict fake model server: `sessions` shows each session's first prompt (or title),
its turns and failed turns and its cards (none for a chat); `replay ID` and `watch ID` take the ids
`sessions` prints; `--resume` takes an id only (never a path out of the sessions folder), only in
the directory the session was recorded in; a torn tail left by `kill -9` is dropped with a notice
instead of blocking `--continue`.
*/
import {appendFile, mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {logOrSessionId} from '../../src/cli/environment/session-paths.js';
import {startFakeModelServer, type FakeAnswer} from '../fixtures/fake-model-server.mjs';
import {fakeIo} from './cli-io-fake.js';

let workspace: string;
let sessions: string;
let config: string;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-ids-'));
	sessions = await mkdtemp(join(tmpdir(), 'cardterm-ids-sessions-'));
	config = await mkdtemp(join(tmpdir(), 'cardterm-ids-config-'));
	await writeFile(join(workspace, 'hello.txt'), 'hello world\n');
});
afterEach(async () => {
	for (const dir of [workspace, sessions, config]) {
		await rm(dir, {recursive: true, force: true});
	}
});

/** `cardterm -p PROMPT ARGS` in `cwd` against a server answering `script`. */
async function prompt(text: string, script: FakeAnswer[], args: string[] = [], cwd = workspace) {
	const server = await startFakeModelServer({script});
	const io = fakeIo({cwd, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: config}});
	try {
		const code = await main(['-p', text, '--base-url', server.url, '--model', 'fake', '--session-dir', sessions, '--json', ...args], io);
		return {code, err: io.err(), server};
	} finally {
		await server.close();
	}
}

async function listed(): Promise<string[]> {
	const io = fakeIo({cwd: workspace});
	expect(await main(['sessions', '--session-dir', sessions], io)).toBe(0);
	return io.out().split('\n').filter(row => row !== '');
}

describe('cardterm sessions tells sessions apart (issue 16 item 9)', () => {
	it('shows the first prompt, the turns (and how many failed) and the cards, none for a chat, in the singular for one', async () => {
		expect((await prompt('Say hello to the team', [{text: 'Hello, team.'}])).code).toBe(0);
		expect((await prompt('And goodbye', [{text: 'Goodbye.'}], ['--continue'])).code).toBe(0);
		const [chat] = await readdir(sessions);
		expect((await prompt('Read hello.txt\nand say what it holds', [{toolCalls: [{id: 'r', name: 'read', args: '{"file_path":"hello.txt"}'}]}, {text: 'It says hello world.'}])).code).toBe(0);
		expect((await prompt('What now?', [{status: 401, error: 'Incorrect API key provided'}])).code).toBe(1);
		const rows = await listed();
		expect(rows).toHaveLength(3);
		const row = (text: string): string => rows.find(each => each.includes(text)) ?? `no row with ${text} in:\n${rows.join('\n')}`;
		expect(row('Say hello to the team')).toMatch(new RegExp(`  ${workspace}  Say hello to the team  2 turns  ${chat}$`, 'u'));
		expect(row('Read hello.txt')).toMatch(/ {2}Read hello\.txt {2}1 turn · 1 card {2}\S+$/u);
		expect(row('What now?')).toMatch(/ {2}What now\? {2}1 turn \(1 failed\) {2}\S+$/u);
		expect(rows.join('\n')).not.toMatch(/0 cards|1 cards/u);

		const json = fakeIo();
		expect(await main(['sessions', '--session-dir', sessions, '--json'], json)).toBe(0);
		const objects = json.out().trim().split('\n').map(line => JSON.parse(line) as {prompt: string; turns: number; failedTurns: number; cards: number});
		expect(objects.map(each => [each.prompt, each.turns, each.failedTurns, each.cards])).toEqual([['What now?', 1, 1, 0], ['Read hello.txt', 1, 0, 1], ['Say hello to the team', 2, 0, 0]]);
	}, 60_000);

	it('keeps a huge or hostile first prompt to one bounded row of text', async () => {
		expect((await prompt(`\n\n  ${'\u001B[2J\u202Ewide '.repeat(50_000)}\nsecond line`, [{text: 'ok'}])).code).toBe(0);
		const [row] = await listed();
		expect(row).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202E]/u);
		expect(row!.length).toBeLessThan(400);
		// The prompt's first row with text, its escapes shown as text, cut with an ellipsis.
		expect(row).toMatch(/ {2}\\x1b\[2J\\u202ewide \\x1b\[2J.*… {2}1 turn {2}/u);
		expect(row).not.toContain('second line');
	}, 60_000);
});

describe('a session id is taken wherever a log is (issue 16 item 9)', () => {
	it('replay ID prints the session `sessions` lists under that id', async () => {
		expect((await prompt('Say hello', [{text: 'Hello.'}])).code).toBe(0);
		const [id] = await readdir(sessions);
		const io = fakeIo({cwd: workspace});
		expect(await main(['replay', id!, '--session-dir', sessions, '--print', '--no-color'], io)).toBe(0);
		expect(io.out()).toContain('› Say hello');
		expect(io.out()).toContain('Hello.');
	}, 60_000);

	it('a path that exists wins over an id; a name that is no session is left for the reader to name', async () => {
		const id = '2026-01-01T00-00-00-abcd';
		await writeFile(join(workspace, 'local.jsonl'), '');
		expect(await logOrSessionId(join(workspace, 'local.jsonl'), sessions)).toBe(join(workspace, 'local.jsonl'));
		expect(await logOrSessionId(id, sessions)).toBe(id);
		expect(await logOrSessionId('../x', sessions)).toBe('../x');
		expect(await logOrSessionId('-', sessions)).toBe('-');
	});
});

describe('--resume and --continue (attacker item 11)', () => {
	it('--resume takes an id, never a path: ../other/ID does not reach a log outside the sessions folder', async () => {
		const other = await mkdtemp(join(tmpdir(), 'cardterm-ids-other-'));
		try {
			expect((await prompt('Say hello', [{text: 'Hello.'}], ['--session-dir', other])).code).toBe(0);
			const [id] = await readdir(other);
			const escaping = `../${other.split('/').at(-1)}/${id}`;
			const {code, err, server} = await prompt('Go on', [{text: 'never'}], ['--resume', escaping]);
			expect(code).toBe(2);
			expect(err).toBe(`cardterm: --resume: ${escaping} is not a session id (the name of a session's folder in ${sessions}; see cardterm sessions)\n`);
			expect(server.requests).toHaveLength(0);
		} finally {
			await rm(other, {recursive: true, force: true});
		}
	}, 60_000);

	it('goes on with a session only in the directory it was recorded in, and says where that is', async () => {
		expect((await prompt('Say hello', [{text: 'Hello.'}])).code).toBe(0);
		const [id] = await readdir(sessions);
		const elsewhere = await mkdtemp(join(tmpdir(), 'cardterm-ids-elsewhere-'));
		try {
			const {code, err, server} = await prompt('Go on', [{text: 'never'}], ['--resume', id!], elsewhere);
			expect(code).toBe(2);
			expect(err).toBe(`cardterm: --resume: session ${id} was recorded in ${workspace}, not in ${elsewhere}; continue it there: cardterm --cwd ${workspace} --resume ${id}\n`);
			expect(server.requests).toHaveLength(0);
		} finally {
			await rm(elsewhere, {recursive: true, force: true});
		}
	}, 60_000);

	it('-p --resume without an id asks for one (nobody is there to pick)', async () => {
		const {code, err} = await prompt('Go on', [{text: 'never'}], ['--resume']);
		expect(code).toBe(2);
		expect(err).toBe('cardterm: -p: --resume needs a session id here, with nobody to pick one (cardterm sessions lists them; --continue takes the newest)\n');
	});

	it('--continue drops a torn tail (a line kill -9 cut) with a notice, and goes on from the line before', async () => {
		expect((await prompt('Say hello', [{text: 'Hello.'}])).code).toBe(0);
		const [id] = await readdir(sessions);
		const log = join(sessions, id!, 'session.jsonl');
		const whole = await readFile(log, 'utf8');
		const lines = whole.split('\n').length - 1;
		const torn = '{"type":"assistant/chunk","seq":99,"time":1,"data":{"turn":2,"st';
		await appendFile(log, torn);
		const {code, err, server} = await prompt('Go on', [{text: 'Going on.'}], ['--continue']);
		expect(err.split('\n')[0]).toBe(`cardterm: ${log}:${lines + 1}: torn tail: the last line has no newline (${torn.length} bytes ignored; the writer stopped mid-append): dropped; the session goes on from the line before`);
		expect(code).toBe(0);
		expect(server.requests[0]!.body.messages.map(message => message.content)).toContain('Hello.');
		const after = await readFile(log, 'utf8');
		expect(after.startsWith(whole)).toBe(true);
		expect(after).not.toContain(torn);
		const replayed = fakeIo({cwd: workspace});
		expect(await main(['replay', log, '--json'], replayed)).toBe(0);
		expect(replayed.err()).toBe('');
		expect(replayed.out().trim().split('\n').map(line => (JSON.parse(line) as {entry: string}).entry)).toEqual(['user', 'assistant', 'turn', 'user', 'assistant', 'turn']);
	}, 60_000);
});
