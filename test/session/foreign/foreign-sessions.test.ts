import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {cardsOf, type TranscriptEntry} from '../../../src/presentation/entry.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import type {LogDiagnostic} from '../../../src/session/reader/log-errors.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import type {SessionHeader} from '../../../src/session/events/events.js';
import {childOfCard, findChildSessions, isSubagentCard} from '../../../src/session/store/child-sessions.js';

const fixtures = join(import.meta.dirname, '../../fixtures/foreign-sessions');
const fileOf = (agent: string): string => join(fixtures, agent, readdirSync(join(fixtures, agent)).find(name => name.endsWith('.jsonl'))!);

async function fold(path: string): Promise<{entries: readonly TranscriptEntry[]; header: Record<string, unknown>; diagnostics: LogDiagnostic[]}> {
	const diagnostics: LogDiagnostic[] = [];
	const log = await openSessionLog(path, {onDiagnostic: d => diagnostics.push(d)});
	const folded = new SessionFold(referencePresenters(log.header.cwd ?? '/'));
	for await (const event of log.events) {
		folded.apply(event);
	}

	return {entries: folded.entries, header: log.header, diagnostics};
}

/** Each card as `tool → card kind (result view, else call view) · outcome`. */
function cardLines(entries: readonly TranscriptEntry[]): string[] {
	return cardsOf(entries).map(card => `${card.name} → ${(card.resultView ?? card.callView)?.card ?? 'none'} · ${card.outcome}`);
}

const users = (entries: readonly TranscriptEntry[]): string[] => entries.flatMap(entry => (entry.entry === 'user' ? [entry.text] : []));

describe('foreign sessions written by the real agents (test/fixtures/foreign-sessions)', () => {
	it('reads pi 0.73.1: bash as terminals with their exit, edit and write as diffs, read, grep, a failed find, a call the killed process left open', async () => {
		const {entries, header, diagnostics} = await fold(fileOf('pi'));
		expect(diagnostics).toEqual([]);
		expect(header).toMatchObject({id: '01a24993-9445-7682-b0c4-880dfa5e5ce6', cwd: '/tmp/cardterm-foreign/pi/project', producer: {agent: 'pi', format: 'pi', version: 'session v3'}});
		expect(users(entries)).toEqual(['Make greet friendlier and add a farewell module.', 'Now wait for the slow job.']);
		expect(cardLines(entries)).toEqual([
			'pi:bash → terminal · ok',
			'pi:read → read · ok',
			'pi:grep → search · ok',
			'pi:find → generic · error',
			'pi:edit → diff · ok',
			'pi:write → diff · ok',
			'pi:bash → terminal · failed',
			'pi:bash → terminal · interrupted',
		]);
	});

	it('reads Claude Code 2.1.197: a denied write, a failed command, a subagent, an MCP call, a command the person interrupted', async () => {
		const {entries, header, diagnostics} = await fold(fileOf('claude'));
		expect(diagnostics).toEqual([]);
		expect(header).toMatchObject({id: '812438e1-f9de-4649-bac1-c3d23741f754', cwd: '/tmp/cardterm-foreign/claude/project', producer: {agent: 'Claude Code', version: '2.1.197'}});
		expect(users(entries)).toEqual(['Make greet friendlier and add a farewell module.', 'Now wait for the slow job.']);
		expect(cardLines(entries)).toEqual([
			'claude-code:Bash → terminal · ok',
			'claude-code:Read → read · ok',
			'claude-code:Grep → search · ok',
			'claude-code:Glob → search · ok',
			'claude-code:TodoWrite → generic · error',
			'claude-code:Edit → diff · ok',
			'claude-code:Write → diff · denied',
			'claude-code:Task → generic · ok',
			'claude-code:Bash → terminal · failed',
			'claude-code:mcp__notes__save → generic · error',
			'claude-code:Bash → terminal · cancelled',
		]);
		expect(entries.some(entry => entry.entry === 'todo')).toBe(true);
		const edit = cardsOf(entries)[5]!;
		expect(edit.resultView).toMatchObject({card: 'diff', diffs: [{path: 'src/greet.js', oldStart: 1, newStart: 1}]});
		const turns = entries.flatMap(entry => (entry.entry === 'turn' ? [entry.outcome.text] : []));
		expect(turns).toEqual(['completed', 'cancelled']);
	});

	it('finds the Task card\'s child session where Claude Code saved it', async () => {
		const path = fileOf('claude');
		const {entries, header} = await fold(path);
		const children = await findChildSessions(path, header as SessionHeader);
		expect(children.map(child => child.id)).toEqual(['a4b6fdcea97dab18b']);
		const task = cardsOf(entries).find(card => card.name === 'claude-code:Task')!;
		expect(isSubagentCard(task)).toBe(true);
		expect(childOfCard(task, children)?.path).toBe(join(fixtures, 'claude', '812438e1-f9de-4649-bac1-c3d23741f754', 'subagents', 'agent-a4b6fdcea97dab18b.jsonl'));
	});

	it('reads Claude Code\'s subagent transcript saved beside the session', async () => {
		const dir = join(fixtures, 'claude', '812438e1-f9de-4649-bac1-c3d23741f754', 'subagents');
		const {entries} = await fold(join(dir, readdirSync(dir).find(name => name.endsWith('.jsonl'))!));
		expect(cardLines(entries)).toEqual(['claude-code:Read → read · ok']);
	});

	it('reads Codex 0.171.0: exec_command as terminals, an apply_patch command as a diff of both files, an aborted command', async () => {
		const {entries, header, diagnostics} = await fold(fileOf('codex'));
		expect(diagnostics).toEqual([]);
		expect(header).toMatchObject({cwd: '/tmp/cardterm-foreign/codex/project', producer: {agent: 'Codex', version: '0.171.0'}});
		expect(users(entries)).toEqual(['Make greet friendlier and add a farewell module.', 'Now wait for the slow job.']);
		expect(cardLines(entries)).toEqual([
			'codex:exec_command → terminal · ok',
			'codex:exec_command → terminal · ok',
			'codex:exec_command → terminal · ok',
			'codex:exec_command → diff · ok',
			'codex:exec_command → terminal · failed',
			'codex:exec_command → terminal · cancelled',
		]);
		const patch = cardsOf(entries)[3]!.resultView;
		expect(patch).toMatchObject({card: 'diff', diffs: [{path: 'src/farewell.js', oldText: null}, {path: 'src/greet.js', oldStart: 1}]});
		const first = cardsOf(entries)[0]!.resultView;
		expect(first).toMatchObject({card: 'terminal', exitCode: 0});
		expect((first as {output: string}).output).toMatch(/^total 16\n/);
	});

	it('reads Gemini CLI 0.10.0\'s chat saved as one JSON document (no newline at its end)', async () => {
		const dir = join(fixtures, 'gemini-0.10');
		const {entries, header, diagnostics} = await fold(join(dir, readdirSync(dir).find(name => name.endsWith('.json'))!));
		expect(diagnostics).toEqual([]);
		expect(header).toMatchObject({id: 'bf58b750-4d02-4126-8f29-3063e69bf4f7', producer: {agent: 'Gemini CLI'}});
		expect(users(entries)).toEqual(['Make greet friendlier and add a farewell module.']);
		expect(entries.flatMap(entry => (entry.entry === 'assistant' ? [[entry.text, entry.reasoning]] : []))).toEqual([['Let me look at the project.', 'Look around first.']]);
	});

	it('reads Gemini CLI 0.61.0: each rewritten message once, shell exits, the edit\'s diff, grep matches, the todo list', async () => {
		const {entries, header, diagnostics} = await fold(fileOf('gemini'));
		expect(diagnostics).toEqual([]);
		expect(header).toMatchObject({id: 'a324c69e-ae5c-42fd-8deb-95fd63e61b42', cwd: '/tmp/cardterm-foreign/gemini/project', producer: {agent: 'Gemini CLI'}});
		expect(users(entries)).toEqual(['Make greet friendlier and add a farewell module.']);
		expect(cardLines(entries)).toEqual([
			'gemini-cli:run_shell_command → terminal · ok',
			'gemini-cli:read_file → read · ok',
			'gemini-cli:grep_search → search · ok',
			'gemini-cli:glob → search · ok',
			'gemini-cli:write_todos → generic · ok',
			'gemini-cli:replace → diff · ok',
			'gemini-cli:write_file → diff · ok',
			'gemini-cli:run_shell_command → terminal · failed',
		]);
		expect(entries.filter(entry => entry.entry === 'assistant').map(entry => entry.entry === 'assistant' ? entry.text : '')).toEqual(['Let me look at the project.', 'Done: greet now says **hello, NAME!** and farewell.js is new.']);
	});
	it('reads opencode 1.18.33\'s export: bash with its exit, read, grep matches, glob, the todo list, edit and write as diffs, a call its rules denied, a call left running', async () => {
		const dir = join(fixtures, 'opencode');
		const {entries, header, diagnostics} = await fold(join(dir, readdirSync(dir).find(name => name.endsWith('.json'))!));
		expect(diagnostics).toEqual([]);
		expect(header).toMatchObject({id: 'ses_db5d9a862ffesY1b7n6U2Btwa5', cwd: '/tmp/cardterm-foreign/opencode/project', title: 'Friendlier greeting', producer: {agent: 'opencode', format: 'opencode', version: '1.18.33'}});
		// opencode run quotes a message with spaces: the person's words as it saved them.
		expect(users(entries)).toEqual(['"Make greet friendlier and add a farewell module."', '"Now wait for the slow job."']);
		expect(cardLines(entries)).toEqual([
			'opencode:bash → terminal · ok',
			'opencode:read → read · ok',
			'opencode:grep → search · ok',
			'opencode:glob → search · ok',
			'opencode:todowrite → generic · ok',
			'opencode:edit → diff · ok',
			'opencode:write → diff · ok',
			'opencode:bash → terminal · denied',
			'opencode:bash → terminal · failed',
			'opencode:bash → terminal · interrupted',
		]);
		const cards = cardsOf(entries);
		expect(cards[1]!.resultView).toMatchObject({card: 'read', path: 'src/greet.js', offset: 1, totalLines: 3});
		expect(cards[2]!.resultView).toMatchObject({card: 'search', shape: 'matches', files: [{path: 'src/greet.js', matches: [{lineNumber: 2}]}], total: 1});
		expect(cards[3]!.resultView).toMatchObject({card: 'search', shape: 'paths', paths: ['src/greet.js']});
		expect(cards[5]!.resultView).toMatchObject({card: 'diff', diffs: [{path: 'src/greet.js', oldStart: 1, newStart: 1}]});
		expect(cards[8]!.resultView).toMatchObject({card: 'terminal', exitCode: 3, output: ''});
		expect(entries.some(entry => entry.entry === 'todo')).toBe(true);
		expect(entries.flatMap(entry => (entry.entry === 'assistant' ? [[entry.text, entry.reasoning]] : []))[0]).toEqual(['Let me look at the project.', 'Look around first.']);
		const turns = entries.flatMap(entry => (entry.entry === 'turn' ? [entry.outcome.text] : []));
		expect(turns).toEqual(['completed', 'interrupted (crash)']);
	});
});
