/**
A hostile model through the real `bin/cardterm -p` against the fake model server (issue 16, attacker
items 4, 8, 10 and 11): tool arguments nested 5 000 levels deep, 12 Mi characters of arguments, a
32 MB argument string of 16 M nested arrays in a log, a conversation too large to send, and a tool
result larger than a log line may be. Each leaves a session that replays and continues, and says
what it refused. Needs a built dist/ (rebuilt when older than the sources).
*/
import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {REQUEST_MAX_CHARS} from '../../src/agent/conversation.js';
import {DEFAULT_MAX_LINE_BYTES} from '../../src/session/reader/line-splitter.js';
import {MESSAGE_MAX_CHARS} from '../../src/session/recorder/message-bound.js';
import {ARGUMENT_MAX_DEPTH} from '../../src/tools/call-arguments.js';
import {buildDist, cardterm} from '../app/e2e-helpers.js';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';

let folder = '';
let probe = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-hostile-model-'));
	// Peak RSS (KiB) of a child, written when it exits.
	probe = join(folder, 'max-rss.cjs');
	writeFileSync(probe, 'process.on("exit", () => require("node:fs").writeFileSync(process.env.CARDTERM_RSS_FILE, String(process.resourceUsage().maxRSS)));\n');
}, 300_000);

afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

/** `-p`'s stderr when nothing went wrong: only its closing line, where the log is. */
const SAVED_ONLY = /^cardterm: session saved: \S+ \(\d+ events\)\n$/u;

type Run = {readonly code: number; readonly stdout: string; readonly stderr: string; readonly rssMb: number};

/** `node [NODE_ARGS] bin/cardterm ARGS` in `cwd`; this test's event loop keeps serving the fake server meanwhile. */
async function run(cwd: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<Run> {
	const rssFile = join(cwd, 'rss.txt');
	return new Promise(resolve => {
		execFile(process.execPath, ['--require', probe, ...nodeArgs, cardterm, ...args], {cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 << 20, env: {PATH: process.env.PATH ?? '', HOME: cwd, XDG_CONFIG_HOME: join(cwd, 'config'), OPENAI_API_KEY: 'test', NO_COLOR: '1', CARDTERM_RSS_FILE: rssFile}}, (error, stdout, stderr) => {
			const code = error === null ? 0 : (typeof error.code === 'number' ? error.code : -1);
			let rssMb = Number.NaN;
			try {
				rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
			} catch {
				// The child died before its exit handler ran.
			}

			resolve({code, stdout, stderr, rssMb});
		});
	});
}

/** A fresh workspace and sessions folder; `-p PROMPT` against `server` (more args after). */
function workspace(name: string): {readonly cwd: string; readonly sessions: string; readonly prompt: (server: FakeModelServer, prompt: string, ...more: string[]) => Promise<Run>; readonly log: () => string} {
	const cwd = join(folder, name);
	const sessions = join(cwd, 'sessions');
	mkdirSync(sessions, {recursive: true});
	return {
		cwd,
		sessions,
		prompt: async (server, prompt, ...more) => run(cwd, ['-p', prompt, '--base-url', server.url, '--model', 'fake-model', '--session-dir', sessions, '--json', ...more]),
		log: () => join(sessions, readdirSync(sessions).find(id => !id.startsWith('.'))!, 'session.jsonl'),
	};
}

type JsonEntry = {readonly entry: string; readonly name?: string; readonly outcome?: string; readonly result?: {readonly content?: ReadonlyArray<{readonly text?: string}>}; readonly text?: string};

const entries = (stdout: string): JsonEntry[] => stdout.trim().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as JsonEntry);
const resultText = (entry: JsonEntry | undefined): string => entry?.result?.content?.map(block => block.text ?? '').join('') ?? '';

describe('a hostile model, through the real cardterm -p', () => {
	it('a call nested 5 000 levels deep is refused, sent back as `{}`, and every later turn and --continue still work', async () => {
		const depth = 5000;
		const nested = `{"file_path":${'['.repeat(depth)}${']'.repeat(depth)}}`;
		const server = await startFakeModelServer({script: [
			{toolCalls: [{id: 'deep', name: 'read', args: nested}]},
			{text: 'I will not nest arguments again.'},
			{text: 'The next turn.'},
		]});
		try {
			const space = workspace('nested');
			const first = await space.prompt(server, 'read something');
			expect(first.stderr).toMatch(SAVED_ONLY);
			expect(first.code).toBe(0);
			const card = entries(first.stdout).find(entry => entry.entry === 'card');
			expect(card?.outcome).toBe('error');
			expect(resultText(card)).toContain(`the arguments nest deeper than ${ARGUMENT_MAX_DEPTH} levels of arrays and objects`);
			expect(first.stdout).toContain('I will not nest arguments again.');
			// The call went back to the model as an object it can read, with the refusal as its result.
			const sent = server.requests[1]!.body.messages;
			expect(sent.find(message => message.role === 'assistant')?.tool_calls?.[0]?.function.arguments).toBe('{}');
			expect(String(sent.find(message => message.role === 'tool')?.content)).toContain('nest deeper than');

			const next = await space.prompt(server, 'go on', '--continue');
			expect(next.stderr).toMatch(SAVED_ONLY);
			expect(next.code).toBe(0);
			expect(next.stdout).toContain('The next turn.');
			expect(server.requests).toHaveLength(3);
		} finally {
			await server.close();
		}
	}, 120_000);

	it(`a call whose arguments pass ${MESSAGE_MAX_CHARS} characters is cut there and refused; the log's lines stay readable, and it replays and continues`, async () => {
		// 12 Mi control characters: each takes six bytes in a log line (\\u0001), so a line that kept them would be 72 MiB.
		const piece = '\u0001'.repeat(256 * 1024);
		const server = await startFakeModelServer({script: [
			{toolCalls: [{id: 'huge', name: 'write', args: ['{"file_path":"big.txt","content":"', ...Array.from({length: 48}, () => piece), '"}']}]},
			{text: 'I will write less at once.'},
			{text: 'Continued.'},
		]});
		try {
			const space = workspace('huge-arguments');
			const first = await space.prompt(server, 'write a big file', '--yolo');
			expect(first.stderr).toMatch(SAVED_ONLY);
			expect(first.code).toBe(0);
			const card = entries(first.stdout).find(entry => entry.entry === 'card');
			expect(card).toMatchObject({name: 'write', outcome: 'error'});
			expect(resultText(card)).toContain(`passed cardterm's bound of ${MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters for one step`);
			expect(first.stdout).toContain('I will write less at once.');
			expect(readdirSync(space.cwd)).not.toContain('big.txt');
			// Nothing past the bound was kept: not on disk, not in memory (it was 2.1 GB for 100 MB).
			const lines = readFileSync(space.log()).toString('utf8').split('\n');
			expect(Math.max(...lines.map(line => Buffer.byteLength(line)))).toBeLessThan(DEFAULT_MAX_LINE_BYTES / 2);
			expect(first.rssMb).toBeLessThan(600);

			const replayed = await run(space.cwd, ['replay', space.log(), '--json']);
			expect(replayed.stderr).toBe('');
			expect(entries(replayed.stdout).map(entry => entry.entry === 'card' ? `${entry.name} ${entry.outcome}` : entry.entry)).toEqual(['user', 'write error', 'assistant', 'turn']);
			const next = await space.prompt(server, 'go on', '--continue');
			expect(next.stderr).toMatch(SAVED_ONLY);
			expect(next.stdout).toContain('Continued.');
		} finally {
			await server.close();
		}
	}, 120_000);

	it(`a conversation past ${REQUEST_MAX_CHARS} characters is never sent: it is a context overflow, compacted once (older results pruned) and sent under the bound`, async () => {
		const server = await startFakeModelServer({script: () => ({text: 'never asked'})});
		try {
			const space = workspace('oversized');
			// The tool results' budgets lifted and compaction off: only this bound stands before the request
			// (with the budgets, each result is cut for the model long before it).
			mkdirSync(join(space.cwd, 'config', 'cardterm'), {recursive: true});
			writeFileSync(join(space.cwd, 'config', 'cardterm', 'config.json'), JSON.stringify({context: {compaction: false, resultTokens: 1e9, stepResultTokens: 1e9}}));
			// A session whose tool results hold 3 × 24 Mi characters (each line within the log's bound).
			const dir = join(space.sessions, 'big');
			mkdirSync(dir);
			const header = {type: 'session', version: 0, id: 'big', createdAt: 1, cwd: space.cwd};
			const lines: unknown[] = [header, {type: 'turn/start', seq: 0, time: 1, data: {turn: 1}}, {type: 'user/message', seq: 1, time: 1, data: {id: 'u1', role: 'user', content: [{type: 'text', text: 'read them'}], source: {kind: 'user'}}, surfaceOp: 'append'}];
			const calls = ['c1', 'c2', 'c3'];
			lines.push({type: 'assistant/message', seq: 2, time: 2, data: {turn: 1, step: 1, message: {id: 'a1', role: 'assistant', content: calls.map(id => ({type: 'tool-call', id, name: 'read', arguments: `{"file_path":"${id}.txt"}`})), source: {kind: 'model', provider: 'openai-compatible', model: 'fake-model'}}}, surfaceOp: 'append'});
			let seq = 3;
			for (const [index, id] of calls.entries()) {
				lines.push({type: 'tool/call', seq: seq++, time: 3, data: {turn: 1, step: 1, callId: id, name: 'read', arguments: `{"file_path":"${id}.txt"}`}});
				const text = 'x'.repeat((24 << 20) + index);
				lines.push({type: 'tool/result', seq: seq++, time: 4, data: {turn: 1, step: 1, message: {role: 'user', source: {kind: 'tool', callId: id}, content: [{type: 'tool-result', toolCallId: id, content: [{type: 'text', text}], isError: false}]}}, sourceEventSeqs: [seq - 2], surfaceOp: 'append'});
			}

			lines.push({type: 'step/end', seq: seq++, time: 5, data: {turn: 1, step: 1}}, {type: 'turn/end', seq: seq++, time: 5, data: {turn: 1, reason: {kind: 'completed'}}});
			writeFileSync(join(dir, 'session.jsonl'), `${lines.map(line => JSON.stringify(line)).join('\n')}\n`);

			const next = await space.prompt(server, 'go on', '--continue');
			expect(next.code).toBe(0);
			expect(server.received).toBe(1);
			const sent = server.requests[0]!.body.messages as Array<{role: string; content?: unknown}>;
			expect(JSON.stringify(sent).length).toBeLessThan(REQUEST_MAX_CHARS);
			// The two older results were pruned to a stub naming their cards; the newest went whole.
			const results = sent.filter(message => message.role === 'tool').map(message => String(message.content));
			expect(results.map(text => text.startsWith('[pruned by a compaction'))).toEqual([true, true, false]);
			expect(results[0]).toContain('call c1 (log seq 4)');
			expect(results[2]).toHaveLength((24 << 20) + 2);
		} finally {
			await server.close();
		}
	}, 120_000);
});

describe('a session log that held hostile arguments', () => {
	it('replays a 32 MB argument string of 16 M nested arrays in a child whose V8 heap is capped at 256 MB', async () => {
		const levels = 16 << 20;
		const path = join(folder, 'nested-string.jsonl');
		const header = JSON.stringify({type: 'session', version: 0, id: 's', createdAt: 1, cwd: folder});
		const call = JSON.stringify({type: 'tool/call', seq: 0, time: 1, data: {callId: 'c1', name: 'nope', arguments: `${'['.repeat(levels)}${']'.repeat(levels)}`}});
		const result = JSON.stringify({type: 'tool/result', seq: 1, time: 2, data: {message: {role: 'user', source: {kind: 'tool', callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', content: [{type: 'text', text: 'ok'}], isError: false}]}}});
		writeFileSync(path, `${header}\n${call}\n${result}\n`);
		for (const mode of ['--json', '--print']) {
			 
			const replayed = await run(folder, ['replay', path, mode], ['--max-old-space-size=256']);
			expect([mode, replayed.code, replayed.stderr]).toEqual([mode, 0, '']);
			expect(replayed.stdout).toContain('nope');
		}
	}, 120_000);
});

describe('a tool result larger than a log line may be', () => {
	it('is kept within the line bound, marked where it was cut, so the log replays with its card', async () => {
		const space = join(folder, 'huge-result');
		mkdirSync(space);
		// 12 Mi control characters: a line that kept them all would take 72 MiB (the reader stops at 64).
		const file = join(space, 'controls.txt');
		writeFileSync(file, Buffer.alloc(12 << 20, 1));
		const log = join(space, 'session.jsonl');
		const plugin = fileURLToPath(new URL('../fixtures/plugins/seed-minimal.ts', import.meta.url));
		const called = await run(space, ['call', 'read_file', JSON.stringify({path: file}), '--plugin', plugin, '--log', log, '--json']);
		expect(called.code).toBe(0);
		const lines = readFileSync(log).toString('utf8').split('\n');
		expect(Math.max(...lines.map(line => Buffer.byteLength(line)))).toBeLessThanOrEqual(DEFAULT_MAX_LINE_BYTES);
		const replayed = await run(space, ['replay', log, '--json']);
		expect(replayed.stderr).toBe('');
		const card = entries(replayed.stdout).find(entry => entry.entry === 'card');
		expect(card?.outcome).toBe('ok');
		expect(resultText(card)).toMatch(/\u0001… \[\d+ characters not kept: a session log's line holds at most 64 MiB\]$/);
	}, 120_000);
});
