import {readdir, readFile} from 'node:fs/promises';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {FAKE_AGENT, makeWorkspace} from '../../acp/acp-harness.js';
import {fakeIo} from '../cli-io-fake.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
	await cleanup?.();
	cleanup = undefined;
});

async function run(argv: readonly string[]): Promise<{code: number; out: string; err: string; sessions: string; workspace: string}> {
	const {base, workspace, dispose} = await makeWorkspace();
	cleanup = dispose;
	const sessions = path.join(base, 'sessions');
	const io = fakeIo({cwd: workspace, columns: 80});
	const code = await main(['acp', '--session-dir', sessions, '--width', '80', ...argv.map(arg => arg === 'AGENT' ? FAKE_AGENT : arg)], io);
	return {code, out: io.out(), err: io.err(), sessions, workspace};
}

describe('cardterm acp -p', () => {
	it('prints the turn\'s transcript, exits 0, and `replay --print` of the saved log prints the same', async () => {
		const result = await run(['-p', 'tour', '--', process.execPath, 'AGENT']);
		expect(result.code).toBe(0);
		expect(result.out).toContain('› tour');
		expect(result.out).toContain('acp_edit Edit config.ts');
		expect(result.out).toContain('$ printf "one\\ntwo\\n"');
		expect(result.out).toContain('Done: DEBUG is off.');
		const [id] = await readdir(result.sessions);
		const logPath = path.join(result.sessions, id!, 'session.jsonl');
		expect(result.err).toBe(`cardterm: session saved: ${logPath} (agent session fake-1)\n`);
		const replay = fakeIo({cwd: result.workspace, columns: 80});
		expect(await main(['replay', '--print', '--width', '80', logPath], replay)).toBe(0);
		expect(replay.out()).toBe(result.out);
	});

	it('answers permission requests with reject-once, or with allow-once under --yolo', async () => {
		expect((await run(['-p', 'permission', '--', process.execPath, 'AGENT'])).out).toContain('Permission: abort.');
		await cleanup?.();
		expect((await run(['--yolo', '-p', 'permission', '--', process.execPath, 'AGENT'])).out).toContain('Permission: proceed_once.');
	});

	it('answers two questions asked at once each in turn; a refused call the agent never reports is denied, not interrupted', async () => {
		const refused = await run(['-p', 'permission-pair', '--json', '--', process.execPath, 'AGENT']);
		const entries = refused.out.trim().split('\n').map(line => JSON.parse(line) as {entry: string; callId?: string; outcome?: string; text?: string});
		expect(entries.filter(entry => entry.entry === 'card').map(entry => [entry.callId, entry.outcome])).toEqual([['call_a', 'denied'], ['call_b', 'denied']]);
		expect(entries.find(entry => entry.entry === 'assistant')?.text).toBe('Answers: abort, abort.');
		await cleanup?.();
		expect((await run(['--yolo', '-p', 'permission-pair', '--', process.execPath, 'AGENT'])).out).toContain('Answers: once, once.');
	});

	it('exits 1 when the agent crashes, with its exit and stderr in the transcript', async () => {
		const result = await run(['-p', 'crash', '--', process.execPath, 'AGENT']);
		expect(result.code).toBe(1);
		expect(result.out).toContain('the agent exited with code 3');
		expect(result.out).toContain('error: the agent exited with code 3 during session/prompt');
	});

	it('shows the terminal escapes an agent puts in any field as text, never as escapes, live and in replay', async () => {
		const result = await run(['--yolo', '-p', 'hostile', '--', process.execPath, 'AGENT']);
		expect(result.code).toBe(0);
		// Without colour nothing cardterm writes holds an ESC, a BEL or a bidi override.
		const raw = /[\u0007\u001B\u202E]/u;
		expect(result.out).not.toMatch(raw);
		expect(result.err).not.toMatch(raw);
		for (const shown of ['answer \\x1b[2J\\x1b]0;pwned\\x07', 'step \\x1b[2J', 'title: title \\x1b[2J', 'unknown kind "kind\\x1b[2J', 'acp_execute echo \\x1b[2J', '- old \\x1b[2J', '+ new \\x1b[2J', 'meta link\\u202eevil']) {
			expect(result.out).toContain(shown);
		}

		const [id] = await readdir(result.sessions);
		const replay = fakeIo({cwd: result.workspace, columns: 80});
		expect(await main(['replay', '--print', '--width', '80', path.join(result.sessions, id!, 'session.jsonl')], replay)).toBe(0);
		expect(replay.out()).toBe(result.out);
	});

	it('--json writes one object per entry', async () => {
		const result = await run(['-p', 'hello there', '--json', '--', process.execPath, 'AGENT']);
		const entries = result.out.trim().split('\n').map(line => JSON.parse(line) as {entry: string; text?: string});
		expect(entries.map(entry => [entry.entry, entry.text])).toEqual([['user', 'hello there'], ['assistant', 'You said: hello there'], ['turn', undefined]]);
	});

	it('authenticates with the only method the agent offers, or names the methods for --auth', async () => {
		expect((await run(['-p', 'hi', '--', process.execPath, 'AGENT', '--auth'])).code).toBe(0);
		await cleanup?.();
		const wrong = await run(['--auth', 'nope', '-p', 'hi', '--', process.execPath, 'AGENT', '--auth']);
		expect(wrong.code).toBe(1);
		expect(wrong.err).toContain('fake-agent asks to authenticate with one of: Fake login (fake-login)');
	});

	it('--resume without an id loads the newest ACP session of this folder and agent command; none is a clear error', async () => {
		const {base, workspace, dispose} = await makeWorkspace();
		cleanup = dispose;
		const sessions = path.join(base, 'sessions');
		const trace = path.join(base, 'trace.jsonl');
		const acp = async (argv: readonly string[], env: NodeJS.ProcessEnv = {}) => {
			const io = fakeIo({cwd: workspace, columns: 80, env});
			const code = await main(['acp', '--session-dir', sessions, '--width', '80', ...argv], io);
			return {code, out: io.out(), err: io.err()};
		};

		const none = await acp(['--resume', '-p', 'x', '--', process.execPath, FAKE_AGENT, '--load']);
		expect(none.code).toBe(2);
		expect(none.err).toContain(`acp: --resume: no ACP session of ${path.basename(process.execPath)} recorded for ${workspace} in ${sessions}`);
		expect((await acp(['-p', 'first', '--', process.execPath, FAKE_AGENT, '--load', '--id=older'])).code).toBe(0);
		expect((await acp(['-p', 'second', '--', process.execPath, FAKE_AGENT, '--load', '--id=newer'])).code).toBe(0);
		// Another agent command's session in the same folder is not this agent's.
		const other = await acp(['--resume', '-p', 'x', '--', FAKE_AGENT, '--load']);
		expect(other.err).toContain('no ACP session of fake-agent.mjs');
		const resumed = await acp(['--resume', '-p', 'again', '--', process.execPath, FAKE_AGENT, '--load'], {CARDTERM_ACP_TRACE: trace});
		expect(resumed.code).toBe(0);
		expect(resumed.err).toMatch(/^cardterm: resuming agent session newer \(recorded in .*session\.jsonl\)\n/);
		// The agent was asked to load the newest session; its history is the transcript's first turn.
		const loads = (await readFile(trace, 'utf8')).trimEnd().split('\n').map(line => JSON.parse((JSON.parse(line) as {line: string}).line) as {method?: string; params?: {sessionId?: string}}).filter(frame => frame.method === 'session/load');
		expect(loads.map(frame => frame.params?.sessionId)).toEqual(['newer']);
		expect(resumed.out).toContain('› What was the plan?');
		expect(resumed.out).toContain('› again');
		// An agent that cannot load says so.
		const cannot = await acp(['--resume', '-p', 'x', '--', process.execPath, FAKE_AGENT]);
		expect(cannot.code).toBe(1);
		expect(cannot.err).toContain('fake-agent cannot load a session (it does not advertise loadSession)');
	});

	it('is a usage error without an agent to run, or with --json outside -p', async () => {
		const none = await run(['-p', 'x']);
		expect(none.code).toBe(2);
		expect(none.err).toContain('acp: name the agent to run');
		await cleanup?.();
		expect((await run(['--json', '--', 'agent'])).code).toBe(2);
	});
});
