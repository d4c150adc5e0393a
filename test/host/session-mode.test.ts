/**
The session's modes in a real session (issue 31, "Modes, one key"): each mode runs, asks about or
refuses what it must — judged by the registry's hooks, unattended (no screen: a call that would ask
is refused as needing approval), so nothing here waits for a person — the log records each change,
the model is told of the last change with its next prompt, and Shift+Tab's confirmation guards the
way into bypass mode.
*/
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {AskRule} from '../../src/config/approval-rules.js';
import {checkConfigFile} from '../../src/config/config-schema.js';
import {startMode} from '../../src/cli/interactive/agent-setup.js';
import type {CardtermConfig} from '../../src/config/load-config.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {agentAskRules, nextMode, parseMode, SessionMode, type SessionModeName} from '../../src/host/session-mode.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import type {ToolExecutionResult} from '../../src/tools/types.js';
import {liveSessionFor, until} from '../live/live-session-harness.js';

let workspace = '';
let outside = '';
beforeEach(async () => {
	workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-modes-')));
	outside = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-modes-outside-')));
	await mkdir(join(workspace, '.git'));
});

afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
	await rm(outside, {recursive: true, force: true});
});

/** A session in `start` whose agent rules follow its mode, with the config's `configRules` before them. */
async function session(start: SessionModeName, configRules: readonly AskRule[] = []): Promise<{readonly opened: OpenedSession; readonly events: SessionEvent[]}> {
	const mode = new SessionMode(start);
	const opened = await openSession({cwd: workspace, mode, rules: () => [...configRules, ...agentAskRules(mode.current)]});
	const events: SessionEvent[] = [];
	opened.log.listen(event => events.push(event));
	return {opened, events};
}

async function call(opened: OpenedSession, name: string, args: unknown): Promise<ToolExecutionResult> {
	return opened.runtime.runCall(name, args, {signal: new AbortController().signal});
}

function text(result: ToolExecutionResult): string {
	return result.isError ? result.error.message : JSON.stringify(result.value);
}

/** What became of each call: ran, asked (refused unattended: it needs approval), or refused by plan mode. */
function verdict(result: ToolExecutionResult): 'ran' | 'asked' | 'plan' | string {
	if (!result.isError) {
		return 'ran';
	}

	const message = text(result);
	return message.includes('requires approval') ? 'asked' : (message.startsWith('plan mode:') ? 'plan' : message);
}

/** The calls every mode is judged on, each with what it does. */
function calls(): Array<[string, string, unknown]> {
	return [
		['write inside', 'write', {file_path: 'a.txt', content: 'a\n'}],
		['write outside', 'write', {file_path: join(outside, 'b.txt'), content: 'b\n'}],
		['write into .git', 'write', {file_path: '.git/config', content: 'evil\n'}],
		['command', 'bash', {command: 'echo hi', description: 'say hi'}],
		['read', 'read', {file_path: 'seed.txt'}],
		['grep', 'grep', {pattern: 'seed'}],
	];
}

async function verdicts(mode: SessionModeName, configRules: readonly AskRule[] = []): Promise<Record<string, string>> {
	const {opened} = await session(mode, configRules);
	try {
		await writeFile(join(workspace, 'seed.txt'), 'seed\n');
		const found: Record<string, string> = {};
		for (const [label, name, args] of calls()) {
			// In order: a write's verdict may depend on the one before
			found[label] = verdict(await call(opened, name, args));
		}

		return found;
	} finally {
		await opened.close();
	}
}

describe('each mode runs, asks about or refuses what it must', () => {
	it('ask: every write and command asks; reads run', async () => {
		expect(await verdicts('ask')).toEqual({'write inside': 'asked', 'write outside': 'asked', 'write into .git': 'asked', command: 'asked', read: 'ran', grep: 'ran'});
		expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
	});

	it('accept edits: a write inside the workspace runs without asking; outside it, into .git/, and a command still ask', async () => {
		expect(await verdicts('edits')).toEqual({'write inside': 'ran', 'write outside': 'asked', 'write into .git': 'asked', command: 'asked', read: 'ran', grep: 'ran'});
		expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
		expect(existsSync(join(outside, 'b.txt'))).toBe(false);
	});

	it('plan: only read-only tools run; a write or command is refused before any question, with a result the model understands', async () => {
		const {opened, events} = await session('plan');
		try {
			const write = await call(opened, 'write', {file_path: 'a.txt', content: 'a\n'});
			expect(text(write)).toBe('plan mode: write was not run; only read-only tools run while the person plans. Propose the change instead (the person leaves plan mode with Shift+Tab or /mode)');
			// The model reads the refusal in the result's content, too.
			expect(JSON.stringify(write.content)).toContain('plan mode: write was not run');
			expect(verdict(await call(opened, 'bash', {command: 'touch made', description: 'make a file'}))).toBe('plan');
			expect(verdict(await call(opened, 'run_code', {code: 'return 1'}))).toBe('plan');
			expect(verdict(await call(opened, 'glob', {pattern: '*'}))).toBe('ran');
			expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
			expect(existsSync(join(workspace, 'made'))).toBe(false);
			// Refused before the rules: nobody was asked.
			expect(events.some(event => event.type === 'approval/asked')).toBe(false);
		} finally {
			await opened.close();
		}
	});

	it('bypass: nothing the agent does asks (--yolo); the tools\' own workspace guard and the config\'s own rules still hold', async () => {
		const found = await verdicts('bypass');
		expect({...found, 'write outside': found['write outside']!.replace(/".*"/u, '…')}).toEqual({'write inside': 'ran', 'write outside': 'access denied: … and the allowed roots', 'write into .git': 'ran', command: 'ran', read: 'ran', grep: 'ran'});
		expect(existsSync(join(outside, 'b.txt'))).toBe(false);
		const configAsks = await verdicts('bypass', [{tool: 'bash'}]);
		expect(configAsks.command).toBe('asked');
	});
});

describe('a change of mode', () => {
	it('applies to the next call, is recorded as a permission/preset notice, and is told to the model once, with its next prompt', async () => {
		const {opened, events} = await session('ask');
		try {
			expect(verdict(await call(opened, 'write', {file_path: 'a.txt', content: 'a\n'}))).toBe('asked');
			opened.mode.set('edits', 'key');
			expect(verdict(await call(opened, 'write', {file_path: 'a.txt', content: 'a\n'}))).toBe('ran');
			opened.mode.set('plan', 'command');
			expect(verdict(await call(opened, 'write', {file_path: 'a.txt', content: 'b\n'}))).toBe('plan');
			// Setting the mode it is in records nothing.
			opened.mode.set('plan', 'key');
			const presets = events.filter(event => event.type === 'permission/preset').map(event => event.data);
			expect(presets).toEqual([{mode: 'edits', label: 'accept edits', by: 'key'}, {mode: 'plan', label: 'plan', by: 'command'}]);
			const notices = opened.fold.entries.flatMap(entry => entry.entry === 'notice' ? [entry.summary] : []);
			expect(notices).toEqual(['mode: accept edits (Shift+Tab)', 'mode: plan (/mode)']);

			// Two changes since the model was last told: one note, of plan mode, in the agent's inbox.
			opened.mode.tell(opened.runtime.agent);
			opened.mode.tell(opened.runtime.agent);
			const inbox = opened.runtime.takeInbox();
			expect(inbox).toHaveLength(1);
			expect(inbox[0]!.source).toEqual({kind: 'note', name: 'cardterm mode'});
			expect(JSON.stringify(inbox[0]!.content)).toContain('Plan mode is on');
		} finally {
			await opened.close();
		}
	});

	it('cycles ask → edits → plan → bypass → ask, and reads the names people type', () => {
		expect(['ask', 'edits', 'plan', 'bypass'].map(mode => nextMode(mode as SessionModeName))).toEqual(['edits', 'plan', 'bypass', 'ask']);
		expect(['accept edits', 'Plan', 'yolo', 'edit', ''].map(text => parseMode(text))).toEqual(['edits', 'plan', 'bypass', undefined, undefined]);
	});
});

describe('Shift+Tab in the live session', () => {
	it('asks once before entering bypass mode: no keeps the session in ask mode, yes enters it, and later cycles do not ask again', async () => {
		const {opened} = await session('plan');
		const screen = liveSessionFor(opened);
		const unsubscribe = screen.subscribe(() => {});
		try {
			screen.cycleMode();
			await until(() => screen.getSnapshot().approval !== undefined);
			expect(screen.getSnapshot().approval).toMatchObject({toolName: 'bypass mode'});
			expect(opened.mode.current).toBe('plan');
			screen.answerApproval('rejected');
			// Ask, the default, is not in the status line.
			await until(() => opened.mode.current === 'ask' && screen.getSnapshot().mode === undefined);

			opened.mode.set('plan', 'command');
			screen.cycleMode();
			await until(() => screen.getSnapshot().approval !== undefined);
			screen.answerApproval('allowed-once');
			await until(() => screen.getSnapshot().mode === 'bypass');
			screen.cycleMode();
			await until(() => opened.mode.current === 'ask');
			for (const expected of ['accept edits', 'plan', 'bypass']) {
				screen.cycleMode();
				// In order: each press waits for the one before
				await until(() => screen.getSnapshot().mode === expected);
				expect(screen.getSnapshot().approval).toBeUndefined();
			}
		} finally {
			unsubscribe();
			await screen.close();
		}
	});

	it('/mode lists the modes and switches to one by name; an unknown name is refused, naming the modes', async () => {
		const {opened} = await session('ask');
		const screen = liveSessionFor(opened);
		const said: string[] = [];
		const stop = screen.onScrollback(entry => {
			if (entry.kind === 'lines') {
				said.push(entry.lines.map(line => line.spans.map(span => span.text).join('')).join('\n'));
			}
		});
		try {
			screen.submit('/mode');
			screen.submit('/mode nosuch');
			screen.submit('/mode plan');
			await until(() => opened.mode.current === 'plan' && said.length >= 2);
			expect(said[0]).toContain('● ask');
			expect(said[0]).toContain('○ edits (accept edits)');
			expect(said[1]).toContain('no mode "nosuch": the modes are ask, edits, plan, bypass');
			expect(screen.getSnapshot().mode).toBe('plan');
		} finally {
			stop();
			await screen.close();
		}
	});
});

describe('the mode a session starts in', () => {
	it('--mode, else --yolo, else the config\'s default, else ask; a project may not choose a mode that asks less', () => {
		const config = (defaultMode?: 'plan' | 'edits') => ({approval: {ask: [], ...(defaultMode === undefined ? {} : {defaultMode})}}) as unknown as CardtermConfig;
		expect(startMode(new Map(), config())).toBe('ask');
		expect(startMode(new Map(), config('plan'))).toBe('plan');
		expect(startMode(new Map([['yolo', true]]), config('plan'))).toBe('bypass');
		expect(startMode(new Map([['mode', 'accept-edits']]), config('plan'))).toBe('edits');
		expect(() => startMode(new Map([['mode', 'yes']]), config())).toThrow('--mode: "yes" is no mode (the modes: ask, edits, plan, bypass)');
		expect(() => startMode(new Map<string, string | true>([['mode', 'plan'], ['yolo', true]]), config())).toThrow('--yolo is --mode bypass: it cannot go with --mode plan');
		expect(checkConfigFile({approval: {defaultMode: 'bypass'}}, 'project').warnings).toEqual(['"approval.defaultMode": "bypass" ignored: only your user config can start sessions in a mode that asks less, a project\'s cannot']);
		expect(checkConfigFile({approval: {defaultMode: 'bypass'}}, 'user').warnings).toEqual([]);
		expect(checkConfigFile({approval: {defaultMode: 'sometimes'}}, 'user').errors).toEqual(['"approval.defaultMode" must be one of ask, edits, plan, bypass (got "sometimes")']);
	});
});
