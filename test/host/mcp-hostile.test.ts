/**
MCP servers that misbehave (issue 18), each run for real over stdio (`fixtures/hostile-mcp-server.mjs`):
a crash mid-call, a hang in initialize (a timeout naming the server), a schema that does not
compile (that tool skipped and named, the others work), 10 000 tools, a 50 MB result, escape
sequences and bidi controls in every field, a listChanged storm, sampling and elicitation requests
(refused, saying so), cancellation and the per-call limit (the server is sent
notifications/cancelled), and tools that ask unless allowed. A bad server never holds the others.
*/
import {existsSync, readFileSync, statSync} from 'node:fs';
import {mkdir, mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {layoutCard} from '../../src/layout/cards/layout-card.js';
import {renderLines} from '../../src/layout/terminal/render-lines.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import type {Card} from '../../src/presentation/card.js';
import {cardsOf} from '../../src/presentation/entry.js';
import {cardTexts} from '../layout/helpers.js';
import {scanTerminalOutput} from '../reliability/escape-scanner.js';

const HOSTILE_SERVER = fileURLToPath(new URL('fixtures/hostile-mcp-server.mjs', import.meta.url));

let workspace = '';
let record = '';
const opened: OpenedSession[] = [];

beforeEach(async () => {
	workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-hostile-')));
	record = join(workspace, 'record.txt');
});

afterEach(async () => {
	await Promise.all(opened.splice(0).map(async session => session.close()));
	await rm(workspace, {recursive: true, force: true});
});

/** A session with the hostile server (`flags`) as `bad`, and a well-behaved one as `good`; waits for both to settle. */
async function session(flags: readonly string[], entry: Record<string, unknown> = {}, options: {readonly ask?: boolean; readonly logged?: boolean} = {}): Promise<OpenedSession> {
	const config = {
		bad: {command: process.execPath, args: [HOSTILE_SERVER, ...flags], env: {HOSTILE_MCP_RECORD: record}, allow: true, ...entry},
		good: {command: process.execPath, args: [HOSTILE_SERVER], allow: true},
	};
	if (options.logged === true) {
		await mkdir(join(workspace, 'log'));
	}

	const opening = await openSession({cwd: workspace, ...(options.logged === true ? {logPath: join(workspace, 'log', 'session.jsonl')} : {}), mcp: {servers: readMcpServers(config, 'test config', false).entries, env: process.env, ask: options.ask ?? true}});
	opened.push(opening);
	await opening.mcp!.settled();
	return opening;
}

function status(opening: OpenedSession, name: string) {
	return opening.mcp!.status().find(server => server.name === name)!;
}

async function call(opening: OpenedSession, name: string, args: unknown = {}, signal = new AbortController().signal): Promise<Card> {
	await opening.runtime.runCall(name, args, {signal});
	return cardsOf(opening.fold.entries).at(-1)!;
}

async function goodStillWorks(opening: OpenedSession): Promise<void> {
	const card = await call(opening, 'mcp__good__echo', {text: 'still here'});
	expect(card.result!.content).toEqual([{type: 'text', text: 'echo still here'}]);
}

function recorded(): string[] {
	return existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : [];
}

describe('a hostile MCP server', () => {
	it('crashes mid-call: the call fails naming the server and how its program ended; the server is failed; the others work', async () => {
		const opening = await session([]);
		const card = await call(opening, 'mcp__bad__crash');
		expect(card.outcome).toBe('error');
		const text = card.result!.content.map(block => (block.type === 'text' ? block.text : '')).join('');
		expect(text).toContain('MCP server "bad": crash failed');
		await expect.poll(() => status(opening, 'bad').state).toBe('failed');
		expect(status(opening, 'bad').reason).toMatch(/the connection ended; its program ended \(exit code 3\); stderr: hostile server: crashing mid-call/);
		// A later call says the server is gone, with why.
		const again = await call(opening, 'mcp__bad__echo', {text: 'x'});
		expect(again.result!.content[0]).toMatchObject({text: expect.stringContaining('MCP server "bad" is not connected: the connection ended')});
		await goodStillWorks(opening);
	});

	it('answers isError: a failed card that keeps everything the server said, for the model and the card', async () => {
		const opening = await session([]);
		const card = await call(opening, 'mcp__bad__fails');
		expect(card.outcome).toBe('error');
		expect(card.result!.error).toEqual({name: 'ToolResultError', code: 'TOOL_RESULT_ERROR'});
		expect(card.result!.content).toEqual([{type: 'text', text: 'quota exceeded for this key'}, {type: 'text', text: expect.stringMatching(/^\[image image\/png, 8 B, saved to \S+\.png\]$/)}]);
		const text = cardTexts(card, 200, {expansion: 'full'}).join('\n');
		expect(text).toContain('The server reported an error (isError):');
		expect(text).toContain('quota exceeded for this key');
		expect(text).toMatch(/image · image\/png · 8 B · saved /);
	});

	it('hangs in initialize: a timeout that names the server and the limit; the others start anyway', async () => {
		const opening = await session(['--hang-initialize'], {startupTimeoutMs: 700});
		expect(status(opening, 'bad')).toMatchObject({state: 'failed', tools: 0});
		expect(status(opening, 'bad').reason).toContain('did not finish initialize within 0.7 s (the limit is "startupTimeoutMs" in its config)');
		expect(status(opening, 'good').state).toBe('ready');
		await goodStillWorks(opening);
	});

	it('lists a tool whose schema does not compile: that tool is skipped and named, the others work', async () => {
		const opening = await session(['--bad-schema']);
		const bad = status(opening, 'bad');
		expect(bad.state).toBe('ready');
		expect(bad.skipped).toEqual([expect.stringMatching(/^broken: its input schema does not compile: .*nowhere/)]);
		expect(opening.toolNames().has('mcp__bad__good')).toBe(true);
		expect(opening.toolNames().has('mcp__bad__broken')).toBe(false);
		const card = await call(opening, 'mcp__bad__echo', {text: 'ok'});
		expect(card.outcome).toBe('ok');
	});

	it('lists 10 000 tools (in pages): every one registered', async () => {
		const opening = await session(['--tools=10000']);
		expect(status(opening, 'bad')).toMatchObject({state: 'ready', tools: 10_000, skipped: []});
		expect(opening.registry.get('mcp__bad__t9999')).toBeDefined();
		const card = await call(opening, 'mcp__bad__t4321', {n: 1});
		expect(card.outcome).toBe('ok');
		expect(card.result!.content).toEqual([{type: 'text', text: 't4321 ran with n=1'}]);
	}, 60_000);

	it('returns 50 MB: the model gets the budget with a marker, the whole text is saved, the log stays small', async () => {
		const opening = await session(['--big=50000000'], {}, {logged: true});
		const card = await call(opening, 'mcp__bad__big');
		expect(card.outcome).toBe('ok');
		const model = card.result!.content.map(block => (block.type === 'text' ? block.text : '')).join('\n');
		expect(model).toContain('[cut: the model received 100000 of 50000000 characters]');
		const saved = /the whole result is in (\S+\.txt)/.exec(model)?.[1];
		expect(saved).toBeDefined();
		expect(statSync(saved!).size).toBe(50_000_000);
		const text = cardTexts(card, 1000, {expansion: 'full'}).join('\n');
		expect(text).toContain(`note: the model received the first 100000 characters of the text; the whole text is in ${saved!}`);
		await opening.flush();
		expect(statSync(opening.logPath!).size).toBeLessThan(1_000_000);
	}, 60_000);

	it('sends escape sequences and bidi controls in every field: the card shows them as visible text only', async () => {
		const opening = await session(['--hostile']);
		const card = await call(opening, 'mcp__bad__hostile');
		for (const expansion of ['summary', 'bounded', 'full'] as const) {
			const output = renderLines(layoutCard(card, {width: 80, theme: colorTheme, now: Date.now(), expansion}), {color: true, hyperlinks: true, width: 80});
			expect(scanTerminalOutput(output, {hyperlinks: true, inkCursor: false}).violations).toEqual([]);
		}

		const text = cardTexts(card, 200, {expansion: 'full'}).join('\n');
		// Every item is there (nothing dropped), and the structured content is marked as not conforming.
		expect(text).toMatch(/text .*evil/);
		expect(text).toMatch(/image · image\/png/);
		expect(text).toMatch(/link · file:\/\/\/x/);
		expect(text).toMatch(/resource · demo:\/\/r/);
		expect(text).toMatch(/\(an item type cardterm does not know\)/);
		expect(text).toContain('DOES NOT CONFORM to the output schema');
	});

	it('storms listChanged: the list converges on the server\'s last one, read a few times, not once per notification', async () => {
		const opening = await session(['--storm=500']);
		await expect.poll(() => recorded().filter(line => line === 'tools/list').length, {timeout: 5000}).toBeGreaterThanOrEqual(2);
		// Settled: no list read for a while.
		let reads = -1;
		await expect.poll(() => {
			const now = recorded().filter(line => line === 'tools/list').length;
			const steady = now === reads;
			reads = now;
			return steady;
		}, {timeout: 10_000, interval: 700}).toBe(true);
		expect(reads).toBeLessThan(50);
		expect(status(opening, 'bad').tools).toBe(reads);
		expect(opening.toolNames().has(`mcp__bad__s${reads - 1}`)).toBe(true);
	}, 20_000);

	it('asks for sampling and elicitation: refused with a clear error, and the card says so', async () => {
		const opening = await session(['--ask']);
		const card = await call(opening, 'mcp__bad__ask');
		const text = cardTexts(card, 200, {expansion: 'full'}).join('\n');
		expect(text).toContain('sampling: {"code":');
		expect(text).toContain('cardterm does not serve sampling');
		expect(text).toContain('cardterm does not serve elicitation');
		expect(text).toContain('note: refused the server\'s sampling/createMessage request');
		expect(text).toContain('note: refused the server\'s elicitation/create request');
		expect(status(opening, 'bad').refused).toHaveLength(2);
	});

	it('a cancelled call sends notifications/cancelled; its progress reached the card first', async () => {
		const opening = await session(['--slow']);
		const abort = new AbortController();
		const progress: string[] = [];
		opening.log.listen(event => {
			if (event.type === 'cardterm/tool-progress') {
				progress.push(event.data.text ?? '');
				abort.abort();
			}
		});
		const card = await call(opening, 'mcp__bad__slow', {}, abort.signal);
		expect(progress).toEqual(['[1/30] warming up\n']);
		expect(card.outcome).toBe('cancelled');
		await expect.poll(() => recorded().some(line => line.startsWith('cancelled '))).toBe(true);
	});

	it('a call past its limit fails naming the server and the limit, and the server is told to cancel', async () => {
		const opening = await session(['--slow'], {timeoutMs: 500});
		const card = await call(opening, 'mcp__bad__slow');
		expect(card.outcome).toBe('error');
		expect(card.result!.content[0]).toMatchObject({text: expect.stringContaining('MCP server "bad": slow did not answer within 1 s (cancelled; the limit is "timeoutMs" in its config)')});
		await expect.poll(() => recorded().some(line => line.startsWith('cancelled '))).toBe(true);
	});
});

describe('every server\'s processes end with the session', () => {
	it('close() ends the server\'s program and the process it started (npx and uvx start servers so)', async () => {
		const opening = await session(['--grandchild']);
		await expect.poll(() => recorded().filter(line => /^(pid|grandchild) /.test(line)).length).toBe(2);
		const pids = recorded().flatMap(line => /^(?:pid|grandchild) (\d+)$/.exec(line)?.[1] ?? []).map(Number);
		expect(pids.every(pid => alive(pid))).toBe(true);
		await opening.close();
		await expect.poll(() => pids.filter(pid => alive(pid)), {timeout: 5000}).toEqual([]);
	});
});

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe('MCP tools ask before they run', () => {
	it('unless allowed: a tool not in "allow" asks (refused with nobody to answer), an allowed one runs, --yolo asks nothing', async () => {
		const asking = await session([], {allow: ['echo']});
		// `good` allows everything; `bad` only echo.
		expect((await call(asking, 'mcp__bad__echo', {text: 'a'})).outcome).toBe('ok');
		const refused = await call(asking, 'mcp__bad__big');
		expect(refused.outcome).toBe('denied');
		expect(refused.approval).toMatchObject({reason: expect.stringContaining('MCP server "bad"')});
		const yolo = await session([], {allow: []}, {ask: false});
		expect((await call(yolo, 'mcp__bad__big')).outcome).toBe('ok');
	});
});
