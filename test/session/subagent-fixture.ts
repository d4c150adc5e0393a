/**
A corpus-shaped session folder tree with subagent children, built in a temp folder: the project
folder holds the parent's session folder and, beside it, the session folders of its children (header
`parentSession` + `origin: "subagent"`, a `subagent/descriptor` first), an unrelated session, and a
child of another parent. The parent has three subagent calls: one whose child is found by the time
it was created, one whose result names its child, and one whose child is missing.
*/
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

export const PARENT_ID = '11111111-1111-4111-8111-111111111111';
export const TIMED_CHILD = '22222222-2222-4222-8222-222222222222';
export const NAMED_CHILD = '33333333-3333-4333-8333-333333333333';
const T0 = 1_790_000_000_000;

type Line = Record<string, unknown>;

function writeSession(project: string, id: string, header: Record<string, unknown>, events: readonly Line[]): string {
	const folder = join(project, id);
	mkdirSync(folder, {recursive: true});
	const path = join(folder, 'session.jsonl');
	const lines = [{type: 'session', version: 0, id, cwd: '/tmp/proj', delegationDepth: 0, ...header}, ...events.map((event, seq) => ({...event, seq}))];
	writeFileSync(path, `${lines.map(line => JSON.stringify(line)).join('\n')}\n`);
	return path;
}

const user = (text: string, time: number): Line => ({type: 'user/message', time, data: {id: `u${time}`, role: 'user', content: [{type: 'text', text}], source: {kind: 'user'}}, surfaceOp: 'append'});
const answer = (text: string, time: number, turn = 1, step = 1): Line => ({type: 'assistant/message', time, data: {turn, step, message: {id: `a${time}`, role: 'assistant', content: [{type: 'text', text}], source: {kind: 'model'}}}, surfaceOp: 'append'});
const call = (callId: string, args: unknown, time: number, step: number): Line => ({type: 'tool/call', time, data: {turn: 1, step, callId, name: 'subagent', arguments: JSON.stringify(args)}});
const result = (callId: string, text: string, time: number, step: number): Line => ({type: 'tool/result', time, data: {turn: 1, step, message: {id: `r${time}`, role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content: [{type: 'text', text}], isError: false}]}}, surfaceOp: 'append'});

function childEvents(label: string, prompt: string, reply: string, time: number): Line[] {
	return [
		{type: 'subagent/descriptor', time, data: {version: 3, mode: 'one-shot', provider: 'spawn', label}},
		{type: 'turn/start', time, data: {turn: 1}},
		user(prompt, time + 1),
		answer(reply, time + 2),
		{type: 'turn/end', time: time + 3, data: {turn: 1, reason: {kind: 'completed'}}},
	];
}

/** Writes the tree; returns the parent's log path and the project folder. */
export function writeSubagentTree(): {readonly root: string; readonly project: string; readonly parentLog: string} {
	const root = mkdtempSync(join(tmpdir(), 'cardterm-subagents-'));
	const project = join(root, '--tmp-proj--');
	const parentLog = writeSession(project, PARENT_ID, {createdAt: T0}, [
		{type: 'turn/start', time: T0, data: {turn: 1}},
		user('Ask two helpers.', T0 + 1),
		call('sub-timed', {description: 'Check direct child', prompt: 'Reply with exactly DIRECT_CHILD_OK and nothing else.'}, T0 + 10, 1),
		result('sub-timed', 'DIRECT_CHILD_OK', T0 + 50, 1),
		call('sub-named', {description: 'Review', prompt: 'Review the code.'}, T0 + 60, 2),
		result('sub-named', `started subagent ${NAMED_CHILD}`, T0 + 61, 2),
		call('sub-missing', {description: 'Lost helper', prompt: 'Say hi.'}, T0 + 200, 3),
		result('sub-missing', 'hi', T0 + 210, 3),
		answer('Both helpers answered.', T0 + 300, 1, 4),
		{type: 'turn/end', time: T0 + 301, data: {turn: 1, reason: {kind: 'completed'}}},
	]);
	writeSession(project, TIMED_CHILD, {createdAt: T0 + 20, parentSession: PARENT_ID, origin: 'subagent', delegationDepth: 1}, childEvents('direct child', 'Reply with exactly DIRECT_CHILD_OK and nothing else.', 'DIRECT_CHILD_OK', T0 + 20));
	// Created after its call's result: only its id in the result ties it to its card.
	writeSession(project, NAMED_CHILD, {createdAt: T0 + 70, parentSession: PARENT_ID, origin: 'subagent', delegationDepth: 1}, childEvents('reviewer', 'Review the code.', 'The code is **fine**.', T0 + 70));
	// In the missing card's time window, but another session's child; and a session of its own.
	writeSession(project, '44444444-4444-4444-8444-444444444444', {createdAt: T0 + 205, parentSession: 'someone-else', origin: 'subagent', delegationDepth: 1}, childEvents('stranger', 'x', 'NOT_MINE', T0 + 205));
	writeSession(project, '55555555-5555-4555-8555-555555555555', {createdAt: T0 + 206}, [user('unrelated', T0 + 206)]);
	return {root, project, parentLog};
}
