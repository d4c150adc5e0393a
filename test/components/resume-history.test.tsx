/**
The interactive session continuing a log shows that log's conversation: its entries reach the
terminal's scrollback (laid out as the live session wrote them) before the prompt, and a history
longer than the bound shows its newest entries under a line naming what was left out.
*/
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {render} from 'ink';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {resolveModel} from '../../src/agent/model-client.js';
import {openInteractiveSession} from '../../src/cli/interactive/open-interactive-session.js';
import {LiveSession} from '../../src/live/live-session.js';
import {nativeDriver} from '../../src/live/native-driver.js';
import {JobRuntime} from '../../src/jobs/job-runtime.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import {Approvals} from '../../src/host/approvals.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import type {SessionRuntime} from '../../src/session/recorder/session-runtime.js';
import {hiddenHistoryText, historyWindow} from '../../src/live/resumed-history.js';
import {resumeTarget} from '../../src/cli/interactive/resume-target.js';
import {monochromeTheme} from '../../src/layout/text/theme.js';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {FakeStdin, FakeTty} from './harness/fake-terminal.js';

let workspace: string;
let root: string;
let server: FakeModelServer | undefined;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-resume-'));
	root = await mkdtemp(join(tmpdir(), 'cardterm-resume-root-'));
	await writeFile(join(workspace, 'a.txt'), 'alpha\n');
});
afterEach(async () => {
	await server?.close();
	server = undefined;
	await rm(workspace, {recursive: true, force: true});
	await rm(root, {recursive: true, force: true});
});

/** Runs one session of `turns` prompts against the fake model (each: one `read` call, then an answer); returns the session id. */
async function recordSession(id: string, turns: number, later: readonly object[] = []): Promise<void> {
	const script: object[] = [];
	for (let turn = 1; turn <= turns; turn++) {
		script.push({toolCalls: [{id: `c${turn}`, name: 'read', args: '{"file_path":"a.txt"}'}]}, {text: `Answer number ${turn}: it holds alpha.`});
	}

	// Answers for the resumed session, from the same server.
	// bounded spread: a few scripted answers.
	script.push(...later);

	server = await startFakeModelServer({script});
	const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
	const {controller} = await openInteractiveSession({root, cwd: workspace, id, agent: {model, from: '--model'}});
	let ended = 0;
	const done = new Promise<void>(resolve => {
		controller.onScrollback(entry => {
			if (entry.kind === 'entry' && entry.entry.entry === 'turn' && ++ended === turns) {
				resolve();
			}
		});
	});
	for (let turn = 1; turn <= turns; turn++) {
		controller.submit(`question number ${turn}`);
	}

	await done;
	await controller.close();
}

async function resume(id: string) {
	const resumed = await resumeTarget({continueFlag: false, resumeId: id, sessionDir: root, env: {}, cwd: workspace, onNotice: () => undefined});
	const model = resolveModel({spec: 'fake-model', baseUrl: server!.url, env: {}});
	return openInteractiveSession({root, cwd: workspace, id: resumed!.header.id, agent: {model, from: '--model'}, resumed});
}

describe('resuming a session shows its history', () => {
	it('writes the user message, the card and the answer to the scrollback before the prompt', async () => {
		await recordSession('s-shown', 1);
		const {controller} = await resume('s-shown');
		const tty = new FakeTty(100, 30);
		const stdin = new FakeStdin();
		const instance = render(<InteractiveApp model={controller} theme={monochromeTheme} color={false} hyperlinks={false} now={() => 0} />, {
			stdout: tty as unknown as NodeJS.WriteStream,
			stdin: stdin as unknown as NodeJS.ReadStream,
			stderr: tty as unknown as NodeJS.WriteStream,
			exitOnCtrlC: false,
			patchConsole: false,
		});
		try {
			await tty.waitForText('Answer number 1: it holds alpha.');
			const rows = tty.text().split('\n');
			const rowOf = (pattern: RegExp): number => rows.findIndex(row => pattern.test(row));
			const question = rowOf(/question number 1/);
			const card = rowOf(/read a\.txt/);
			const answer = rowOf(/Answer number 1: it holds alpha\./);
			const prompt = rowOf(/^> /);
			expect(question).toBeGreaterThanOrEqual(0);
			expect([question < card, card < answer, answer < prompt]).toEqual([true, true, true]);
		} finally {
			await controller.close();
			instance.unmount();
		}
	}, 30_000);

	it('hands the history to the scrollback in the order of the log, once, and the new turn after it', async () => {
		await recordSession('s-order', 2, [{text: 'A third answer.'}]);
		const {controller} = await resume('s-order');
		const seen: ScrollbackEntry[] = [];
		const thirdTurn = new Promise<void>(resolve => {
			let turns = 0;
			controller.onScrollback(entry => {
				seen.push(entry);
				if (entry.kind === 'entry' && entry.entry.entry === 'turn' && ++turns === 3) {
					resolve();
				}
			});
		});
		const kinds = (): string[] => seen.map(entry => (entry.kind === 'entry' ? entry.entry.entry : entry.kind));
		const history = ['user', 'card', 'assistant', 'turn', 'user', 'card', 'assistant', 'turn'];
		expect(kinds()).toEqual(history);
		controller.submit('question number 3');
		await thirdTurn;
		await controller.close();
		expect(kinds()).toEqual([...history, 'user', 'assistant', 'turn']);
	}, 30_000);

	it('a history longer than the bound shows its newest entries under a line counting the rest, and releases those left out', () => {
		const fold = new SessionFold(referencePresenters('/'), {releaseWritten: () => true});
		for (let seq = 0; seq < 10; seq++) {
			fold.apply({type: 'user/message', seq, time: 0, data: {role: 'user', content: [{type: 'text', text: `message ${seq}`}], source: {kind: 'user'}}});
		}

		const controller = new LiveSession({
			cwd: '/', sessionId: 's-long', fold, onFoldChange: () => () => undefined, approvals: new Approvals(),
			driver: nativeDriver({session: {fold, runtime: {} as SessionRuntime, registry: new ToolRegistry(), jobs: new JobRuntime(), toolNames: () => new Set()}, cwd: '/', shutdown: async () => undefined}),
			historyEntries: 4,
		});
		const seen: ScrollbackEntry[] = [];
		controller.onScrollback(entry => seen.push(entry));
		const texts = seen.map(entry => (entry.kind === 'lines' ? entry.lines.map(line => line.spans.map(span => span.text).join('')).join(' ') : (entry.kind === 'entry' && entry.entry.entry === 'user' ? entry.entry.text : entry.kind)));
		expect(texts).toEqual([expect.stringContaining(hiddenHistoryText(6)), 'message 6', 'message 7', 'message 8', 'message 9']);
		// Left out and written alike leave memory (the pager reads them from the log).
		expect(fold.entries.filter(entry => entry.entry === 'user')).toEqual([]);
		expect(historyWindow(4, 4)).toEqual({from: 0, hidden: 0});
		expect(hiddenHistoryText(1)).toBe('1 earlier entry of this session not shown here: Ctrl+O opens the pager on all of it');
	});
});
