import {promptHintOf} from '../../components/prompt-hint.js';
import {scrollbackOutput} from '../../components/scrollback-output.js';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {statusText} from '../../components/StatusLine.js';
import {resolveModel} from '../../src/agent/model-client.js';
import {AGENT_ASK_RULES} from '../../src/cli/interactive/agent-setup.js';
import {ruleQuestion} from '../../src/config/approval-rules.js';
import {realpathDeep} from '../../src/builtin/workspace/workspace-guard.js';
import {modelPrompt} from '../../src/live/native-lines.js';
import {openInteractiveSession} from '../../src/cli/interactive/open-interactive-session.js';
import {resumeTarget} from '../../src/cli/interactive/resume-target.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {monochromeTheme} from '../../src/layout/text/theme.js';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {LONG_ANSWER_FINDINGS, LONG_ANSWER_LAST, longAnswer} from '../fixtures/long-answer.mjs';

let workspace: string;
let root: string;
let server: FakeModelServer | undefined;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-ia-'));
	root = await mkdtemp(join(tmpdir(), 'cardterm-ia-root-'));
	await writeFile(join(workspace, 'a.txt'), 'alpha\n');
});
afterEach(async () => {
	await server?.close();
	server = undefined;
	await rm(workspace, {recursive: true, force: true});
	await rm(root, {recursive: true, force: true});
});

/** Resolves once `predicate` holds for what reached the scrollback. */
function scrollbackUntil(controller: {onScrollback(listener: (entry: ScrollbackEntry) => void): () => void}, predicate: (seen: ScrollbackEntry[]) => boolean): {seen: ScrollbackEntry[]; done: Promise<void>} {
	const seen: ScrollbackEntry[] = [];
	const done = new Promise<void>(resolve => {
		controller.onScrollback(entry => {
			seen.push(entry);
			if (predicate(seen)) {
				resolve();
			}
		});
	});
	return {seen, done};
}

const lineText = (entry: ScrollbackEntry): string => entry.kind === 'lines' ? entry.lines.map(line => line.spans.map(span => span.text).join('')).join('\n') : '';

describe('the model\'s window in the interactive session', () => {
	it('shows the meter against the configured window, /context breaks it down, /compact makes a compaction card', async () => {
		await writeFile(join(workspace, 'big.txt'), Array.from({length: 300}, (_, line) => `row ${line} of the big file`).join('\n'));
		const read = (id: string) => ({toolCalls: [{id, name: 'read', args: '{"file_path":"big.txt"}'}], usage: {prompt_tokens: 900, completion_tokens: 10}});
		server = await startFakeModelServer({script: [read('c1'), {text: 'Read it.'}, read('c2'), {text: 'Read it again.'}, {text: '## Goal\nRead big.txt.\n## Next steps\nNone.'}]});
		const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-window', agent: {model, from: '--model', context: {windows: {'fake-model': 40_000}, compaction: false}}});
		for (const prompt of ['read big.txt', 'read it again']) {
			const turn = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
			controller.submit(prompt);
			await turn.done;
		}

		expect(controller.getSnapshot().context).toMatch(/^\d+% · \d+(?:k)?\/40k$/);
		const report = scrollbackUntil(controller, seen => seen.some(entry => lineText(entry).startsWith('context:')));
		controller.submit('/context');
		await report.done;
		const text = report.seen.map(entry => lineText(entry)).join('\n');
		expect(text).toContain('window: 40k tokens (from the config); compaction is off');
		expect(text).toMatch(/tool results +\d/);
		expect(text).toMatch(/#\d+ read result · /);
		expect(text).toContain('largest messages (by log seq; /#SEQ in the pager, Ctrl+O, goes to one):');

		const compacted = scrollbackUntil(controller, seen => seen.some(entry => lineText(entry).startsWith('compacted:')));
		controller.submit('/compact the big file');
		await compacted.done;
		const card = compacted.seen.find(entry => entry.kind === 'entry' && entry.entry.entry === 'compaction');
		expect(card?.kind === 'entry' && card.entry.entry === 'compaction' && [card.entry.trigger, card.entry.focus, card.entry.summary]).toEqual(['manual', 'the big file', '## Goal\nRead big.txt.\n## Next steps\nNone.']);
		expect(server.requests.at(-1)!.body.messages[0]!.content).toMatch(/^You write the summary/);
		await controller.close();
	}, 30_000);
});

describe('/model and the window', () => {
	it('/model X re-reads the window: the config\'s figure for X, else the catalog\'s; the meter, /context and the tool results\' budget use it', async () => {
		// 30 000 characters (7 500 tokens): whole within a 40k window's budget (10k a result), cut within a 16k one's (4k).
		await writeFile(join(workspace, 'big.txt'), Array.from({length: 1000}, (_, line) => `line ${String(line).padStart(4, '0')} of the big file.....`).join('\n'));
		server = await startFakeModelServer({script: [{text: 'First.', usage: {prompt_tokens: 8000, completion_tokens: 5}}, {toolCalls: [{id: 'r1', name: 'read', args: '{"file_path":"big.txt"}'}], usage: {prompt_tokens: 8000, completion_tokens: 5}}, {text: 'Read.', usage: {prompt_tokens: 8000, completion_tokens: 5}}]});
		const resolve = (spec: string) => (spec.includes(':') ? resolveModel({spec, env: {OPENAI_API_KEY: 'test'}}) : resolveModel({spec, baseUrl: server!.url, env: {}}));
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-window-switch', agent: {model: resolve('fake-model'), from: '--model', resolve, context: {windows: {'fake-model': 40_000, 'small-model': 16_000}}}});
		const first = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('hello');
		await first.done;
		expect(controller.getSnapshot().context).toMatch(/^\d+% · \d+k\/40k$/);
		const report = async (): Promise<string> => {
			const said = scrollbackUntil(controller, seen => seen.some(entry => lineText(entry).startsWith('context:')));
			controller.submit('/context');
			await said.done;
			return said.seen.map(entry => lineText(entry)).join('\n');
		};

		// The config names a smaller window for the other model: the meter and the threshold follow it.
		const switched = scrollbackUntil(controller, seen => seen.some(entry => lineText(entry).startsWith('model: ')));
		controller.submit('/model small-model');
		await switched.done;
		expect(await report()).toContain('window: 16k tokens (from the config); compacts past 13k');
		expect(controller.getSnapshot().context).toMatch(/^\d+% · \d+k\/16k$/);
		// Tool results are bounded for the new window too.
		const read = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('read big.txt');
		await read.done;
		const sent = server.requests.at(-1)!.body.messages.find(message => message.role === 'tool') as {content: string} | undefined;
		expect(sent?.content).toContain('left out here to fit the context budget');
		expect(sent!.content.length).toBeLessThan(20_000);
		// A model the config does not name takes the catalog's window, not the config's figure for the one before.
		const catalog = scrollbackUntil(controller, seen => seen.some(entry => lineText(entry).startsWith('model: ')));
		controller.submit('/model openai:gpt-4o');
		await catalog.done;
		expect(await report()).toContain('window: 128k tokens (from the catalog); compacts past 102k');
		await controller.close();
	}, 30_000);
});

describe('the interactive session with a model', () => {
	it('sends a prompt line that is not a command to the model; commands still run; the status line and /model name the model', async () => {
		server = await startFakeModelServer({script: [{toolCalls: [{id: 'c', name: 'read', args: '{"file_path":"a.txt"}'}]}, {text: 'It holds alpha.'}]});
		const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-agent', agent: {model, from: '--model'}});
		const turnDone = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		expect(controller.getSnapshot().model).toBe('openai-compatible:fake-model');
		expect(promptHintOf(controller.getSnapshot())).toBe('ask the model, or type !command, /help');
		// The meter: a model the catalog does not know has no window, so it counts tokens alone.
		expect(controller.getSnapshot().context).toMatch(/^\d+(?:k)? tokens$/);
		expect(statusText({cwd: workspace, sessionId: 's-agent', snapshot: controller.getSnapshot(), width: 200})).toBe(`openai-compatible:fake-model · ${controller.getSnapshot().context!} · ${workspace} · s-agent`);
		controller.submit('read a.txt and tell me');
		await turnDone.done;
		expect(turnDone.seen.filter(entry => entry.kind === 'entry').map(entry => entry.kind === 'entry' && entry.entry.entry)).toEqual(['user', 'card', 'assistant', 'turn']);
		expect(server.requests[0]!.body.messages.at(-1)).toEqual({role: 'user', content: 'read a.txt and tell me'});

		const shown = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'card'));
		controller.submit('/model');
		controller.submit('read {"file_path":"a.txt"}');
		await shown.done;
		expect(lineText(shown.seen[0]!)).toContain('model: openai-compatible:fake-model (from --model)');
		expect(server.requests).toHaveLength(2);
		await controller.close();
	}, 30_000);

	it('/model SPEC switches the model for the next message and keeps the conversation; a spec that cannot be used keeps the model', async () => {
		server = await startFakeModelServer({script: [{text: 'First.'}, {text: 'Second.'}]});
		// A bare name is a model of the fake server; a provider's spec resolves as --model would (here without its key).
		const resolve = (spec: string) => (spec.includes(':') ? resolveModel({spec, env: {}}) : resolveModel({spec, baseUrl: server!.url, env: {}}));
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-switch', agent: {model: resolve('fake-model'), from: '--model', resolve}});
		const first = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('hello');
		await first.done;
		const said = scrollbackUntil(controller, seen => seen.length >= 3);
		controller.submit('/model other-model');
		controller.submit('/model anthropic:claude-x');
		controller.submit('/model');
		await said.done;
		expect(said.seen.map(lineText)).toEqual([
			'model: openai-compatible:other-model from the next message on (the conversation is kept)',
			expect.stringMatching(/^\/model: .*still openai-compatible:other-model$/u),
			'model: openai-compatible:other-model (from /model); /model PROVIDER:MODEL switches for the next message',
		]);
		expect(controller.getSnapshot().model).toBe('openai-compatible:other-model');
		const second = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('again');
		await second.done;
		expect(server.requests.map(request => request.body.model)).toEqual(['fake-model', 'other-model']);
		// The second request carries the first exchange: the conversation was kept.
		expect(server.requests[1]!.body.messages.filter(message => message.role === 'user').map(message => message.content)).toEqual(['hello', 'again']);
		await controller.close();
	}, 30_000);

	it('writes a long answer into the scrollback whole, its last line included (issue 16 item 1: it was cut at 24 rows)', async () => {
		server = await startFakeModelServer({script: [{text: longAnswer().split(/(?<=\n)/)}]});
		const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-long', agent: {model, from: '--model'}});
		const turnDone = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('what did you find?');
		await turnDone.done;
		const answer = turnDone.seen.find(entry => entry.kind === 'entry' && entry.entry.entry === 'assistant')!;
		// What the live app writes for it (InteractiveApp's renderScrollback), at 100 columns.
		const written = String(scrollbackOutput(answer, {theme: monochromeTheme, color: false, depth: 'none', hyperlinks: false, sessionCwd: workspace}, {width: 100, rows: 30, now: Date.now()}));
		for (let index = 1; index <= LONG_ANSWER_FINDINGS; index++) {
			expect(written).toContain(`Finding ${index}: src/module-${index}.ts`);
		}

		expect(written).toContain(LONG_ANSWER_LAST);
		expect(written).not.toMatch(/more lines?/u);
		await controller.close();
	}, 30_000);

	it('without a model stays in command mode and says how to connect one', async () => {
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-none', agent: {none: 'no model: pass --model PROVIDER:MODEL'}});
		expect(controller.getSnapshot().model).toBe('no model (see /model)');
		expect(promptHintOf(controller.getSnapshot())).toBe('type !command, /help, or TOOL {json}');
		const said = scrollbackUntil(controller, seen => seen.length >= 2);
		controller.submit('/model');
		controller.submit('hello there');
		await said.done;
		expect(said.seen.map(lineText)).toEqual([expect.stringContaining('no model: pass --model PROVIDER:MODEL'), 'not sent: no model is connected to answer "hello there"\nno model: pass --model PROVIDER:MODEL']);
		await controller.close();
	});

	it('/model PROVIDER:MODEL connects a model to a session started without one: it becomes an agent session from the next message', async () => {
		server = await startFakeModelServer({script: [{text: 'Connected and answering.'}, {toolCalls: [{id: 'w', name: 'bash', args: '{"command":"echo hi","description":"hi"}'}]}, {text: 'Not run, then.'}, {status: 401, error: 'Incorrect API key provided'}]});
		const resolve = (spec: string) => (spec.includes(':') ? resolveModel({spec, env: {}}) : resolveModel({spec, baseUrl: server!.url, env: {}}));
		const {controller} = await openInteractiveSession({root, cwd: workspace, id: 's-connect', agent: {none: 'no model: pass --model PROVIDER:MODEL', connect: {resolve}}});
		const status = () => statusText({cwd: workspace, sessionId: 's-connect', snapshot: controller.getSnapshot(), width: 200});
		expect(status()).toBe(`no model (see /model) · ${workspace} · s-connect`);
		const said = scrollbackUntil(controller, seen => seen.length >= 4);
		controller.submit('/model');
		controller.submit('/model nosuch:thing');
		controller.submit('/model anthropic:claude-x');
		controller.submit('/model fake-model');
		await said.done;
		expect(said.seen.map(lineText)).toEqual([
			expect.stringMatching(/^no model: pass --model PROVIDER:MODEL\n\/model PROVIDER:MODEL connects one now \(providers: openai, anthropic, .*OPENAI_API_KEY\)$/u),
			expect.stringMatching(/^\/model: .*nosuch.*; still no model \(command mode\)$/u),
			expect.stringMatching(/^\/model: .*ANTHROPIC_API_KEY.*; still no model \(command mode\)$/u),
			'model: openai-compatible:fake-model connected; text you type now goes to the model (writes and commands ask first)',
		]);
		expect(status()).toContain('openai-compatible:fake-model · ');
		expect(promptHintOf(controller.getSnapshot())).toBe('ask the model, or type !command, /help');

		const answered = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('hello');
		await answered.done;
		expect(answered.seen.filter(entry => entry.kind === 'entry').map(entry => entry.kind === 'entry' && entry.entry.entry)).toEqual(['user', 'assistant', 'turn']);
		expect(server.requests[0]!.body.messages.at(-1)).toEqual({role: 'user', content: 'hello'});

		// The agent's approval rules came with the model: its command asks first.
		const asked = new Promise<void>(resolvePromise => {
			const stop = controller.subscribe(() => {
				if (controller.getSnapshot().approval !== undefined) {
					stop();
					resolvePromise();
				}
			});
		});
		controller.submit('run echo hi');
		await asked;
		expect(controller.getSnapshot().approval).toMatchObject({toolName: 'bash', reason: 'the agent session (--yolo skips this) asks before bash'});
		const refused = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.answerApproval('rejected');
		await refused.done;

		// A key the server refuses is one line (the turn's end), and the session goes on.
		const failed = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		controller.submit('once more');
		await failed.done;
		expect(failed.seen.find(entry => entry.kind === 'entry' && entry.entry.entry === 'turn')).toMatchObject({entry: {outcome: {text: expect.stringContaining('Incorrect API key provided'), failed: true}}});
		const ran = scrollbackUntil(controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'card'));
		controller.submit('read {"file_path":"a.txt"}');
		await ran.done;
		expect(server.requests).toHaveLength(4);
		await controller.close();
	}, 30_000);

	it('tells prompts from commands', () => {
		const tools = new Set(['read', 'bash']);
		expect(['fix the failing test', 'read the README', 'read', 'read {"file_path":"a"}', '/help', '!ls', '  '].map(line => modelPrompt(line, tools) ?? null))
			.toEqual(['fix the failing test', 'read the README', null, null, null, null, null]);
	});
});

describe('the interactive session continuing a log', () => {
	it('starts its fold from the log, numbers turns on, and the model sees the earlier turn', async () => {
		server = await startFakeModelServer({script: [{text: 'First answer.'}, {text: 'Second answer.'}]});
		const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		const first = await openInteractiveSession({root, cwd: workspace, id: 's-first', agent: {model, from: '--model'}});
		const firstDone = scrollbackUntil(first.controller, seen => seen.some(entry => entry.kind === 'entry' && entry.entry.entry === 'turn'));
		first.controller.submit('hello');
		await firstDone.done;
		await first.controller.close();

		const resumed = await resumeTarget({continueFlag: false, resumeId: 's-first', sessionDir: root, env: {}, cwd: workspace, onNotice: () => undefined});
		const second = await openInteractiveSession({root, cwd: workspace, id: resumed!.header.id, agent: {model, from: '--model'}, resumed});
		// The fold starts from the log: its entries reach the scrollback first (resume shows the history), then the new turn's.
		const secondDone = scrollbackUntil(second.controller, seen => seen.filter(entry => entry.kind === 'entry' && entry.entry.entry === 'turn').length === 2);
		expect(secondDone.seen.map(entry => entry.kind === 'entry' && entry.entry.entry)).toEqual(['user', 'assistant', 'turn']);
		second.controller.submit('and again');
		await secondDone.done;
		await second.controller.close();
		expect(server.requests[1]!.body.messages.slice(1)).toEqual([{role: 'user', content: 'hello'}, {role: 'assistant', content: 'First answer.'}, {role: 'user', content: 'and again'}]);
		const log = await openSessionLog(resumed!.path);
		const events = [];
		for await (const event of log.events) {
			events.push(event);
		}

		expect(log.diagnostics).toEqual([]);
		expect(events.filter(event => event.type === 'turn/end').map(event => (event.data as {turn: number}).turn)).toEqual([1, 2]);
	}, 30_000);
});

describe('agent approvals', () => {
	it('ask before changes and commands, not before reads, and say who asks', async () => {
		const reasons = await Promise.all(['write', 'edit', 'bash', 'run_code', 'job_kill', 'read', 'grep', 'glob', 'web_fetch', 'todo_write'].map(async name => (await ruleQuestion(AGENT_ASK_RULES, name, {}, {cwd: workspace, realPath: realpathDeep}))?.reason ?? null));
		expect(reasons).toEqual([
			'the agent session (--yolo skips this) asks before write', 'the agent session (--yolo skips this) asks before edit', 'the agent session (--yolo skips this) asks before bash',
			'the agent session (--yolo skips this) asks before run_code', 'the agent session (--yolo skips this) asks before job_kill', null, null, null, null, null,
		]);
	});
});

describe('cancelling a turn from the prompt', () => {
	it('Esc/Ctrl+C (controller.cancel) aborts the model\'s stream; the turn ends cancelled and the next prompt runs', async () => {
		server = await startFakeModelServer({script: [{text: ['Thinking about ', 'it'], hangAfterChunks: 3}, {text: 'Fresh start.'}]});
		const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		const {controller, session} = await openInteractiveSession({root, cwd: workspace, id: 's-cancel', agent: {model, from: '--model'}});
		const streaming = new Promise<void>(resolve => {
			session.log.listen(event => {
				if (event.type === 'assistant/chunk' && (event.data as {chunk: {text?: string}}).chunk.text === 'it') {
					resolve();
				}
			});
		});
		const turns = scrollbackUntil(controller, seen => seen.filter(entry => entry.kind === 'entry' && entry.entry.entry === 'turn').length === 2);
		controller.submit('think');
		controller.submit('then start over');
		expect(controller.getSnapshot().queue).toHaveLength(1);
		await streaming;
		expect(controller.cancel()).toBe(true);
		// Cancel empties the queue (as for calls): the person submits again.
		controller.submit('start over');
		await turns.done;
		const shown = turns.seen.filter(entry => entry.kind === 'entry').map(entry => entry.kind === 'entry' ? entry.entry : undefined);
		expect(shown.map(entry => entry!.entry)).toEqual(['user', 'assistant', 'turn', 'user', 'assistant', 'turn']);
		expect(shown[2]).toMatchObject({entry: 'turn', outcome: {text: 'cancelled by you'}});
		expect(shown[1]).toMatchObject({entry: 'assistant', text: 'Thinking about it', interrupted: true});
		await controller.close();
	}, 30_000);
});
