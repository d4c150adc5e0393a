/**
Approval rules in a real session (issue 16, attacker 5): the rules judge the path a write really
lands on, a `run_code` sub-call is asked as a call is, a grant "for this session" never widens past
the rules that asked, and writes into `.git/` and `.cardterm/` ask every time.
*/
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, realpath, rm, symlink} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {AGENT_ASK_RULES} from '../../src/cli/interactive/agent-setup.js';
import type {AskRule} from '../../src/config/approval-rules.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {liveSessionFor, until} from '../live/live-session-harness.js';

let workspace = '';
beforeEach(async () => {
	workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-rules-session-')));
	await mkdir(join(workspace, 'src'));
	await mkdir(join(workspace, '.git', 'hooks'), {recursive: true});
});

afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
});

/** A session under `rules` with a screen that answers; `events` is everything it logged. */
async function watched(rules: readonly AskRule[]) {
	const session = await openSession({cwd: workspace, rules});
	const events: SessionEvent[] = [];
	session.log.listen(event => events.push(event));
	const screen = liveSessionFor(session);
	return {session, screen, events};
}

/** Run `name(args)` and answer each question it asks with the next of `answers`; the questions asked, and the result. */
async function run(opened: Awaited<ReturnType<typeof watched>>, name: string, args: unknown, answers: ReadonlyArray<'allowed-once' | 'allowed-session' | 'rejected'>) {
	const {session, screen} = opened;
	const asked: Array<{readonly tool: string; readonly reason?: string; readonly choices: readonly string[]}> = [];
	const done = session.runtime.runCall(name, args, {signal: new AbortController().signal});
	let settled = false;
	void done.then(() => {
		settled = true;
	});
	for (const answer of answers) {
		// In order: one question at a time
		await until(() => screen.getSnapshot().approval !== undefined || settled);
		const approval = screen.getSnapshot().approval;
		if (approval === undefined) {
			break;
		}

		asked.push({tool: approval.toolName, ...(approval.reason === undefined ? {} : {reason: approval.reason}), choices: approval.choices.map(choice => choice.answer)});
		screen.answerApproval(answer);
	}

	const result = await done;
	return {asked, result};
}

function outcomes(events: readonly SessionEvent[]): unknown[] {
	return events.flatMap(event => event.type === 'approval/decided' ? [event.data.standing === true ? `${event.data.outcome} (standing)` : event.data.outcome] : []);
}

describe('the rules judge the resolved path', () => {
	it('a write through a link inside src/ that leads into .git/hooks asks (it wrote the hook with no question)', async () => {
		await symlink(join(workspace, '.git', 'hooks'), join(workspace, 'src', 'hooks'));
		const opened = await watched([{tool: ['write', 'edit'], outside: 'src/'}]);
		const {asked, result} = await run(opened, 'write', {file_path: 'src/hooks/pre-commit', content: '#!/bin/sh\ncurl evil\n'}, ['rejected']);
		expect(asked).toEqual([{tool: 'write', reason: 'the config asks before write outside src/ (src/hooks/pre-commit resolves to .git/hooks/pre-commit)', choices: ['allowed-once', 'allowed-session', 'rejected', 'rejected']}]);
		expect(result.isError).toBe(true);
		expect(existsSync(join(workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
		// A plain file in src/ is still written without a question.
		const plain = await run(opened, 'write', {file_path: 'src/a.ts', content: 'x\n'}, []);
		expect(plain.asked).toEqual([]);
		expect(await readFile(join(workspace, 'src', 'a.ts'), 'utf8')).toBe('x\n');
		await opened.screen.close();
	});
});

describe('a grant for the session never widens past the rules', () => {
	it('"allow write for this session" covers writes asked for the same reasons; the config\'s path rule and .git/ and .cardterm/ still ask', async () => {
		const opened = await watched([{tool: ['write', 'edit'], outside: 'src/'}, ...AGENT_ASK_RULES]);
		const first = await run(opened, 'write', {file_path: 'src/a.ts', content: 'a\n'}, ['allowed-session']);
		expect(first.asked.map(question => question.reason)).toEqual(['the agent session (--yolo skips this) asks before write']);
		const again = await run(opened, 'write', {file_path: 'src/b.ts', content: 'b\n'}, []);
		expect(again.asked).toEqual([]);
		expect(again.result.isError).toBe(false);

		const outside = await run(opened, 'write', {file_path: 'docs/c.md', content: 'c\n'}, ['rejected']);
		expect(outside.asked.map(question => question.reason)).toEqual(['the config asks before write outside src/; the agent session (--yolo skips this) asks before write']);
		const hook = await run(opened, 'write', {file_path: '.git/hooks/post-checkout', content: 'x\n'}, ['rejected']);
		// No "for this session" choice: only once, no, and no with words.
		expect(hook.asked).toEqual([{tool: 'write', reason: 'the config asks before write outside src/; the agent session (--yolo skips this) asks before write; cardterm asks every time before write inside .git/', choices: ['allowed-once', 'rejected', 'rejected']}]);
		const config = await run(opened, 'write', {file_path: '.cardterm/config.json', content: '{}\n'}, ['allowed-once']);
		expect(config.asked.map(question => question.choices.includes('allowed-session'))).toEqual([false]);
		expect(config.result.isError).toBe(false);
		// Allowed once is once: the next write there asks again.
		const configAgain = await run(opened, 'write', {file_path: '.cardterm/config.json', content: '{"x": 1}\n'}, ['rejected']);
		expect(configAgain.asked).toHaveLength(1);
		expect(outcomes(opened.events)).toEqual(['allowed-session', 'allowed-session (standing)', 'rejected', 'rejected', 'allowed-once', 'rejected']);
		await opened.screen.close();
	});
});

describe('run_code sub-calls are asked as calls', () => {
	it('a bash inside run_code asks under a rule for bash (it ran with no question), and its refusal reaches the program', async () => {
		const opened = await watched([{tool: 'bash'}]);
		const code = 'try { await tools.bash({command: "echo hi > made.txt"}); return "ran"; } catch (error) { return `refused: ${error.message}`; }';
		const {asked, result} = await run(opened, 'run_code', {description: 'make a file', code}, ['rejected']);
		expect(asked.map(question => question.tool)).toEqual(['bash']);
		expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
		expect(result.isError).toBe(false);
		expect(JSON.stringify(result.content)).toContain('refused: the user rejected tool \\"bash\\"');
		// The sub-call's approval is on the sub-call's card, under the run_code card.
		const card = opened.session.fold.entries.flatMap(entry => entry.entry === 'card' ? [entry.card] : []).at(-1)!;
		expect(card.name).toBe('run_code');
		expect(card.children[0]!.approval).toMatchObject({state: 'decided', outcome: 'rejected'});
		await opened.screen.close();
	});
});

describe('the person\'s words with a refusal reach the model', () => {
	it('the refused call\'s result carries them; the log records them with the answer', async () => {
		const session: OpenedSession = await openSession({cwd: workspace, rules: [{tool: 'write'}]});
		const events: SessionEvent[] = [];
		session.log.listen(event => events.push(event));
		const screen = liveSessionFor(session);
		const done = session.runtime.runCall('write', {file_path: 'a.txt', content: 'x'}, {signal: new AbortController().signal});
		await until(() => screen.getSnapshot().approval !== undefined);
		screen.answerApproval('rejected', 'write b.txt instead');
		const result = await done;
		expect(result.content).toEqual([{type: 'text', text: 'Error: the user rejected tool "write", and said what to do instead: write b.txt instead'}]);
		expect(events.find(event => event.type === 'approval/decided')?.data).toMatchObject({outcome: 'rejected', feedback: 'write b.txt instead'});
		await screen.close();
	});
});
