import {existsSync} from 'node:fs';
import {mkdtemp, readdir, readFile, rm, writeFile, mkdir} from 'node:fs/promises';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {startFakeModelServer, type FakeAnswer} from '../fixtures/fake-model-server.mjs';
import {NO_FIXTURES, SHARED_FIXTURES, wireFixture} from './agent-harness.js';
import {BODIES} from './provider-error-bodies.js';

let workspace: string;
let sessions: string;
let config: string;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-p-'));
	sessions = await mkdtemp(join(tmpdir(), 'cardterm-p-sessions-'));
	config = await mkdtemp(join(tmpdir(), 'cardterm-p-config-'));
	await writeFile(join(workspace, 'hello.txt'), 'hello world\n');
});
afterEach(async () => {
	for (const dir of [workspace, sessions, config]) {
		await rm(dir, {recursive: true, force: true});
	}
});

async function runP(script: FakeAnswer[], args: string[], env: NodeJS.ProcessEnv = {}) {
	const server = await startFakeModelServer({script});
	const io = fakeIo({cwd: workspace, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: config, ...env}});
	try {
		const code = await main(['-p', 'Read hello.txt', '--base-url', server.url, '--session-dir', sessions, ...args], io);
		// Every run that got as far as a session says last what is on disk; the rest of stderr is the turn's.
		const closing = /cardterm: session saved: \S+session\.jsonl \(\d+ events?\)\n$/u.exec(io.err());
		expect(closing, io.err()).not.toBeNull();
		return {code, out: io.out(), err: io.err().slice(0, closing!.index), closing: closing![0], server};
	} finally {
		await server.close();
	}
}

const readThenAnswer: FakeAnswer[] = [
	{toolCalls: [{id: 'c1', name: 'read', args: '{"file_path":"hello.txt"}'}]},
	{text: 'It says **hello world**.'},
];

describe('cardterm -p', () => {
	it('runs one turn: the answer on stdout, what the agent did on stderr; the session is recorded', async () => {
		const {code, out, err} = await runP(readThenAnswer, ['--model', 'fake', '--no-color']);
		expect(code).toBe(0);
		// To a pipe, the answer as the model wrote it (Markdown), alone.
		expect(out).toBe('It says **hello world**.\n');
		expect(err).toContain('› Read hello.txt');
		expect(err).toContain('● read hello.txt');
		expect(err).toContain('hello world');
		expect(err).toMatch(/── completed .*\n$/u);
		expect(err).not.toContain('It says');
		const [id] = await readdir(sessions);
		expect(await readdir(join(sessions, id!))).toContain('session.jsonl');
	}, 30_000);

	it('writes an answer as the model wrote it, but its terminal escapes as text', async () => {
		const {code, out} = await runP([{text: '# Done\n\nCleared \u001B[2J\u001B]0;pwned\u0007 the \u202Escreen.'}], ['--model', 'fake']);
		expect(code).toBe(0);
		expect(out).toBe('# Done\n\nCleared \\x1b[2J\\x1b]0;pwned\\x07 the \\u202escreen.\n');
	}, 30_000);

	it('to a terminal the answer is laid out as everywhere else; its reasoning is one row of what the agent did', async () => {
		const reasoned: FakeAnswer[] = [readThenAnswer[0]!, {reasoning: 'The file is short.\nIt greets.', text: 'It says **hello world**.'}];
		const server = await startFakeModelServer({script: reasoned});
		const io = fakeIo({cwd: workspace, isTTY: true, columns: 60, stderr: {isTTY: true, columns: 60}, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: config, TERM: 'xterm-256color'}});
		try {
			expect(await main(['-p', 'Read hello.txt', '--base-url', server.url, '--session-dir', sessions, '--model', 'fake'], io)).toBe(0);
		} finally {
			await server.close();
		}

		expect(io.out()).toBe('It says \u001B[1mhello world\u001B[0m.\n');
		expect(io.err()).toContain('∴ The file is short.');
		expect(io.err()).toContain('\u001B[1mread\u001B[0m');
		expect(io.err()).not.toContain('It says');
	}, 30_000);

	it('--width or --color lay the answer out as on a terminal; --transcript prints the whole transcript on stdout, as replay --print', async () => {
		const rows = await runP(readThenAnswer, ['--model', 'fake', '--width', '60', '--no-color']);
		expect(rows.out).toBe('It says hello world.\n');
		expect((await runP(readThenAnswer, ['--model', 'fake', '--color'])).out).toBe('It says \u001B[1mhello world\u001B[0m.\n');
		const before = new Set(await readdir(sessions));
		const whole = await runP(readThenAnswer, ['--model', 'fake', '--transcript', '--width', '60', '--no-color']);
		expect(whole.code).toBe(0);
		expect(whole.err).toBe('');
		const id = (await readdir(sessions)).find(name => !before.has(name));
		const replayed = fakeIo({cwd: workspace});
		expect(await main(['replay', join(sessions, id!, 'session.jsonl'), '--print', '--width', '60', '--no-color'], replayed)).toBe(0);
		expect(whole.out).toBe(replayed.out());
		expect(whole.out).toContain('It says hello world.');
	}, 30_000);

	it('--max-steps ends a turn that keeps calling tools as blocked after that many steps', async () => {
		const again: FakeAnswer = {toolCalls: [{id: 'c', name: 'read', args: '{"file_path":"hello.txt"}'}]};
		const {code, out, server} = await runP([again, again, again, {text: 'never reached'}], ['--model', 'fake', '--max-steps', '2', '--json']);
		const turn = out.trimEnd().split('\n').map(line => JSON.parse(line) as {entry: string; reason?: unknown}).find(entry => entry.entry === 'turn');
		expect(JSON.stringify(turn)).toContain('the step limit (2) was reached');
		expect(out).not.toContain('never reached');
		expect(server.requests).toHaveLength(2);
		expect(code).toBe(5);
	}, 30_000);

	it('--json streams one object per entry, as replay --json does', async () => {
		const {code, out} = await runP(readThenAnswer, ['--model', 'fake', '--json']);
		expect(code).toBe(0);
		const entries = out.trimEnd().split('\n').map(line => JSON.parse(line) as {entry: string});
		expect(entries.map(entry => entry.entry)).toEqual(['user', 'card', 'assistant', 'turn']);
		const [id] = await readdir(sessions);
		const replayed = fakeIo({cwd: workspace});
		expect(await main(['replay', join(sessions, id!, 'session.jsonl'), '--json'], replayed)).toBe(0);
		expect(replayed.out()).toBe(out);
	}, 30_000);

	it('a write asks first; without a person to ask it is not run, the model and the person are told how to allow it (exit 6), unless --yolo or --allow', async () => {
		const script: FakeAnswer[] = [{toolCalls: [{id: 'w', name: 'write', args: '{"file_path":"new.txt","content":"x"}'}]}, {text: 'done'}];
		const refused = await runP(script, ['--model', 'fake', '--json']);
		expect(refused.code).toBe(6);
		const told = String(refused.server.requests[1]!.body.messages.at(-1)!.content);
		expect(told).toMatch(/^Error: tool "write" requires approval, but no approval channel is available\. This is an unattended run \(cardterm -p\): nobody can approve calls in it, so this write call was not run\. Do not try it again/);
		expect(told).toContain('the person can rerun with --allow write, or --yolo to approve every call.');
		expect(refused.err).toBe('cardterm: 1 call was not run (write): it needs approval, and -p has nobody to ask. Rerun with --allow write, or --yolo to approve every call.\n');
		expect(await readdir(workspace)).not.toContain('new.txt');
		const allowed = await runP(script, ['--model', 'fake', '--json', '--yolo']);
		expect([allowed.code, allowed.err]).toEqual([0, '']);
		expect(await readdir(workspace)).toContain('new.txt');
		await rm(join(workspace, 'new.txt'));
		const named = await runP(script, ['--model', 'fake', '--json', '--allow', 'edit,write']);
		expect([named.code, named.err]).toEqual([0, '']);
		expect(await readdir(workspace)).toContain('new.txt');
	}, 30_000);

	it('a turn that fails exits 1 with the provider\'s message and status in one line, and what to do next in another', async () => {
		const {code, err} = await runP([{status: 401, error: 'Incorrect API key provided'}], ['--model', 'fake', '--json']);
		expect(code).toBe(1);
		expect(err).toBe('cardterm: error (HTTP 401): Incorrect API key provided\ncardterm: Check the API key in OPENAI_API_KEY: the provider refused it.\n');
	}, 30_000);

	it('takes the model from CARDTERM_MODEL, the project config and the user config, in that order', async () => {
		await mkdir(join(workspace, '.cardterm'));
		await writeFile(join(workspace, '.cardterm', 'config.json'), JSON.stringify({model: 'project-model'}));
		await mkdir(join(config, 'cardterm'));
		await writeFile(join(config, 'cardterm', 'config.json'), JSON.stringify({model: 'user-model'}));
		const fromEnv = await runP([{text: 'a'}], ['--json'], {CARDTERM_MODEL: 'env-model'});
		expect(fromEnv.server.requests[0]!.body.model).toBe('env-model');
		const fromProject = await runP([{text: 'a'}], ['--json']);
		expect(fromProject.server.requests[0]!.body.model).toBe('project-model');
		await rm(join(workspace, '.cardterm'), {recursive: true});
		const fromUser = await runP([{text: 'a'}], ['--json']);
		expect(fromUser.server.requests[0]!.body.model).toBe('user-model');
	}, 30_000);

	it('without a model, or with one that cannot be used, says so in one line (exit 2)', async () => {
		const none = fakeIo({cwd: workspace, env: {XDG_CONFIG_HOME: config}});
		expect(await main(['-p', 'hi', '--session-dir', sessions], none)).toBe(2);
		expect(none.err()).toMatch(/^cardterm: -p: no model: pass --model PROVIDER:MODEL .*\n$/);
		const unknown = fakeIo({cwd: workspace, env: {XDG_CONFIG_HOME: config}});
		expect(await main(['-p', 'hi', '--model', 'acme:x', '--session-dir', sessions], unknown)).toBe(2);
		expect(unknown.err()).toMatch(/^cardterm: -p: unknown model provider "acme"; providers: [^\n]*\n$/);
	});
});

describe('cardterm -p on a small window (the config\'s context.windows)', () => {
	it('compacts inside a long turn, prints the compaction card, and --continue sends the compacted conversation', async () => {
		await mkdir(join(config, 'cardterm'), {recursive: true});
		await writeFile(join(config, 'cardterm', 'config.json'), JSON.stringify({context: {windows: {fake: 16_000}}}));
		for (let k = 0; k < 4; k++) {
			await writeFile(join(workspace, `part-${k}.txt`), Array.from({length: 400}, (_, line) => `part ${k} row ${line}`).join('\n'));
		}

		const reads: FakeAnswer[] = Array.from({length: 16}, (_, k) => ({toolCalls: [{id: `r${k}`, name: 'read', args: JSON.stringify({file_path: `part-${k % 4}.txt`})}]}));
		const summary: FakeAnswer = {text: '## Goal\nRead the parts.\n## Next steps\nAnswer.'};
		const server = await startFakeModelServer({script: (body, index) => String(body.messages[0]?.content ?? '').startsWith('You write the summary') ? summary : (index < 40 ? reads.shift() ?? {text: 'All parts read.'} : {text: 'Still here.'})});
		try {
			const io = fakeIo({cwd: workspace, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: config}});
			expect(await main(['-p', 'Read every part', '--base-url', server.url, '--session-dir', sessions, '--model', 'fake', '--no-color'], io)).toBe(0);
			expect(io.out()).toBe('All parts read.\n');
			expect(io.err()).toMatch(/⊙ compacted the context \(automatic\) · \d+(?:\.\d)?k → \d+(?:\.\d)?k tokens/);
			expect(io.err()).toMatch(/pruned \d+ tool results/);
			const again = fakeIo({cwd: workspace, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: config}});
			const before = server.requests.length;
			expect(await main(['-p', 'Anything else?', '--continue', '--base-url', server.url, '--session-dir', sessions, '--model', 'fake', '--no-color'], again)).toBe(0);
			const sent = JSON.stringify(server.requests[before]!.body.messages);
			// The pruned results went to the model as stubs, not whole, after the resume too.
			expect(sent).toContain('[pruned by a compaction: the read result');
			expect(sent.length).toBeLessThan(16_000 * 4);
		} finally {
			await server.close();
		}
	}, 60_000);
});

describe('cardterm -p: the exit code says how the turn ended', () => {
	const present = existsSync(SHARED_FIXTURES);
	it.skipIf(!present)(`3 for a refusal, 4 for the output limit (recorded streams)${present ? '' : ` — skipped: ${NO_FIXTURES}`}`, async () => {
		const refused = await runP([{replay: {wire: 'openai', events: wireFixture('openai/openai-node-refusal.chunks.txt')!}}], ['--model', 'fake', '--json']);
		expect([refused.code, refused.err]).toEqual([3, 'cardterm: blocked: the model refused\n']);
		const cut = await runP([{replay: {wire: 'openai', events: wireFixture('openai/deepseek-text-length.chunks.txt')!}}], ['--model', 'fake', '--json']);
		expect([cut.code, cut.err]).toEqual([4, 'cardterm: max tokens: the answer was cut at the model\'s output limit\n']);
	}, 30_000);

	it('0 after an error inside the stream was retried; 1 for an empty answer', async () => {
		const retried = await runP([{text: 'x', streamError: {afterChunks: 1, error: BODIES.anthropicOverloaded.error}}, {text: 'Fine.'}], ['--model', 'fake', '--json']);
		expect([retried.code, retried.err, retried.server.requests.length]).toEqual([0, '', 2]);
		expect(retried.out).toContain('retrying the model (attempt 2): Overloaded (overloaded_error)');
		const empty = await runP([{}], ['--model', 'fake', '--json']);
		expect([empty.code, empty.err]).toEqual([1, 'cardterm: error: the model ended its turn without an answer (it sent nothing)\n']);
	}, 30_000);

	it('1 without waiting when the provider asks for a long wait, or when the quota is gone', async () => {
		const long = await runP([{status: 429, error: 'Rate limit reached', retryAfter: 600}, {text: 'never'}], ['--model', 'fake', '--json']);
		expect([long.code, long.err, long.server.requests.length]).toEqual([1, 'cardterm: error (HTTP 429): Rate limit reached; the provider asks to wait 600s before another attempt, longer than a turn without a person waits (60s)\ncardterm: Wait 600s, as the provider asks, and send again: the provider limits how often it may be asked.\n', 1]);
		const quota = await runP([{status: 429, errorBody: BODIES.insufficientQuota}, {text: 'never'}], ['--model', 'fake', '--json']);
		expect(quota.code).toBe(1);
		expect(quota.err).toMatch(/^cardterm: error \(HTTP 429\): You exceeded your current quota.*\(insufficient_quota\)\ncardterm: Check your plan and billing with the provider: .*\n$/);
		expect(quota.server.requests).toHaveLength(1);
	}, 30_000);

	it('writes a provider\'s hostile error fields as text: no escape sequence reaches the terminal, in the transcript or on stderr', async () => {
		const hostile = 'Over\u001B]0;pwned\u0007loaded\u001B[2J \u202Eevil\u200B';
		const {code, out, err} = await runP([
			{text: 'x', streamError: {afterChunks: 1, error: {type: `overloaded\u001B[31m_error`, message: hostile}}},
			{status: 400, errorBody: {error: {message: hostile, type: '\u0007bad', code: `code\u001B]8;;http://evil\u0007`}}},
		], ['--model', 'fake', '--width', '80', '--transcript']);
		expect(code).toBe(1);
		// The transcript (on stdout with --transcript) and the error line (stderr).
		for (const text of [out, err]) {
			// no raw control or bidi character may reach the terminal
			expect(text).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202E]/);
			expect(text).toContain('pwned');
			expect(text).not.toContain('[object Object]');
		}

		expect(err).toMatch(/^cardterm: error \(HTTP 400\): Over.*loaded/);
	}, 30_000);

	it('5 for a runaway loop', async () => {
		const again: FakeAnswer = {toolCalls: [{id: 'c', name: 'read', args: '{"file_path":"hello.txt"}'}]};
		const {code, err, server} = await runP([again, again, again, again, again, again, {text: 'never'}], ['--model', 'fake', '--json']);
		expect(code).toBe(5);
		expect(err).toBe('cardterm: blocked: the model made the same call 5 times in a row (read {"file_path":"hello.txt"}); stopped the turn\n');
		expect(server.requests).toHaveLength(5);
	}, 30_000);
});

describe('cardterm -p --continue / --resume', () => {
	const logOf = async (): Promise<string> => {
		const [id] = await readdir(sessions);
		return join(sessions, id!, 'session.jsonl');
	};

	const readEvents = async (path: string) => {
		const log = await openSessionLog(path);
		const events = [];
		for await (const event of log.events) {
			events.push(event);
		}

		return {events, diagnostics: log.diagnostics};
	};

	it('--continue appends a turn to the newest session; the model sees the conversation so far; seqs stay contiguous', async () => {
		const first = await runP(readThenAnswer, ['--model', 'fake', '--json']);
		expect(first.code).toBe(0);
		const server = await startFakeModelServer({script: [{text: 'You asked me to read hello.txt.'}]});
		try {
			const io = fakeIo({cwd: workspace, env: {XDG_CONFIG_HOME: config}});
			expect(await main(['-p', 'What did I ask?', '--continue', '--base-url', server.url, '--model', 'fake', '--session-dir', sessions, '--json'], io)).toBe(0);
			expect(io.out().trimEnd().split('\n').map(line => (JSON.parse(line) as {entry: string}).entry)).toEqual(['user', 'assistant', 'turn']);
			expect(server.requests[0]!.body.messages.slice(1).map(message => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
			expect(server.requests[0]!.body.messages.at(-2)).toEqual({role: 'assistant', content: 'It says **hello world**.'});
		} finally {
			await server.close();
		}

		expect(await readdir(sessions)).toHaveLength(1);
		const {events, diagnostics} = await readEvents(await logOf());
		expect(diagnostics).toEqual([]);
		expect(events.map(event => event.seq)).toEqual(events.map((_event, index) => index));
		expect(events.filter(event => event.type === 'turn/start').map(event => (event.data as {turn: number}).turn)).toEqual([1, 2]);
		// The whole session replays: both turns.
		const replayed = fakeIo({cwd: workspace});
		expect(await main(['replay', await logOf(), '--json'], replayed)).toBe(0);
		expect(replayed.out().trimEnd().split('\n').map(line => (JSON.parse(line) as {entry: string}).entry)).toEqual(['user', 'card', 'assistant', 'turn', 'user', 'assistant', 'turn']);
	}, 30_000);

	it('--resume ID closes a turn the log left open (crash repair) before the new one, and tells the model', async () => {
		const first = await runP(readThenAnswer, ['--model', 'fake', '--json']);
		expect(first.code).toBe(0);
		const path = await logOf();
		// Cut the log as a crash inside turn 1 would: after the read's tool/call.
		const lines = (await readFile(path, 'utf8')).split('\n');
		const callLine = lines.findIndex(line => line.includes('"type":"tool/call"'));
		await writeFile(path, `${lines.slice(0, callLine + 1).join('\n')}\n`);
		const server = await startFakeModelServer({script: [{text: 'I will check the file again.'}]});
		try {
			const io = fakeIo({cwd: workspace, env: {XDG_CONFIG_HOME: config}});
			const [id] = await readdir(sessions);
			expect(await main(['-p', 'Go on', '--resume', id!, '--base-url', server.url, '--model', 'fake', '--session-dir', sessions, '--json'], io)).toBe(0);
			const told = server.requests[0]!.body.messages.find(message => message.role === 'tool');
			expect(String(told!.content)).toMatch(/^Error: the outcome of this tool call is unknown/);
		} finally {
			await server.close();
		}

		const {events, diagnostics} = await readEvents(path);
		expect(diagnostics).toEqual([]);
		const trail = events.map(event => event.type).filter(type => ['tool/call', 'tool/result', 'step/end', 'turn/end', 'turn/start'].includes(type));
		expect(trail).toEqual(['turn/start', 'tool/call', 'tool/result', 'step/end', 'turn/end', 'turn/start', 'step/end', 'turn/end']);
		expect((events.find(event => event.type === 'tool/result')!.data as {error: unknown}).error).toEqual({name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN'});
		expect((events.filter(event => event.type === 'turn/end')[0]!.data as {reason: unknown}).reason).toEqual({kind: 'interrupted'});
	}, 30_000);

	it('--resume of a session that does not exist is a usage error', async () => {
		const io = fakeIo({cwd: workspace, env: {XDG_CONFIG_HOME: config}});
		expect(await main(['-p', 'hi', '--resume', 'nope', '--model', 'x', '--base-url', 'http://127.0.0.1:9/v1', '--session-dir', sessions], io)).toBe(2);
		expect(io.err()).toMatch(/^cardterm: --resume: no session nope in /);
	});
});

describe('cardterm -p --system-prompt', () => {
	it('replaces the whole system prompt with the file\'s text', async () => {
		await writeFile(join(config, 'prompt.txt'), 'You are a terse test agent.');
		const {code, server} = await runP([{text: 'ok'}], ['--model', 'fake', '--json', '--system-prompt', join(config, 'prompt.txt')]);
		expect(code).toBe(0);
		expect(server.requests[0]!.body.messages[0]).toEqual({role: 'system', content: 'You are a terse test agent.'});
	}, 30_000);
});

describe('cardterm -p --cwd', () => {
	it('runs the tools in the named directory, which the system prompt names as the workspace', async () => {
		const other = await mkdtemp(join(tmpdir(), 'cardterm-p-other-'));
		try {
			await writeFile(join(other, 'hello.txt'), 'from the other directory\n');
			const {code, out, server} = await runP(readThenAnswer, ['--model', 'fake', '--json', '--cwd', other]);
			expect(code).toBe(0);
			expect(String(server.requests[0]!.body.messages[0]!.content)).toContain(`Workspace: ${other}`);
			expect(String(server.requests[1]!.body.messages.at(-1)!.content)).toContain('from the other directory');
			expect(out).toContain('from the other directory');
		} finally {
			await rm(other, {recursive: true, force: true});
		}
	}, 30_000);
});
