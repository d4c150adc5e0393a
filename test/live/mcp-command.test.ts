/**
`/mcp` in a live session over real MCP servers (the hostile test server over stdio): each server's
state, tools and why a tool was skipped; `/mcp reconnect NAME`; a dead server named in the status
line; and the command is offered only where the session has servers.
*/
import {mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {lineText} from '../../src/layout/text/spans.js';
import type {LiveSession} from '../../src/live/live-session.js';
import {liveSessionFor, until} from './live-session-harness.js';

const HOSTILE_SERVER = fileURLToPath(new URL('../host/fixtures/hostile-mcp-server.mjs', import.meta.url));
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) {
		await cleanup();
	}
});

async function live(config: Record<string, unknown>, settle = true): Promise<{session: OpenedSession; screen: LiveSession; said: () => string[]}> {
	const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-command-')));
	cleanups.push(async () => rm(workspace, {recursive: true, force: true}));
	const session = await openSession({cwd: workspace, mcp: {servers: readMcpServers(config, 'the config', false).entries, env: process.env, ask: true}});
	const screen = liveSessionFor(session);
	cleanups.push(async () => screen.close());
	const written: ScrollbackEntry[] = [];
	screen.onScrollback(entry => written.push(entry));
	if (settle) {
		await session.mcp!.settled();
	}

	return {session, screen, said: () => written.flatMap(entry => entry.kind === 'lines' ? [entry.lines.map(line => lineText(line)).join('\n')] : [])};
}

describe('/mcp', () => {
	it('lists each server with its state, its tools, what was skipped and why; a failed one is named in the status line', async () => {
		const {screen, said} = await live({
			tools: {command: process.execPath, args: [HOSTILE_SERVER, '--bad-schema']},
			stuck: {command: process.execPath, args: [HOSTILE_SERVER, '--hang-initialize'], startupTimeoutMs: 300},
		});
		expect(screen.getSnapshot().problem).toBe('MCP server stuck failed (/mcp)');
		screen.submit('/mcp');
		await until(() => said().some(text => text.includes('MCP servers (2)')));
		const text = said().find(each => each.includes('MCP servers (2)'))!;
		expect(text).toMatch(/tools · ready, 7 tools · .*hostile-mcp-server\.mjs --bad-schema/);
		expect(text).toContain('skipped broken: its input schema does not compile');
		expect(text).toContain('stuck · failed: did not finish initialize within 0.3 s');
		expect(text).toContain('from the config · hostile 0.0.1');
	});

	it('a server still connecting after 5 s is named in the status line, without holding the session', async () => {
		const {screen} = await live({slow: {command: process.execPath, args: [HOSTILE_SERVER, '--hang-initialize'], startupTimeoutMs: 20_000}}, false);
		expect(screen.getSnapshot().problem).toBeUndefined();
		await until(() => screen.getSnapshot().problem !== undefined);
		expect(screen.getSnapshot().problem).toBe('MCP slow still connecting (/mcp)');
	}, 15_000);

	it('reconnect NAME connects it again; an unknown name is said with the servers there are', async () => {
		const {session, screen, said} = await live({tools: {command: process.execPath, args: [HOSTILE_SERVER]}});
		const before = session.registry.get('mcp__tools__echo');
		screen.submit('/mcp reconnect tools');
		await until(() => said().some(text => text.includes('reconnected')));
		expect(said()).toContain('MCP server "tools" reconnected: 6 tools');
		expect(session.registry.get('mcp__tools__echo')).toBeDefined();
		expect(session.registry.get('mcp__tools__echo')).not.toBe(before);
		screen.submit('/mcp reconnect nope');
		await until(() => said().some(text => text.includes('no MCP server "nope"')));
		expect(said().at(-1)).toBe('no MCP server "nope" (the servers: tools)');
	});

	it('is not offered in a session without MCP servers', async () => {
		const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-command-')));
		cleanups.push(async () => rm(workspace, {recursive: true, force: true}));
		const session = await openSession({cwd: workspace});
		const screen = liveSessionFor(session);
		cleanups.push(async () => screen.close());
		const written: ScrollbackEntry[] = [];
		screen.onScrollback(entry => written.push(entry));
		screen.submit('/mcp');
		await until(() => written.length > 0);
		expect(written.flatMap(entry => entry.kind === 'lines' ? entry.lines.map(line => lineText(line)) : [])).toEqual(['unknown command: /mcp (type /help)']);
		expect(session.mcp).toBeUndefined();
	});
});
