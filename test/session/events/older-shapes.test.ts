/**
Older producers' message shapes (src/session/events/older-shapes.ts): DeepSeek Harness before 2026-07-28
wrote `assistant/message` flat (`{turn, step, content, provenance, usage}`), `steering/message`
flat and later nested, and a `user/message` may come either way. Each reads as the shape its arm
declares, so the answers show. The real-log tests run when ../shared/corpus/dsh-sessions exists
and say so when not.
*/
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {Conversation} from '../../../src/agent/conversation.js';
import {main} from '../../../src/cli/main.js';
import type {TranscriptEntry} from '../../../src/presentation/entry.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {currentShape} from '../../../src/session/events/older-shapes.js';
import {fakeIo} from '../../cli/cli-io-fake.js';
import {corpusDir} from '../../reliability/replay-check.js';
import {readEvent} from '../fold-events.js';
import {readAll, useTempDir, writeTemp} from '../helpers.js';

type Line = {type: string; seq: number; time: number; data: Record<string, unknown>; [key: string]: unknown};

/** An `assistant/message` line as the release before 2026-07-28 wrote it: the message's fields in `data`, its source as `provenance`. */
function flatAssistantLine(line: Line): Line {
	const {message, ...rest} = line.data as {message: {content: unknown; source?: {provider?: string; model?: string}}};
	const {provider, model} = message.source ?? {};
	return {...line, data: {...rest, content: message.content, provenance: {provider, model}}};
}

function entriesOf(lines: readonly Line[]): TranscriptEntry[] {
	const fold = new SessionFold(referencePresenters('/'));
	for (const line of lines) {
		fold.apply(readEvent(line));
	}

	return [...fold.entries];
}

/** A log read by the reader (packed rows expanded) and folded. */
async function foldLog(path: string): Promise<{events: SessionEvent[]; entries: TranscriptEntry[]}> {
	const {events, diagnostics} = await readAll(path);
	expect(diagnostics).toEqual([]);
	const fold = new SessionFold(referencePresenters('/'));
	for (const event of events) {
		fold.apply(event);
	}

	return {events, entries: [...fold.entries]};
}

/** The text of a recorded (nested) assistant message, when it has any. */
function answerOf(line: Line): string[] {
	const {content} = line.data.message as {content: Array<{type: string; text?: string}>};
	const text = content.filter(block => block.type === 'text').map(block => block.text).join('\n\n');
	return text.trim() === '' ? [] : [text];
}

function conversationOf(lines: readonly Line[]) {
	const conversation = new Conversation();
	for (const line of lines) {
		conversation.apply(readEvent(line));
	}

	return conversation.messages();
}

const text = (value: string) => [{type: 'text', text: value}];

describe('older producers\' message shapes', () => {
	let dir = '';
	useTempDir(made => {
		dir = made;
	});

	it('reads a flat assistant/message as the nested one: its answer, its reasoning, its usage and its calls', () => {
		const nested: Line = {type: 'assistant/message', seq: 1, time: 9, data: {turn: 1, step: 1, message: {role: 'assistant', content: [{type: 'reasoning', text: 'hm'}, {type: 'text', text: 'DONE'}, {type: 'tool-call', id: 'c1', name: 'read', arguments: '{}'}], source: {kind: 'model', provider: 'p', model: 'm'}}, usage: {inputTokens: 5, outputTokens: 1}}};
		const flat = flatAssistantLine(nested);
		expect(flat.data).not.toHaveProperty('message');
		expect(readEvent(flat).data).toEqual({turn: 1, step: 1, usage: {inputTokens: 5, outputTokens: 1}, message: {role: 'assistant', content: (nested.data.message as {content: unknown}).content, source: {kind: 'model', provider: 'p', model: 'm'}}});
		const turn = (line: Line): Line[] => [{type: 'turn/start', seq: 0, time: 1, data: {turn: 1}}, line, {type: 'turn/end', seq: 2, time: 10, data: {turn: 1, reason: {kind: 'completed'}}}];
		expect(entriesOf(turn(flat))).toEqual(entriesOf(turn(nested)));
		expect(entriesOf(turn(flat))).toContainEqual(expect.objectContaining({entry: 'assistant', text: 'DONE', reasoning: 'hm'}));
		// The conversation a resumed session sends is the same too.
		expect(conversationOf([flat])).toEqual(conversationOf([nested]));
		// A flat message with its own id, role and source, as some producers wrote it.
		expect(readEvent({type: 'assistant/message', seq: 0, time: 1, data: {turn: 2, step: 1, id: 'a-1', role: 'assistant', content: text('ok'), source: {kind: 'model'}}}).data)
			.toEqual({turn: 2, step: 1, message: {id: 'a-1', role: 'assistant', content: text('ok'), source: {kind: 'model'}}});
	});

	it('reads user and steering messages flat or nested in data.message, keeping the envelope\'s turn', () => {
		const flat = {content: text('look'), source: {kind: 'user'}};
		for (const type of ['user/message', 'steering/message']) {
			expect(readEvent({type, seq: 0, time: 1, data: {turn: 3, message: {id: 'u', role: 'user', ...flat}}}).data).toEqual({turn: 3, id: 'u', role: 'user', ...flat});
			expect(readEvent({type, seq: 0, time: 1, data: {turn: 3, ...flat}}).data).toEqual({turn: 3, ...flat});
		}

		expect(entriesOf([{type: 'steering/message', seq: 0, time: 1, data: {turn: 1, message: {role: 'user', ...flat}}}])).toMatchObject([{entry: 'user', source: 'steering', text: 'look'}]);
		expect(entriesOf([{type: 'user/message', seq: 0, time: 1, data: {message: {role: 'user', content: text('a plugin says'), source: {kind: 'plugin', plugin: 'p'}}}}])).toMatchObject([{entry: 'notice', source: 'p', summary: 'a plugin says'}]);
	});

	it('returns a payload in the current shape as it is, without a copy', () => {
		const data = {turn: 1, step: 1, message: {content: []}};
		expect(currentShape('assistant/message', data)).toBe(data);
		const user = {content: 'hi', message: {content: 'not read: the flat content wins'}};
		expect(currentShape('user/message', user)).toBe(user);
		// Nothing to lift: no content and no message.
		const usage = {turn: 1, step: 1, usage: {inputTokens: 1}};
		expect(currentShape('assistant/message', usage)).toBe(usage);
	});

	describe('on every log of the corpus', () => {
		const names = existsSync(corpusDir) ? readdirSync(corpusDir).filter(name => name.endsWith('.jsonl')).sort() : [];
		if (names.length === 0) {
			it(`is skipped: ${corpusDir} does not exist (the corpus lives outside the repository)`, () => {
				expect(existsSync(corpusDir)).toBe(false);
			});
			return;
		}

		it('shows every answer its assistant messages hold, as recorded and with them written flat', async () => {
			let answers = 0;
			for (const name of names) {
				const [headerLine, ...rest] = readFileSync(join(corpusDir, name), 'utf8').split('\n').filter(line => line !== '');
				const lines = rest.map(line => JSON.parse(line) as Line);
				const said = lines.flatMap(line => (line.type === 'assistant/message' ? answerOf(line) : []));
				answers += said.length;
				for (const [variant, written] of [['as recorded', lines], ['flat', lines.map(line => (line.type === 'assistant/message' ? flatAssistantLine(line) : line))]] as const) {
					const log = writeTemp(dir, `${variant}-${name}`, `${headerLine}\n${written.map(line => JSON.stringify(line)).join('\n')}\n`);
					const {entries} = await foldLog(log);
					expect(entries.flatMap(entry => (entry.entry === 'assistant' && entry.text.trim() !== '' ? [entry.text] : [])), `${name} (${variant})`).toEqual(said);
				}
			}

			expect(answers).toBeGreaterThan(40);
		});
	});

	describe('on a real log of the corpus', () => {
		const name = 'old--examples--acp-agent--fs-read--session.jsonl';
		const path = join(corpusDir, name);
		if (!existsSync(path)) {
			it(`is skipped: ${path} does not exist (the corpus lives outside the repository)`, () => {
				expect(existsSync(path)).toBe(false);
			});
			return;
		}

		const [headerLine, ...rest] = readFileSync(path, 'utf8').split('\n').filter(line => line !== '');
		const lines = rest.map(line => JSON.parse(line) as Line);

		it('shows the answers of its assistant messages written in the earlier release\'s flat shape, as in the nested one', async () => {
			const flat = lines.map(line => (line.type === 'assistant/message' ? flatAssistantLine(line) : line));
			expect(flat.filter(line => line.type === 'assistant/message' && 'content' in line.data)).toHaveLength(2);
			// The real person's message is flat already, as the contract's user/message is.
			expect(lines.find(line => line.type === 'user/message')?.data).toHaveProperty('content');
			const flatLog = writeTemp(dir, 'flat.jsonl', `${headerLine}\n${flat.map(line => JSON.stringify(line)).join('\n')}\n`);
			const original = await foldLog(path);
			expect(original.entries).toContainEqual(expect.objectContaining({entry: 'assistant', text: 'DONE'}));
			const read = await foldLog(flatLog);
			expect(read.entries).toEqual(original.entries);
			expect(read.events.filter(event => event.type === 'assistant/message').map(event => event.type === 'assistant/message' && event.data.message?.source)).toEqual([
				{kind: 'model', provider: 'deepseek-official', model: 'deepseek-v4-flash'},
				{kind: 'model', provider: 'deepseek-official', model: 'deepseek-v4-flash'},
			]);

			// Through the command too: `replay --json` writes what it writes for the log as recorded, the answer included.
			const [asRecorded, asFlat] = [fakeIo(), fakeIo()];
			expect(await main(['replay', path, '--json'], asRecorded)).toBe(0);
			expect(await main(['replay', flatLog, '--json'], asFlat)).toBe(0);
			expect(asFlat.out()).toBe(asRecorded.out());
			expect(asFlat.out().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as {entry: string; text?: string}).filter(entry => entry.entry === 'assistant').map(entry => entry.text)).toEqual(['', 'DONE']);
		});
	});
});
