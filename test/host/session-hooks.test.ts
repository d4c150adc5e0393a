/**
The config's hooks on a real session (issue 31, "Hooks"): a PreToolUse hook that exits non-zero
refuses the call with its stderr, one that hangs is stopped at its timeout (and named), hostile
output reaches neither the model nor the log with its escape sequences; PostToolUse and Notification
hooks get the call as JSON on stdin; the config reads Claude Code's shape and names what it cannot.
*/
import {existsSync, readFileSync} from 'node:fs';
import {mkdtemp, readFile, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {AskRule} from '../../src/config/approval-rules.js';
import {hookConsentKey, readHooks, type HookEntry} from '../../src/config/hooks-config.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {until} from '../live/live-session-harness.js';

let workspace = '';
beforeEach(async () => {
	workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-hooks-')));
});

afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
});

function hook(event: HookEntry['event'], command: string, extra: Partial<HookEntry> = {}): HookEntry {
	return {event, command, timeoutMs: 10_000, from: 'test', byProject: false, ...extra};
}

async function session(hooks: readonly HookEntry[], rules: readonly AskRule[] = []): Promise<{readonly opened: OpenedSession; readonly events: SessionEvent[]}> {
	const opened = await openSession({cwd: workspace, hooks, ...(rules.length === 0 ? {} : {rules})});
	const events: SessionEvent[] = [];
	opened.log.listen(event => events.push(event));
	return {opened, events};
}

async function call(opened: OpenedSession, name: string, args: unknown) {
	return opened.runtime.runCall(name, args, {signal: new AbortController().signal});
}

function hookResults(events: readonly SessionEvent[]): unknown[] {
	return events.flatMap(event => event.type === 'hook/result' ? [event.data] : []);
}

describe('PreToolUse', () => {
	it('a hook that exits 2 refuses the matching call with its stderr (what the model reads and the card shows); other tools run', async () => {
		const {opened, events} = await session([hook('PreToolUse', 'cat > "$PWD/seen.json"; echo "bash is disabled by policy" >&2; exit 2', {matcher: 'Bash|Exec'})]);
		try {
			const refused = await call(opened, 'bash', {command: 'touch made', description: 'make a file'});
			expect(refused.isError && refused.error.message).toBe('a PreToolUse hook refused bash (cat > "$PWD/seen.json"; echo "bash is disabled by policy" >&2; exit 2): bash is disabled by policy');
			expect(JSON.stringify(refused.content)).toContain('bash is disabled by policy');
			expect(existsSync(join(workspace, 'made'))).toBe(false);
			// The call as JSON on stdin, in Claude Code's fields.
			const seen = JSON.parse(await readFile(join(workspace, 'seen.json'), 'utf8')) as Record<string, unknown>;
			expect(seen).toMatchObject({hook_event_name: 'PreToolUse', session_id: opened.id, cwd: workspace, tool_name: 'bash', tool_input: {command: 'touch made', description: 'make a file'}});
			expect(hookResults(events)).toMatchObject([{point: 'PreToolUse', decision: 'block', exitCode: 2, stderrSummary: 'bash is disabled by policy'}]);
			// The card says it.
			const card = opened.fold.entries.find(entry => entry.entry === 'card');
			expect(JSON.stringify(card)).toContain('bash is disabled by policy');
			const notice = opened.fold.entries.find(entry => entry.entry === 'notice');
			expect(notice).toMatchObject({summary: 'hook PreToolUse: block (exit 2) — bash is disabled by policy'});

			// The matcher is whole and case-insensitive: write runs, and nothing is recorded for it.
			const wrote = await call(opened, 'write', {file_path: 'a.txt', content: 'a\n'});
			expect(wrote.isError).toBe(false);
			expect(hookResults(events)).toHaveLength(1);
		} finally {
			await opened.close();
		}
	});

	it('a hook that hangs is stopped at its timeout, with what it started, and the refusal names it', async () => {
		const {opened, events} = await session([hook('PreToolUse', 'sleep 300 & echo $! > "$PWD/child.pid"; sleep 300', {timeoutMs: 300})]);
		try {
			const refused = await call(opened, 'read', {file_path: 'x'});
			expect(refused.isError && refused.error.message).toBe('a PreToolUse hook refused read (sleep 300 & echo $! > "$PWD/child.pid"; sleep 300): timed out after 0.3s');
			expect(hookResults(events)).toMatchObject([{point: 'PreToolUse', decision: 'timeout', stderrSummary: 'timed out after 0.3s'}]);
			// The background child of the hook went with it (its whole process group).
			const pid = Number(await readFile(join(workspace, 'child.pid'), 'utf8'));
			await until(() => {
				try {
					process.kill(pid, 0);
					return false;
				} catch {
					return true;
				}
			});
		} finally {
			await opened.close();
		}
	});

	it('hostile output: escape sequences in the hook\'s stderr reach neither the model, the card nor the log as control characters; a flood is bounded', async () => {
		const {opened, events} = await session([hook('PreToolUse', 'printf \'\\033]0;pwned\\007\\033[2J\\033[31mno\\r\\n\' >&2; head -c 200000 /dev/zero | tr "\\0" x >&2; exit 1')]);
		try {
			const refused = await call(opened, 'glob', {pattern: '*'});
			const message = refused.isError ? refused.error.message : '';
			expect(message).toContain('no');
			expect(message).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F]/u);
			expect(message.length).toBeLessThan(2500);
			expect(JSON.stringify(hookResults(events))).not.toMatch(/\\u001b|\u001B/u);
		} finally {
			await opened.close();
		}
	});
});

describe('PostToolUse and Notification', () => {
	it('PostToolUse gets the call and its result; Notification hears a question that waits; their failures are notices, never refusals', async () => {
		const {opened, events} = await session([
			hook('PostToolUse', 'cat > "$PWD/post.json"', {matcher: 'write'}),
			hook('Notification', 'cat > "$PWD/notified.json"; echo "notifier broke" >&2; exit 1'),
		], [{tool: 'bash'}]);
		try {
			expect((await call(opened, 'write', {file_path: 'a.txt', content: 'a\n'})).isError).toBe(false);
			// Written once the hook has read the whole call.
			await until(() => existsSync(join(workspace, 'post.json')) && readFileSync(join(workspace, 'post.json'), 'utf8').endsWith('}'));
			// Asked and answered unattended (no screen): the question was there, the Notification hook heard it.
			await call(opened, 'bash', {command: 'true', description: 'nothing'});
			await until(() => hookResults(events).length > 0);
			const notified = JSON.parse(await readFile(join(workspace, 'notified.json'), 'utf8')) as Record<string, unknown>;
			expect(notified).toMatchObject({hook_event_name: 'Notification', message: 'cardterm needs your permission to use bash'});
			expect(hookResults(events)).toMatchObject([{point: 'Notification', decision: 'failed', exitCode: 1, stderrSummary: 'notifier broke'}]);
			const post = JSON.parse(await readFile(join(workspace, 'post.json'), 'utf8')) as Record<string, unknown>;
			expect(post).toMatchObject({hook_event_name: 'PostToolUse', tool_name: 'write', tool_input: {file_path: 'a.txt'}, tool_response: {isError: false}});
		} finally {
			await opened.close();
		}
	});
});

describe('the config\'s hooks', () => {
	it('reads Claude Code\'s shape and names what it cannot read', () => {
		const read = readHooks({
			PreToolUse: [{matcher: 'Bash', hooks: [{type: 'command', command: './check.sh', timeout: 5}]}, {hooks: 'nope'}],
			Stop: [{hooks: [{type: 'command', command: 'notify-send done'}, {type: 'command', command: 'x', timeout: -1}]}],
			SessionStart: [],
		}, '/p/.cardterm/config.json', true);
		expect(read.entries).toEqual([
			{event: 'PreToolUse', matcher: 'Bash', command: './check.sh', timeoutMs: 5000, from: '/p/.cardterm/config.json', byProject: true},
			{event: 'Stop', command: 'notify-send done', timeoutMs: 60_000, from: '/p/.cardterm/config.json', byProject: true},
		]);
		expect(read.warnings).toEqual([
			'/p/.cardterm/config.json: hooks.PreToolUse[1] ignored: it must be {"matcher": "TOOL|TOOL", "hooks": [{"type": "command", "command": "…"}]}',
			'/p/.cardterm/config.json: hooks.Stop[0].hooks[1] ignored: it must be {"type": "command", "command": "…", "timeout": SECONDS (1 to 86400)}',
			'/p/.cardterm/config.json: hooks."SessionStart" ignored: cardterm runs PreToolUse, PostToolUse, Stop, Notification',
		]);
		// A changed command is another hook: it needs consent again.
		expect(hookConsentKey(read.entries[0]!)).not.toBe(hookConsentKey({...read.entries[0]!, command: './check.sh --loose'}));
	});
});
