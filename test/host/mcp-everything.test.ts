/**
MCP with the reference server (`@modelcontextprotocol/server-everything`, a devDependency, run
offline over stdio, and over streamable HTTP and the legacy SSE transport): every tool is registered as `mcp__everything__TOOL`, each result shape gives
an honest card — text, an image row with its saved copy, resource links, an embedded resource,
structured content checked against the output schema, an annotated message, progress rows from a
long-running operation — and the log replays to the same cards.
*/
import {spawn} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, realpath, rm} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {createServer, type AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import type {Card} from '../../src/presentation/card.js';
import {cardsOf} from '../../src/presentation/entry.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {cardTexts} from '../layout/helpers.js';

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

let workspace = '';
let session: OpenedSession;
const events: SessionEvent[] = [];

beforeAll(async () => {
	workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-everything-')));
	const {entries} = readMcpServers({everything: {command: process.execPath, args: [everything, 'stdio'], allow: true}}, 'test config', false);
	await mkdir(join(workspace, 'session'));
	session = await openSession({cwd: workspace, logPath: join(workspace, 'session', 'session.jsonl'), mcp: {servers: entries, env: process.env, ask: true}});
	session.log.listen(event => events.push(event));
	await session.mcp!.settled();
}, 30_000);

afterAll(async () => {
	await session?.close();
	await rm(workspace, {recursive: true, force: true});
});

async function call(tool: string, args: unknown): Promise<Card> {
	const result = await session.runtime.runCall(`mcp__everything__${tool}`, args, {signal: new AbortController().signal});
	expect(result).toBeDefined();
	return cardsOf(session.fold.entries).at(-1)!;
}

function body(card: Card): string {
	return cardTexts(card, 120, {expansion: 'full'}).join('\n');
}

describe('server-everything over stdio', () => {
	it('is ready with its tools registered under mcp__everything__', () => {
		const [status] = session.mcp!.status();
		expect(status).toMatchObject({name: 'everything', state: 'ready', skipped: []});
		expect(status!.tools).toBeGreaterThanOrEqual(10);
		expect(status!.server).toMatch(/everything/);
		const names = [...session.toolNames()].filter(name => name.startsWith('mcp__everything__'));
		expect(names).toContain('mcp__everything__echo');
		expect(names).toContain('mcp__everything__get-structured-content');
		expect(names.length).toBe(status!.tools);
	});

	it('text: the echo is the card and what the model received', async () => {
		const card = await call('echo', {message: 'hello from cardterm'});
		expect(card.outcome).toBe('ok');
		expect(card.result!.content).toEqual([{type: 'text', text: 'Echo: hello from cardterm'}]);
		expect(card.result!.meta).toMatchObject({mcp: {server: 'everything', tool: 'echo', isError: false}});
		expect(body(card)).toContain('Echo: hello from cardterm');
		expect(cardTexts(card, 120)[0]).toContain('mcp__everything__echo message: hello from cardterm');
	});

	it('image: a row with type, size and the saved copy (a PNG on disk), and a note that the model got a description', async () => {
		const card = await call('get-tiny-image', {});
		const text = body(card);
		const row = /image · image\/png · ([\d.]+ (?:B|KB)) · saved (\S+\.png)/.exec(text);
		expect(row, text).not.toBeNull();
		const saved = readFileSync(row![2]!);
		expect(saved.subarray(1, 4).toString('latin1')).toBe('PNG');
		expect(text).toContain('note: the model received a description of each image');
		const model = card.result!.content.map(block => (block.type === 'text' ? block.text : '')).join('\n');
		expect(model).toContain(`saved to ${row![2]!}`);
		// Kept in the session's attachments too, and referred to by an image block: a model that takes images gets it as one.
		const image = card.result!.content.find(block => block.type === 'image');
		expect(image).toEqual({type: 'image', attachment: {attachmentId: expect.stringMatching(/^[\da-f]{16}\.png$/), mediaType: 'image/png', bytes: saved.length, width: expect.any(Number), height: expect.any(Number), name: 'get-tiny-image-1'}});
		expect(readFileSync(join(workspace, 'session', 'attachments', (image as {attachment: {attachmentId: string}}).attachment.attachmentId))).toEqual(saved);
		expect(text).toContain('note: the model received a description of each image and audio item (type, size, saved copy); the image also as an image');
	});

	it('resource links: each link with its URI, name and type', async () => {
		const card = await call('get-resource-links', {count: 2});
		const text = body(card);
		expect(text).toMatch(/link · demo:\/\/resource\/dynamic\/\w+\/1 · [^\n]*Resource 1/);
		expect(text).toMatch(/link · demo:\/\/resource\/dynamic\/\w+\/2/);
		expect(text).toContain('Here are 2 resource links');
	});

	it('an embedded resource: its URI and type, its text readable in the card', async () => {
		const card = await call('get-resource-reference', {resourceType: 'Text', resourceId: 1});
		const text = body(card);
		expect(text).toContain('resource · demo://resource/dynamic/text/1 · text/plain');
		expect(text).toContain('Resource 1: This is a plaintext resource');
	});

	it('structured content: pretty JSON, marked as conforming to the output schema, not shown twice', async () => {
		const card = await call('get-structured-content', {location: 'Chicago'});
		const text = body(card);
		expect(text).toContain('structured content (conforms to the output schema)');
		expect(text).toMatch(/"temperature": \d+/);
		expect(text).toContain('text: the structured content as JSON (below)');
		// The model received the JSON once.
		expect(card.result!.content.filter(block => block.type === 'text' && block.text.includes('temperature'))).toHaveLength(1);
	});

	it('an annotated message with an image: both items, in order', async () => {
		const card = await call('get-annotated-message', {messageType: 'success', includeImage: true});
		const text = body(card);
		expect(text).toContain('Operation completed successfully');
		expect(text).toMatch(/image · image\/png/);
		expect(text.indexOf('Operation completed')).toBeLessThan(text.indexOf('image · image/png'));
	});

	it('a long-running operation: progress notifications reach the running card as rows', async () => {
		const progress: string[] = [];
		const stop = session.log.listen(event => {
			if (event.type === 'cardterm/tool-progress') {
				progress.push(event.data.text ?? '');
			}
		});
		const card = await call('trigger-long-running-operation', {duration: 1, steps: 3});
		stop();
		expect(card.outcome).toBe('ok');
		// The server reports a step before each of its waits: at least the first two arrive before the result.
		expect(progress.length).toBeGreaterThanOrEqual(2);
		expect(progress.slice(0, 2)).toEqual(['[1/3]\n', '[2/3]\n']);
		expect(body(card)).toMatch(/Long running operation completed/);
	});

	it('arguments the input schema refuses never reach the server: an argument error', async () => {
		const card = await call('get-sum', {a: 'one'});
		expect(card.outcome).toBe('error');
		expect(card.result!.error).toEqual({name: 'ToolArgsError', code: 'INVALID_ARGS'});
	});

	it('every tool it lists gives a card by content (gzip-file-as-resource aside: it fetches a URL, and the tests run offline)', async () => {
		const args: Record<string, unknown> = {
			echo: {message: 'x'}, 'get-sum': {a: 1, b: 2}, 'get-structured-content': {location: 'Chicago'}, 'get-annotated-message': {messageType: 'debug'},
			'trigger-long-running-operation': {duration: 0.2, steps: 1}, 'simulate-research-query': {topic: 'MCP'},
		};
		const names = [...session.toolNames()].filter(name => name.startsWith('mcp__everything__') && name !== 'mcp__everything__gzip-file-as-resource');
		expect(names.length).toBeGreaterThanOrEqual(12);
		for (const name of names) {
			const card = await call(name.slice('mcp__everything__'.length), args[name.slice('mcp__everything__'.length)] ?? {});
			// A result of the server's: the MCP card (its meta), never the raw fallback; a failure names the server.
			const text = body(card);
			if (card.result!.meta === undefined) {
				expect(card.outcome, name).toBe('error');
				expect(text, name).toContain('MCP server "everything"');
			} else {
				expect(card.resultView, name).not.toBeNull();
			}

			expect(text.split('\n').length, name).toBeGreaterThan(1);
		}
	}, 60_000);

	it('its log messages (toggle-simulated-logging) are kept for /mcp', async () => {
		await call('toggle-simulated-logging', {});
		await expect.poll(() => session.mcp!.status()[0]!.logs.length, {timeout: 8000}).toBeGreaterThan(0);
		expect(session.mcp!.status()[0]!.logs[0]).toMatch(/^(debug|info|notice|warning|error|critical|alert|emergency)\b.*message/i);
		await call('toggle-simulated-logging', {});
	}, 15_000);

	it('the log replays to the same cards (replay, --json and watch read it so)', async () => {
		await session.flush();
		const lines = (await readFile(session.logPath!, 'utf8')).trim().split('\n').slice(1).map(line => JSON.parse(line) as SessionEvent);
		const fold = new SessionFold(referencePresenters(workspace));
		for (const event of lines) {
			fold.apply(event);
		}

		const live = cardsOf(session.fold.entries);
		const replayed = cardsOf(fold.entries);
		expect(replayed.length).toBe(live.length);
		expect(replayed.length).toBeGreaterThanOrEqual(8);
		for (const [index, card] of live.entries()) {
			expect(body(replayed[index]!)).toBe(body(card));
		}
	});

	it('trustReadOnlyHint: a tool the server marks read-only runs without asking, another still asks', async () => {
		const opened = await openSession({cwd: workspace, mcp: {servers: readMcpServers({ro: {command: process.execPath, args: [everything, 'stdio'], trustReadOnlyHint: true}}, 'x', false).entries, env: process.env, ask: true}});
		try {
			await opened.mcp!.settled();
			const signal = new AbortController().signal;
			// echo is readOnlyHint: true; toggle-simulated-logging is not. Nobody answers here, so a question is a refusal.
			expect((await opened.runtime.runCall('mcp__ro__echo', {message: 'r'}, {signal})).isError).toBe(false);
			const asked = await opened.runtime.runCall('mcp__ro__toggle-simulated-logging', {}, {signal});
			expect(asked.isError).toBe(true);
			expect(cardsOf(opened.fold.entries).at(-1)!.outcome).toBe('denied');
		} finally {
			await opened.close();
		}
	});

	it('close() ends the server: its tools leave the registry, its state is closed', async () => {
		const opened = await openSession({cwd: workspace, mcp: {servers: readMcpServers({e: {command: process.execPath, args: [everything, 'stdio']}}, 'x', false).entries, env: process.env, ask: true}});
		await opened.mcp!.settled();
		expect([...opened.toolNames()].some(name => name.startsWith('mcp__e__'))).toBe(true);
		await opened.close();
		expect([...opened.toolNames()].some(name => name.startsWith('mcp__e__'))).toBe(false);
		expect(opened.mcp!.status()[0]!.state).toBe('closed');
		expect(existsSync(workspace)).toBe(true);
	});
});

/** server-everything as an HTTP server on a free port (`mode`: streamableHttp or sse); resolves once it listens. */
async function httpEverything(mode: 'streamableHttp' | 'sse'): Promise<{port: number; stop(): void}> {
	const port = await new Promise<number>(resolve => {
		const probe = createServer();
		probe.listen(0, '127.0.0.1', () => {
			const {port: free} = probe.address() as AddressInfo;
			probe.close(() => {
				resolve(free);
			});
		});
	});
	const child = spawn(process.execPath, [everything, mode], {env: {...process.env, PORT: String(port)}, stdio: ['ignore', 'ignore', 'pipe']});
	await new Promise<void>((resolve, reject) => {
		let said = '';
		child.stderr.on('data', (chunk: Buffer) => {
			said += chunk.toString();
			if (/listening on port|running on port/i.test(said)) {
				resolve();
			}
		});
		child.once('exit', code => {
			reject(new Error(`server-everything ${mode} exited (${code}): ${said}`));
		});
	});
	return {port, stop: () => child.kill()};
}

describe('server-everything over HTTP', () => {
	it('streamable HTTP: ready with its tools, text and structured content as over stdio', async () => {
		const server = await httpEverything('streamableHttp');
		const opened = await openSession({cwd: workspace, mcp: {servers: readMcpServers({web: {type: 'http', url: `http://127.0.0.1:${server.port}/mcp`, allow: true}}, 'test config', false).entries, env: process.env, ask: true}});
		try {
			await opened.mcp!.settled();
			expect(opened.mcp!.status()[0]).toMatchObject({name: 'web', state: 'ready'});
			await opened.runtime.runCall('mcp__web__echo', {message: 'over http'}, {signal: new AbortController().signal});
			await opened.runtime.runCall('mcp__web__get-structured-content', {location: 'New York'}, {signal: new AbortController().signal});
			const [echo, structured] = cardsOf(opened.fold.entries);
			expect(echo!.result!.content).toEqual([{type: 'text', text: 'Echo: over http'}]);
			expect(body(structured!)).toContain('structured content (conforms to the output schema)');
		} finally {
			await opened.close();
			server.stop();
		}
	}, 30_000);

	it('an old SSE-only server named by its URL alone: streamable HTTP fails, the SSE transport is used', async () => {
		const server = await httpEverything('sse');
		const opened = await openSession({cwd: workspace, mcp: {servers: readMcpServers({old: {url: `http://127.0.0.1:${server.port}/sse`, allow: true}}, 'test config', false).entries, env: process.env, ask: true}});
		try {
			await opened.mcp!.settled();
			expect(opened.mcp!.status()[0]).toMatchObject({name: 'old', state: 'ready'});
			await opened.runtime.runCall('mcp__old__echo', {message: 'over sse'}, {signal: new AbortController().signal});
			expect(cardsOf(opened.fold.entries)[0]!.result!.content).toEqual([{type: 'text', text: 'Echo: over sse'}]);
		} finally {
			await opened.close();
			server.stop();
		}
	}, 30_000);
});
