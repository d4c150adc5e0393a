/**
Images in the person's message (issue 31): `cardterm -p --image FILE` against the strict fake
provider of each wire, which checks an image part as the real one does (its type, its base64, that
the bytes are the type named). The request body holds the image; `--continue` sends it again from
the session's side file; a model that takes text only refuses before anything is sent; the log holds
a reference, never the bytes.
*/
import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {Conversation} from '../../src/agent/conversation.js';
import {toPrompt, type Wire} from '../../src/agent/model-client.js';
import {main} from '../../src/cli/main.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {EventScript} from '../session/fold-events.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {pngImage} from '../fixtures/images.js';
import {startProviderServer, type ProviderAnswer, type ProviderServer} from '../fixtures/wire/provider-server.mjs';

let workspace: string;
let sessions: string;
let config: string;
const png = pngImage(64, 40);
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-images-'));
	sessions = await mkdtemp(join(tmpdir(), 'cardterm-images-sessions-'));
	config = await mkdtemp(join(tmpdir(), 'cardterm-images-config-'));
	await writeFile(join(workspace, 'shot.png'), png);
});
afterEach(async () => {
	for (const dir of [workspace, sessions, config]) {
		await rm(dir, {recursive: true, force: true});
	}
});

const keys = {OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k', DEEPSEEK_API_KEY: 'k'};

async function runP(script: ProviderAnswer[], model: string, prefix: string, extra: string[]): Promise<{code: number; out: string; err: string; server: ProviderServer}> {
	const server = await startProviderServer({script});
	const io = fakeIo({cwd: workspace, env: {...keys, XDG_CONFIG_HOME: config}});
	try {
		const code = await main(['-p', 'What is on the screen?', '--model', model, '--base-url', `${server.url}${prefix}`, '--session-dir', sessions, '--json', ...extra], io);
		return {code, out: io.out(), err: io.err(), server};
	} finally {
		await server.close();
	}
}

const entries = (out: string): Array<Record<string, any>> => out.trimEnd().split('\n').map(line => JSON.parse(line) as Record<string, any>);
const base64 = png.toString('base64');

/** The one session folder's log lines and its attachments. */
async function sessionFiles(): Promise<{log: string; attachments: string[]}> {
	const [id] = await readdir(sessions);
	const folder = join(sessions, id!);
	return {log: await readFile(join(folder, 'session.jsonl'), 'utf8'), attachments: await readdir(join(folder, 'attachments'))};
}

describe('an attached image reaches the model as each wire\'s image part', () => {
	const wires: Array<{name: string; model: string; prefix: string; image: (body: any) => unknown; expected: unknown}> = [
		{name: 'OpenAI Chat Completions', model: 'openai:gpt-4.1', prefix: '/v1', image: body => body.messages.at(-1).content, expected: [{type: 'text', text: 'What is on the screen?'}, {type: 'image_url', image_url: {url: `data:image/png;base64,${base64}`}}]},
		{name: 'an OpenAI-compatible server (a model cardterm does not know: sent)', model: 'llava-local', prefix: '/v1', image: body => body.messages.at(-1).content, expected: [{type: 'text', text: 'What is on the screen?'}, {type: 'image_url', image_url: {url: `data:image/png;base64,${base64}`}}]},
		{name: 'Anthropic Messages', model: 'anthropic:claude-sonnet-4-5', prefix: '/v1', image: body => body.messages.at(-1).content.map(({cache_control: _mark, ...block}: any) => block), expected: [{type: 'text', text: 'What is on the screen?'}, {type: 'image', source: {type: 'base64', media_type: 'image/png', data: base64}}]},
		{name: 'Gemini', model: 'google:gemini-2.5-flash', prefix: '/v1beta', image: body => body.contents.at(-1).parts, expected: [{text: 'What is on the screen?'}, {inlineData: {mimeType: 'image/png', data: base64}}]},
	];

	for (const wire of wires) {
		it(`${wire.name}: the request holds the image; --continue sends it again from the side file`, async () => {
			const first = await runP([{text: 'A grey rectangle.'}], wire.model, wire.prefix, ['--image', 'shot.png']);
			expect(first.server.refusals).toEqual([]);
			expect(first.code).toBe(0);
			expect(wire.image(first.server.requests[0]!.body)).toEqual(wire.expected);
			const user = entries(first.out).find(entry => entry.entry === 'user')!;
			expect(user.images).toEqual([{attachmentId: expect.stringMatching(/^[\da-f]{16}\.png$/), mediaType: 'image/png', bytes: png.length, width: 64, height: 40, name: 'shot.png'}]);

			// The log refers to the side file; the bytes are there, not in a line.
			const {log, attachments} = await sessionFiles();
			expect(attachments).toEqual([user.images[0].attachmentId]);
			expect(log).not.toContain(base64.slice(0, 40));

			// A replay shows the row the live session showed.
			const [id] = await readdir(sessions);
			const replayed = fakeIo({cwd: workspace, env: {}});
			expect(await main(['replay', join(sessions, id!, 'session.jsonl'), '--print', '--width', '80', '--no-color'], replayed)).toBe(0);
			expect(replayed.out()).toContain(`› What is on the screen?\n  image · PNG · ${png.length} B · 64×40 · shot.png`);

			const next = await runP([{text: 'Still grey.'}], wire.model, wire.prefix, ['--continue']);
			expect(next.server.refusals).toEqual([]);
			expect(next.code).toBe(0);
			expect(JSON.stringify(next.server.requests[0]!.body)).toContain(base64);
		}, 30_000);
	}
});

describe('a model that takes text only, and images that are not', () => {
	it('DeepSeek: refused before anything is sent, with a line that says what to do (exit 2); the fake refuses an image part as DeepSeek does', async () => {
		const refused = await runP([{text: 'never'}], 'deepseek:deepseek-chat', '/v1', ['--image', 'shot.png']);
		expect(refused.code).toBe(2);
		expect(refused.err).toContain('deepseek:deepseek-chat takes no images: the message was not sent');
		expect(refused.server.requests).toEqual([]);

		// What DeepSeek says when an image part reaches it: the fake is as strict.
		const server = await startProviderServer({script: [{text: 'never'}]});
		try {
			const response = await fetch(`${server.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model: 'deepseek-chat', stream: true, messages: [{role: 'user', content: [{type: 'text', text: 'hi'}, {type: 'image_url', image_url: {url: `data:image/png;base64,${base64}`}}]}]})});
			expect(response.status).toBe(400);
			expect(await response.text()).toContain('unknown variant `image_url`, expected `text`');
		} finally {
			await server.close();
		}
	}, 30_000);

	it('a file that is no image, or too large, is refused with its name; nothing is sent', async () => {
		await writeFile(join(workspace, 'notes.png'), 'text, not pixels\n');
		const result = await runP([{text: 'never'}], 'openai:gpt-4.1', '/v1', ['--image', 'notes.png']);
		expect(result.code).toBe(2);
		expect(result.err).toContain('--image: notes.png is not a PNG, JPEG, GIF or WebP image (read from its bytes)');
		expect(result.server.requests).toEqual([]);
	}, 30_000);

	it('the fakes refuse an image whose bytes are not the type named, as the providers do', async () => {
		const server = await startProviderServer({script: [{text: 'never'}]});
		try {
			const response = await fetch(`${server.url}/v1/messages`, {method: 'POST', headers: {'content-type': 'application/json', 'x-api-key': 'k'}, body: JSON.stringify({model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{role: 'user', content: [{type: 'image', source: {type: 'base64', media_type: 'image/jpeg', data: base64}}]}]})});
			expect(response.status).toBe(400);
			expect(await response.text()).toContain('Image does not match the provided media type image/jpeg');
		} finally {
			await server.close();
		}
	});
});

describe('an image a tool returned (an MCP tool\'s result), through the same part builder', () => {
	const attachment = {attachmentId: '0123456789abcdef.png', mediaType: 'image/png', bytes: png.length, width: 64, height: 40, name: 'get-tiny-image-1'};
	function events(): SessionEvent[] {
		const script = new EventScript();
		script.push('turn/start', {turn: 1});
		script.push('user/message', {role: 'user', content: [{type: 'text', text: 'show me the logo'}], source: {kind: 'user'}}, {surfaceOp: 'append'});
		script.push('assistant/message', {turn: 1, step: 1, message: {role: 'assistant', content: [{type: 'tool-call', id: 'c1', name: 'mcp__everything__get-tiny-image', arguments: '{}'}]}}, {surfaceOp: 'append'});
		script.call('c1', 'mcp__everything__get-tiny-image', {});
		script.push('tool/result', {turn: 1, step: 1, message: {role: 'user', source: {kind: 'tool', callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', isError: false, content: [{type: 'text', text: 'image · image/png · saved /x.png'}, {type: 'image', attachment}]}]}}, {surfaceOp: 'append'});
		return script.events;
	}

	const promptOf = (wire: Wire, images = true, file: 'kept' | 'gone' = 'kept'): any[] => {
		const conversation = new Conversation({images: () => file === 'kept' ? png : undefined});
		for (const event of events()) {
			conversation.apply(event);
		}

		return toPrompt('system', conversation.messages(), wire, images) as any[];
	};

	const resultOf = (prompt: any[]): any => prompt.at(-1).content[0];

	it('goes as an image part of the tool result on Anthropic, Gemini and the Responses API; the text stays', () => {
		for (const wire of ['anthropic', 'google', 'openai-responses'] as const) {
			expect(resultOf(promptOf(wire)).output).toEqual({type: 'content', value: [{type: 'text', text: 'image · image/png · saved /x.png'}, {type: 'image-data', data: base64, mediaType: 'image/png'}]});
		}
	});

	it('stays text on Chat Completions (its tool messages take text only), for a model that takes no images, and when its file is gone', () => {
		expect(resultOf(promptOf('compatible')).output).toEqual({type: 'text', value: 'image · image/png · saved /x.png'});
		expect(resultOf(promptOf('anthropic', false)).output).toEqual({type: 'text', value: 'image · image/png · saved /x.png'});
		expect(resultOf(promptOf('anthropic', true, 'gone')).output).toEqual({type: 'text', value: 'image · image/png · saved /x.png'});
	});
});
