/**
The question about a project's MCP servers before the interactive session starts (issue 18): it
lists what each would run, with the endpoint question's rules (keys typed before it are not
answers; "no" first; ↓ Enter allows and remembers; Ctrl+C quits); the servers allowed start, those
refused are listed as waiting; the person's own servers need no question. Escapes in a hostile
`.mcp.json` reach the terminal as visible text only.
*/
import {EventEmitter} from 'node:events';
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {QuestionInput} from '../../../src/cli/interactive/endpoint-question.js';
import {chooseMcpServers} from '../../../src/cli/interactive/mcp-setup.js';
import {loadConfig} from '../../../src/config/load-config.js';

const down = '\u001B[B';
let base = '';
let project = '';
let env: NodeJS.ProcessEnv = {};

beforeEach(async () => {
	base = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-setup-')));
	project = join(base, 'project');
	await mkdir(project);
	env = {XDG_CONFIG_HOME: join(base, 'config'), XDG_DATA_HOME: join(base, 'data')};
	await writeFile(join(project, '.mcp.json'), JSON.stringify({mcpServers: {theirs: {command: 'run-\u001B]0;pwned\u0007-it', args: ['--x']}}}));
	await mkdir(join(base, 'config', 'cardterm'), {recursive: true});
	await writeFile(join(base, 'config', 'cardterm', 'config.json'), JSON.stringify({mcpServers: {mine: {command: 'mine'}}}));
});

afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

function fakeInput(buffered: string[]): QuestionInput & {arrive(text: string): void} {
	const events = new EventEmitter();
	const queue = buffered.map(text => Buffer.from(text));
	return {
		on: (event, listener) => events.on(event, listener),
		off: (event, listener) => events.off(event, listener),
		read: () => queue.shift() ?? null,
		unshift() {},
		arrive(text) {
			queue.push(Buffer.from(text));
			events.emit('readable');
		},
	};
}

async function ask(keys: string): Promise<{choice: Awaited<ReturnType<typeof chooseMcpServers>>; written: string}> {
	const config = await loadConfig(project, env);
	const written: string[] = [];
	const input = fakeInput(['typed ahead\r']);
	const io = {env, columns: 80, write: async (text: unknown) => void written.push(String(text)), printError: async (text: string) => void written.push(text)};
	const chosen = chooseMcpServers(config, io, {yolo: false, ask: {stdin: input, above: async text => void written.push(text), signal: new AbortController().signal}});
	await new Promise(resolve => {
		setTimeout(resolve, 20);
	});
	input.arrive(keys);
	return {choice: await chosen, written: written.join('')};
}

describe('the MCP servers\' question', () => {
	it('Enter says no: the project\'s server waits, the person\'s starts; keys typed before are not answers', async () => {
		const {choice, written} = await ask('\r');
		expect(choice?.servers.map(entry => entry.name)).toEqual(['mine']);
		expect(choice?.unconsented.map(entry => entry.name)).toEqual(['theirs']);
		expect(written).toContain('This project\'s files name MCP servers that cardterm would start:');
		expect(written).toContain(`(${join(project, '.mcp.json')})`);
		// The file's escape sequence is shown as text: no OSC, no BEL reaches the terminal.
		expect(written).toContain('theirs: run-');
		expect(written).not.toContain('\u001B]');
		expect(written).not.toContain('\u0007');
	});

	it('↓ Enter allows and remembers: the next session asks nothing', async () => {
		const {choice} = await ask(`${down}\r`);
		expect(choice?.servers.map(entry => entry.name)).toEqual(['mine', 'theirs']);
		const again = await chooseMcpServers(await loadConfig(project, env), {env, columns: 80, write: async () => undefined, printError: async () => undefined}, {yolo: false});
		expect(again).toEqual({servers: expect.arrayContaining([expect.objectContaining({name: 'theirs'})]), unconsented: []});
	});

	it('Ctrl+C quits before anything starts', async () => {
		const {choice} = await ask('\u0003');
		expect(choice).toBeUndefined();
	});
});
