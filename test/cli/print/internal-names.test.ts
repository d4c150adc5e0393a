/**
No internal name reaches a person in print output (issue 16 item 12): notices do not lead with the
event type they were recorded as (`llm/retry:`, `permission/preset: permission/preset`), an ACP
call is not headed `acp_execute`, and a cancelled card does not show `ABORTED_BEFORE_DISPATCH` —
through `replay --print` of a log, `-p` and `acp -p`. `--json` keeps every recorded name.
*/
import {mkdtemp, readdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {FAKE_AGENT} from '../../acp/acp-harness.js';
import {startFakeModelServer} from '../../fixtures/fake-model-server.mjs';
import {EventScript} from '../../session/fold-events.js';
import {fakeIo} from '../cli-io-fake.js';

/** Names of the log, not of anything a person knows. */
const INTERNAL = /llm\/retry|permission\/preset|hook\/result|tool-workflow\/|acp\/mode|acp_[a-z]|ABORTED/u;

let workspace: string;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-names-'));
});
afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
});

/** A log with a notice of each kind cardterm words from its type, an ACP call, and two cancelled calls. */
async function writeLog(): Promise<string> {
	const script = new EventScript();
	script.push('turn/start', {turn: 1});
	script.push('llm/retry', {turn: 1, attempt: 2, maxAttempts: 5, delayMs: 1000, reason: 'overloaded'});
	script.push('permission/preset', {mode: 'yolo'});
	script.push('hook/result', {point: 'PreToolUse', decision: 'block', exitCode: 2, stderrSummary: 'bash is disabled'});
	script.push('tool-workflow/run-start', {name: 'nightly'});
	script.call('run', 'acp_execute', {title: 'ls -la', kind: 'execute', content: [], locations: []});
	script.result('run', 'a.txt');
	script.call('slow', 'bash', {command: 'sleep 30', description: 'Wait'});
	script.result('slow', 'Error: tool call aborted', {isError: true, error: {name: 'AbortError', code: 'ABORTED'}});
	script.call('next', 'bash', {command: 'echo never', description: 'Never'});
	script.result('next', 'Error: tool call aborted before dispatch', {isError: true, error: {name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH'}});
	script.push('turn/end', {turn: 1, reason: {kind: 'aborted', reason: {kind: 'user'}}});
	const path = join(workspace, 'session.jsonl');
	const header = {type: 'session', version: 0, id: 's-names', createdAt: 1_790_000_000_000, cwd: workspace, delegationDepth: 0};
	await writeFile(path, `${[header, ...script.events].map(event => JSON.stringify(event)).join('\n')}\n`);
	return path;
}

describe('print output names nothing internal', () => {
	it('replay --print words each notice for a person, heads an ACP call by its kind, and shows no cancel code; --json keeps the names', async () => {
		const log = await writeLog();
		for (const args of [[], ['--width', '40'], ['--expand', 'all'], ['--expand', 'none']]) {
			const io = fakeIo({cwd: workspace});
			expect(await main(['replay', log, '--print', ...args], io)).toBe(0);
			expect(io.out()).not.toMatch(INTERNAL);
		}

		const io = fakeIo({cwd: workspace});
		expect(await main(['replay', log, '--print'], io)).toBe(0);
		expect(io.out().split('\n')).toEqual(expect.arrayContaining([
			'· retrying the model (attempt 2): overloaded',
			'· permission preset · mode yolo',
			'· hook PreToolUse: block (exit 2) — bash is disabled',
			'· tool workflow run start · name nightly',
			'Error: tool call aborted before dispatch',
		]));
		expect(io.out()).toMatch(/^● execute ls -la/mu);

		const json = fakeIo({cwd: workspace});
		expect(await main(['replay', log, '--json'], json)).toBe(0);
		expect(json.out()).toContain('"source":"llm/retry"');
		expect(json.out()).toContain('"name":"acp_execute"');
		expect(json.out()).toContain('"code":"ABORTED_BEFORE_DISPATCH"');
	});

	it('-p says a retry without its event name, on stderr and in --transcript', async () => {
		const server = await startFakeModelServer({script: [{status: 500}, {text: 'Done after a retry.'}, {status: 500}, {text: 'Done after a retry.'}]});
		try {
			for (const extra of [[], ['--transcript']]) {
				const io = fakeIo({cwd: workspace, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: workspace}});
				expect(await main(['-p', 'go', '--model', 'fake', '--base-url', server.url, '--session-dir', join(workspace, 'sessions'), ...extra], io)).toBe(0);
				const shown = io.out() + io.err();
				expect(shown).toContain('· retrying the model (attempt 2)');
				expect(shown).not.toMatch(INTERNAL);
			}
		} finally {
			await server.close();
		}
	}, 30_000);

	it('acp -p heads the agent\'s calls by their kind', async () => {
		const sessions = join(workspace, 'sessions');
		const io = fakeIo({cwd: workspace});
		expect(await main(['acp', '-p', 'tour', '--transcript', '--width', '100', '--session-dir', sessions, '--', process.execPath, FAKE_AGENT], io)).toBe(0);
		expect(io.out()).not.toMatch(INTERNAL);
		expect(io.out()).toMatch(/^● execute printf "one/mu);
		expect(io.out()).toMatch(/^● edit config\.ts/mu);
		expect(io.out()).toMatch(/^· mode: code$/mu);
		expect((await readdir(sessions)).length).toBe(1);
	});
});
