import {mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../../cli/cli-io-fake.js';

const session = 'aaaaaaaa-0000-4000-8000-000000000000';
const base = {sessionId: session, cwd: '/work/p', version: '2.1.197', timestamp: '2026-12-01T10:00:00.000Z', isSidechain: false};
const user = (uuid: string, content: unknown) => JSON.stringify({...base, type: 'user', uuid, message: {role: 'user', content}});
const assistant = (uuid: string, content: unknown[]) => JSON.stringify({...base, type: 'assistant', uuid, message: {id: `msg-${uuid}`, role: 'assistant', content, usage: {input_tokens: 3, output_tokens: 2}}});

async function replay(lines: readonly string[], ...flags: string[]): Promise<{code: number; out: string; err: string}> {
	const dir = await mkdtemp(join(tmpdir(), 'cardterm-foreign-'));
	const path = join(dir, 'transcript.jsonl');
	await writeFile(path, lines.join('\n') + '\n');
	const io = fakeIo();
	const code = await main(['replay', '--print', ...flags, path], io);
	return {code, out: io.out(), err: io.err()};
}

describe('foreign session files that are damaged, hostile or newer', () => {
	it('reports a line that is not JSON at its line number and reads the rest', async () => {
		const {code, out, err} = await replay([
			user('u1', 'first question'),
			'{"type":"user", this is not json',
			assistant('a1', [{type: 'text', text: 'an answer after the damage'}]),
		]);
		expect(code).toBe(0);
		expect(err).toMatch(/transcript\.jsonl:2: /);
		expect(err).toMatch(/1 damaged line skipped/);
		expect(out).toContain('first question');
		expect(out).toContain('an answer after the damage');
	});

	it('names a record type it does not read, and shows what it can', async () => {
		const {out} = await replay([
			user('u1', 'hello'),
			JSON.stringify({...base, type: 'hologram', uuid: 'h1', payload: 1}),
			assistant('a1', [{type: 'text', text: 'still read'}]),
		]);
		expect(out).toContain('Claude Code record type "hologram" is not read by cardterm');
		expect(out).toContain('still read');
	});

	it('names a Claude Code version newer than those it has read, once', async () => {
		const newer = {...base, version: '3.0.1'};
		const {out} = await replay([
			JSON.stringify({...newer, type: 'user', uuid: 'u1', message: {role: 'user', content: 'from the future'}}),
			JSON.stringify({...newer, type: 'user', uuid: 'u2', message: {role: 'user', content: 'again'}}),
		]);
		expect(out.match(/Claude Code 3\.0\.1 is newer than the versions cardterm has read/g)).toHaveLength(1);
		expect(out).toContain('from the future');
	});

	it('names a Codex version newer than those it has read', async () => {
		const {out} = await replay([
			JSON.stringify({timestamp: '2026-12-01T10:00:00.000Z', type: 'session_meta', payload: {id: 'x', timestamp: '2026-12-01T10:00:00.000Z', cwd: '/p', cli_version: '9.3.0'}}),
			JSON.stringify({timestamp: '2026-12-01T10:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'hi there'}]}}),
		]);
		expect(out).toContain('Codex 9.3.0 is newer than the versions cardterm has read');
		expect(out).toContain('hi there');
	});

	it('writes no escape sequence of a hostile command, output or tool name to the terminal', async () => {
		const evil = '\u001B]52;c;cGF3bmVk\u0007\u001B[2J\u001B[31mred';
		const {out} = await replay([
			user('u1', `look ${evil}`),
			assistant('a1', [{type: 'tool_use', id: 't1', name: `Bash${evil}`, input: {command: `echo ${evil}`}}, {type: 'tool_use', id: 't2', name: 'Bash', input: {command: 'x'}}]),
			JSON.stringify({...base, type: 'user', uuid: 'u2', message: {role: 'user', content: [{type: 'tool_result', tool_use_id: 't1', content: evil}, {type: 'tool_result', tool_use_id: 't2', content: `Exit code 2\n${evil}`, is_error: true}]}, toolUseResult: {stdout: evil, stderr: ''}}),
		], '--no-color');
		expect(out).not.toContain('\u001B');
		expect(out).not.toContain('\u0007');
		expect(out).toContain('red');
	});

	it('never crashes on records of the wrong shapes', async () => {
		const {code, out} = await replay([
			user('u1', 'shapes'),
			JSON.stringify({...base, type: 'assistant', uuid: 'a1', message: {content: [null, 3, {type: 'tool_use'}, {type: 'tool_use', id: 7, name: null, input: 'str'}]}}),
			JSON.stringify({...base, type: 'user', uuid: 'u2', message: {content: [{type: 'tool_result'}, {type: 'tool_result', tool_use_id: 'zz', content: [1, {type: 'text'}]}]}, toolUseResult: [1, 2]}),
			JSON.stringify({...base, type: 'assistant', uuid: 'a2', message: 'nope'}),
			JSON.stringify([1, 2, 3]),
		]);
		expect(code).toBe(0);
		expect(out).toContain('shapes');
	});
	it('reads an opencode export saved on one line: a call the person rejected, one the person aborted, wrong shapes, a newer version', async () => {
		const part = (callID: string, tool: unknown, state: unknown): unknown => ({type: 'tool', tool, callID, state});
		const exported = {
			info: {id: 'ses_hostile', directory: '/p', title: 'hostile \u001b]0;title\u0007', version: '2.0.0', time: {created: 1}},
			messages: [
				{info: {role: 'user', time: {created: 2}}, parts: [{type: 'text', text: 'go'}, {type: 'text', text: 'added by opencode', synthetic: true}]},
				{info: {role: 'assistant', time: {created: 3}, tokens: {input: 'many', output: 4}}, parts: [
					part('c1', 'bash', {status: 'error', input: {command: 'rm -rf /'}, error: 'The user rejected permission to use this specific tool call.'}),
					part('c2', 'bash', {status: 'error', input: {command: 'sleep 9'}, error: 'Tool execution aborted'}),
					part('c3', 'evil\u001b[2Jtool', {status: 'completed', input: 'not an object', output: 7, metadata: null}),
					part('c4', 'read', null),
					'not a part',
				], error: {name: 'MessageAbortedError', data: {message: 'The operation was aborted.'}}},
				{info: null, parts: 5},
			],
		};
		const {code, out, err} = await replay([JSON.stringify(exported)]);
		expect(err).toBe('');
		expect(code).toBe(0);
		expect(out).not.toMatch(/\u001b[\][]/);
		expect(out).toContain('opencode 2.0.0 is newer than the versions cardterm has read');
		expect(out).toContain('go');
		expect(out).not.toContain('added by opencode');
		// Denied (an approval answered no), cancelled, the hostile name shown escaped, the null state's call left open.
		expect(out).toContain('✗ bash rm -rf / · approval');
		expect(out).toContain('⊘ bash sleep 9');
		expect(out).toContain('evil\\x1b[2Jtool');
		expect(out).toContain('◌ read');
		expect(out).toContain('opencode message role undefined is not read by cardterm');
	});
});
