/**
Instruction files of folders the agent first works in (issue 31): a real session, the real agent
(sessionAgent) and the fake model server. When the model reads a file two folders below the working
directory, those folders' AGENTS.md / CLAUDE.md go to the model in its next request as one message
(recorded in the log), each once; a hidden folder's, node_modules' and a folder outside the working
directory's are never read; `/instructions` (the agent's `instructions()`) lists them.
*/
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {resolveModel} from '../../src/agent/model-client.js';
import {openSession} from '../../src/host/open-session.js';
import {sessionAgent} from '../../src/host/session-agent.js';
import {instructionsReport} from '../../src/live/commands/instructions.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {startFakeModelServer} from '../fixtures/fake-model-server.mjs';

let base = '';
let work = '';

async function put(path: string, text: string): Promise<void> {
	await mkdir(dirname(path), {recursive: true});
	await writeFile(path, text);
}

beforeEach(async () => {
	base = await mkdtemp(join(tmpdir(), 'cardterm-nested-instructions-'));
	work = join(base, 'repo');
	await mkdir(join(work, '.git'), {recursive: true});
	await put(join(work, 'AGENTS.md'), 'ROOT-LEVEL\n');
	await put(join(work, 'sub', 'AGENTS.md'), 'SUB-LEVEL: see @notes.md\n');
	await put(join(work, 'sub', 'notes.md'), 'SUB-IMPORT\n');
	await put(join(work, 'sub', 'deep', 'CLAUDE.md'), 'DEEP-LEVEL\n');
	await put(join(work, 'sub', 'deep', 'file.txt'), 'content\n');
	await put(join(work, 'node_modules', 'pkg', 'AGENTS.md'), 'DEPENDENCY\n');
	await put(join(work, 'node_modules', 'pkg', 'index.js'), 'x\n');
	await put(join(work, '.hidden', 'AGENTS.md'), 'HIDDEN\n');
	await put(join(work, '.hidden', 'a.txt'), 'x\n');
});

afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

describe('nested instruction files', () => {
	it('go to the model in the request after the call that first touched their folder, once, with their imports', async () => {
		const read = (id: string, path: string) => ({id, name: 'read', args: JSON.stringify({file_path: path})});
		const server = await startFakeModelServer({script: [
			{toolCalls: [read('c1', 'sub/deep/file.txt'), read('c2', 'node_modules/pkg/index.js'), read('c3', '.hidden/a.txt')]},
			{toolCalls: [read('c4', 'sub/deep/file.txt')]},
			{text: 'Done.'},
		]});
		const session = await openSession({cwd: work, id: 'nested'});
		const resolved = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		const agent = await sessionAgent(session, {cwd: work, model: resolved, env: {XDG_CONFIG_HOME: join(base, 'config')}});
		try {
			await agent.loop.runTurn('look around', {signal: new AbortController().signal});
			const [first, second, third] = server.requests.map(request => request.body.messages as Array<{role: string; content: unknown}>);
			const nested = (messages: Array<{role: string; content: unknown}>) => messages.filter(message => message.role === 'user' && JSON.stringify(message.content).includes('More instruction files'));
			expect(String(first![0]!.content)).toContain('ROOT-LEVEL');
			expect(nested(first!)).toHaveLength(0);
			expect(nested(second!)).toHaveLength(1);
			const note = JSON.stringify(nested(second!)[0]!.content);
			const order = ['SUB-LEVEL', 'SUB-IMPORT', 'DEEP-LEVEL'].map(marker => note.indexOf(marker));
			expect(order.every(position => position > 0)).toBe(true);
			expect(order).toEqual([...order].sort((a, b) => a - b));
			expect(note).toContain('sub/, sub/deep/');
			expect(note).not.toContain('DEPENDENCY');
			expect(note).not.toContain('HIDDEN');
			// Read once: the second touch of the folder adds nothing.
			expect(nested(third!)).toHaveLength(1);
			const report = instructionsReport(agent.instructions()!, work);
			expect(report).toContain('sub/AGENTS.md  read when the agent first worked in its folder');
			expect(report).toContain('sub/deep/CLAUDE.md  read when the agent first worked in its folder');
			expect(report).toContain('sub/notes.md  imported by sub/AGENTS.md');
			// The transcript shows it as a notice from "instructions"; the log keeps the message.
			expect(session.fold.entries.filter(entry => entry.entry === 'notice' && entry.source === 'instructions')).toHaveLength(1);
		} finally {
			agent.dispose();
			await session.close();
			await server.close();
		}
	});

	it('are not told again in a continued session whose log told them, and /instructions still lists them', async () => {
		const server = await startFakeModelServer({script: [
			{toolCalls: [{id: 'c1', name: 'read', args: JSON.stringify({file_path: 'sub/deep/file.txt'})}]},
			{text: 'Done.'},
		]});
		const told = {seq: 0, time: 0, type: 'user/message', data: {id: 'u-1.2.1', role: 'user', content: [{type: 'text', text: 'More instruction files…'}], source: {kind: 'instructions', paths: [join(work, 'sub', 'AGENTS.md'), join(work, 'sub', 'notes.md'), join(work, 'sub', 'deep', 'CLAUDE.md')]}}} as const;
		const session = await openSession({cwd: work, id: 'nested-continued'});
		const agent = await sessionAgent(session, {cwd: work, model: resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}}), env: {XDG_CONFIG_HOME: join(base, 'config')}, history: [told as unknown as SessionEvent]});
		try {
			expect(instructionsReport(agent.instructions()!, work)).toContain('sub/deep/CLAUDE.md  read when the agent first worked in its folder');
			await agent.loop.runTurn('again', {signal: new AbortController().signal});
			const requests = server.requests.map(request => JSON.stringify(request.body.messages));
			expect(requests).toHaveLength(2);
			// The system prompt does not hold them either: only the log's message does.
			expect(requests.filter(text => text.includes('DEEP-LEVEL'))).toHaveLength(0);
		} finally {
			agent.dispose();
			await session.close();
			await server.close();
		}
	});
});
