/**
Template events for log-level fuzzing: a real session through the reference tools (bash, read,
write, edit, grep, glob, todo_write, an unknown tool) recorded in memory, plus hand-made web_search
and web_fetch events with the meta their presenters read (those tools need the network). Their
string leaves can then be replaced with hostile bytes, so every presenter runs on hostile input.
*/
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {openSession} from '../../src/host/open-session.js';
import type {SessionEvent, SessionHeader} from '../../src/session/events/events.js';

/** A recorded session: its header (cwd is the removed workspace) and events with contiguous seqs. */
export type TemplateSession = {readonly header: SessionHeader; readonly events: readonly SessionEvent[]};

function webEvents(firstSeq: number, time: number): SessionEvent[] {
	const call = (seq: number, callId: string, name: string, args: unknown): SessionEvent => ({type: 'tool/call', seq, time, data: {turn: 99, step: 1, callId, name, arguments: JSON.stringify(args)}});
	const result = (seq: number, callId: string, text: string, meta: unknown): SessionEvent => ({
		type: 'tool/result', seq, time: time + 5,
		data: {turn: 99, step: 1, message: {role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result', toolCallId: callId, content: [{type: 'text', text}], isError: false}]}, meta},
	});
	return [
		{type: 'turn/start', seq: firstSeq, time, data: {turn: 99}},
		{type: 'step/start', seq: firstSeq + 1, time, data: {turn: 99, step: 1}},
		call(firstSeq + 2, 'web-1', 'web_search', {queries: ['terminal escape sequences']}),
		result(firstSeq + 3, 'web-1', 'Answer text\n\nSources:\n- [Title](https://example.com/a)', {truncated: false, answer: 'An answer.', sources: [{url: 'https://example.com/a', title: 'Title', snippet: 'Snippet', publishedAt: '2026-01-01'}]}),
		call(firstSeq + 4, 'web-2', 'web_fetch', {url: 'https://example.com/page'}),
		result(firstSeq + 5, 'web-2', '# Page\n\nBody text', {url: 'https://example.com/page', statusCode: 200, truncated: false}),
		call(firstSeq + 6, 'other-1', 'hologram_projector', {beam: 'wide'}),
		result(firstSeq + 7, 'other-1', 'projected', {card: 'hologram'}),
		{type: 'step/end', seq: firstSeq + 8, time, data: {turn: 99, step: 1}},
		{type: 'turn/end', seq: firstSeq + 9, time, data: {turn: 99, reason: {kind: 'completed'}}},
	];
}

/** Runs the template session in a temporary workspace (removed afterwards). */
export async function recordTemplateSession(): Promise<TemplateSession> {
	const workspace = await mkdtemp(join(tmpdir(), 'cardterm-template-'));
	try {
		await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
		const session = await openSession({cwd: workspace});
		const events: SessionEvent[] = [];
		session.log.listen(event => {
			events.push(event);
		});
		const signal = new AbortController().signal;
		const run = async (name: string, args: unknown) => session.runtime.runCall(name, args, {signal});
		await run('bash', {command: 'printf "one\\ntwo\\n"; printf "err\\n" >&2; exit 3', description: 'Print and fail'});
		await run('write', {file_path: 'made.txt', content: 'x\ny\n'});
		await run('edit', {file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA'});
		await run('edit', {file_path: 'notes.txt', old_string: 'missing', new_string: 'x'});
		await run('read', {file_path: 'notes.txt'});
		await run('grep', {pattern: 'alpha|BETA'});
		await run('glob', {pattern: '*.txt'});
		await run('todo_write', {todos: [{content: 'Check output', status: 'in_progress'}]});
		await run('nope', {});
		await session.close();
		const last = events.at(-1)!;
		return {header: session.header, events: [...events, ...webEvents(last.seq + 1, last.time + 1)]};
	} finally {
		await rm(workspace, {recursive: true, force: true});
	}
}
