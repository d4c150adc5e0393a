import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import type {AssistantEntry, TranscriptEntry} from '../../../src/presentation/entry.js';
import {MAX_OPEN_STREAMS, MAX_PREPARING_CALLS} from '../../../src/session/fold/open-streams.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import {openIndexedEntrySource, type IndexedEntrySource} from '../../../src/transcript/indexed-entry-source.js';
import {FoldedEntrySource} from '../../../src/transcript/folded-entry-source.js';

const header = {type: 'session', version: 0, id: 's-stream', createdAt: 1_790_000_000_000, cwd: '/home/u/proj', delegationDepth: 0};
const presenters = referencePresenters('/home/u/proj');
const folders: string[] = [];
const opened: IndexedEntrySource[] = [];

afterEach(() => {
	for (const source of opened.splice(0)) {
		source.close();
	}

	for (const folder of folders.splice(0)) {
		rmSync(folder, {recursive: true, force: true});
	}
});

type Line = Record<string, unknown>;

/**
A producer's log lines, written either one `assistant/chunk` per delta or with runs of three or more
deltas of one block packed into one row (§E3.7); both shapes hold the same seqs.
*/
class LogScript {
	readonly lines: Line[] = [];
	#seq = 0;
	#time = 1_790_000_000_000;
	readonly #packed: boolean;

	constructor(packed: boolean) {
		this.#packed = packed;
	}

	event(type: string, data: unknown, extra: Record<string, unknown> = {}): this {
		this.lines.push({type, seq: this.#seq++, time: this.#time++, data, ...extra});
		return this;
	}

	chunk(turn: number, step: number, chunk: Record<string, unknown>): this {
		return this.event('assistant/chunk', {turn, step, chunk});
	}

	/** Deltas of one block: packed into one row when packing and there are at least three. */
	deltas(turn: number, step: number, kind: 'text' | 'reasoning' | 'tool', index: number, parts: readonly string[], call?: {id: string; name: string}): this {
		if (this.#packed && parts.length >= 3) {
			const seq0 = this.#seq;
			const time0 = this.#time;
			this.#seq += parts.length;
			this.#time += parts.length;
			const dt = parts.slice(1).map(() => 1);
			this.lines.push(kind === 'tool'
				? {type: 'tool-call-chunks', seq0, time0, data: {turn, step, index, id: call!.id, name: call!.name, dt, args: parts}}
				: {type: kind === 'text' ? 'text-chunks' : 'reasoning-chunks', seq0, time0, data: {turn, step, index, dt, texts: parts}});
			return this;
		}

		for (const [k, part] of parts.entries()) {
			this.chunk(turn, step, kind === 'tool'
				? {type: 'tool-call-delta', index, id: call!.id, ...(k === 0 ? {name: call!.name} : {}), argumentsDelta: part}
				: {type: `${kind}-delta`, index, text: part});
		}

		return this;
	}

	write(): string {
		const folder = mkdtempSync(join(tmpdir(), 'cardterm-stream-'));
		folders.push(folder);
		const path = join(folder, 'session.jsonl');
		writeFileSync(path, `${[header, ...this.lines].map(line => JSON.stringify(line)).join('\n')}\n`);
		return path;
	}
}

const reasoningParts = ['The user', ' wants a', ' listing.'];
const textParts = ['## Plan\n\n', 'I will **list**', ' the files', ' with `ls`.'];
const argsParts = ['{"command"', ': "ls",', ' "description": "list"}'];

/** One turn whose step streams reasoning, text and a bash call; it stops after `until`. */
function openStep(packed: boolean, until: 'text' | 'tool' | 'message' | 'call' | 'step-end'): LogScript {
	const script = new LogScript(packed)
		.event('turn/start', {turn: 1})
		.event('step/start', {turn: 1, step: 1})
		.event('user/message', {id: 'u1', role: 'user', content: [{type: 'text', text: 'List the files.'}], source: {kind: 'user'}}, {surfaceOp: 'append'})
		.chunk(1, 1, {type: 'block-start', index: 0, blockType: 'reasoning'})
		.deltas(1, 1, 'reasoning', 0, reasoningParts)
		.chunk(1, 1, {type: 'block-start', index: 1, blockType: 'text'})
		.deltas(1, 1, 'text', 1, textParts);
	if (until === 'text') {
		return script;
	}

	script.chunk(1, 1, {type: 'block-start', index: 2, blockType: 'tool-call'}).deltas(1, 1, 'tool', 2, argsParts, {id: 'c1', name: 'bash'});
	if (until === 'tool') {
		return script;
	}

	if (until === 'step-end') {
		return script.event('step/end', {turn: 1, step: 1});
	}

	script.event('assistant/message', {turn: 1, step: 1, message: {id: 'a1', role: 'assistant', content: [
		{type: 'reasoning', text: reasoningParts.join('')},
		{type: 'text', text: textParts.join('')},
		{type: 'tool-call', id: 'c1', name: 'bash', arguments: argsParts.join('')},
	], source: {kind: 'model', provider: 'p', model: 'm'}}}, {surfaceOp: 'append'});
	if (until === 'message') {
		return script;
	}

	return script.event('tool/call', {turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: argsParts.join('')});
}

async function foldOf(path: string): Promise<SessionFold> {
	const log = await openSessionLog(path);
	const fold = new SessionFold(presenters);
	for await (const event of log.events) {
		fold.apply(event);
	}

	return fold;
}

async function indexOf(path: string, tail: boolean): Promise<IndexedEntrySource> {
	const source = await openIndexedEntrySource(path, {presenters: () => presenters, tail});
	opened.push(source);
	if (!tail) {
		await source.ready;
	}

	return source;
}

function allEntries(source: {count(): number; entry(index: number): TranscriptEntry | undefined}): Array<TranscriptEntry | undefined> {
	return Array.from({length: source.count()}, (_, index) => source.entry(index));
}

function kinds(entries: ReadonlyArray<TranscriptEntry | undefined>): string[] {
	return entries.map(entry => (entry === undefined ? 'missing' : (entry.entry === 'card' ? `card ${entry.card.name} ${entry.card.status}` : (entry.entry === 'assistant' && entry.streaming ? 'streaming' : entry.entry))));
}

describe('the streaming tail of an open step', () => {
	for (const packed of [false, true]) {
		const shape = packed ? 'packed chunk rows' : 'one event per delta';

		it(`shows the partial reasoning, text and a preparing row, and the fold, the index and its tail window agree (${shape})`, async () => {
			const path = openStep(packed, 'tool').write();
			const fold = await foldOf(path);
			expect(fold.entries.map(entry => entry.entry)).toEqual(['user']);
			expect(fold.tail).toHaveLength(1);
			expect(fold.tail[0]).toMatchObject({
				entry: 'assistant', streaming: true, interrupted: false, turn: 1, step: 1,
				reasoning: 'The user wants a listing.', text: '## Plan\n\nI will **list** the files with `ls`.', preparing: ['bash'],
			});
			const expected = [...fold.entries, ...fold.tail];
			for (const tail of [false, true]) {
				// one source at a time
				const source = await indexOf(path, tail);
				expect(allEntries(source)).toEqual(expected);
			}

			const folded = new FoldedEntrySource(new SessionFold(presenters));
			await folded.consume((await openSessionLog(path)).events);
			expect(allEntries(folded)).toEqual(expected);
		});
	}

	it('is the same entry whichever shape the log stores its deltas in', async () => {
		for (const until of ['text', 'tool', 'message', 'call', 'step-end'] as const) {
			// pairs of small logs
			const [plain, packed] = await Promise.all([foldOf(openStep(false, until).write()), foldOf(openStep(true, until).write())]);
			expect([...packed.entries, ...packed.tail]).toEqual([...plain.entries, ...plain.tail]);
		}
	});

	it('grows delta by delta: every delta makes a new tail entry with a later revision', () => {
		const fold = new SessionFold(presenters);
		const seen: AssistantEntry[] = [];
		for (const line of openStep(false, 'text').lines) {
			const change = fold.apply(line as never);
			if (change.tailChanged === true) {
				seen.push(fold.tail[0]!);
			}
		}

		expect(seen.map(entry => entry.reasoning.length)).toEqual([8, 16, 25, 25, 25, 25, 25]);
		expect(seen.map(entry => entry.text)).toEqual(['', '', '', '## Plan\n\n', '## Plan\n\nI will **list**', '## Plan\n\nI will **list** the files', '## Plan\n\nI will **list** the files with `ls`.']);
		const revisions = seen.map(entry => entry.revision);
		expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
		expect(new Set(revisions).size).toBe(revisions.length);
	});

	it('the message replaces the streaming entry at the same place with a later revision; the preparing row stays until its tool/call', async () => {
		const atMessage = await foldOf(openStep(false, 'message').write());
		const streaming = (await foldOf(openStep(false, 'tool').write())).tail[0]!;
		expect(kinds([...atMessage.entries, ...atMessage.tail])).toEqual(['user', 'assistant', 'streaming']);
		const answer = atMessage.entries[1] as AssistantEntry;
		expect(answer).toMatchObject({text: streaming.text, reasoning: streaming.reasoning, streaming: false, interrupted: false, preparing: []});
		expect(answer.revision).toBeGreaterThan(streaming.revision);
		// After the message only the call being prepared is left of the stream.
		expect(atMessage.tail[0]).toMatchObject({text: '', reasoning: '', preparing: ['bash']});

		const path = openStep(false, 'call').write();
		const atCall = await foldOf(path);
		expect(kinds([...atCall.entries, ...atCall.tail])).toEqual(['user', 'assistant', 'card bash running']);
		expect(atCall.tail).toEqual([]);
		const source = await indexOf(path, false);
		expect(allEntries(source)).toEqual(atCall.entries);
		expect((source.entry(1) as AssistantEntry).revision).toBe(answer.revision);
	});

	it('of two calls being prepared, the second keeps its row after the first call starts', async () => {
		const script = new LogScript(false)
			.event('turn/start', {turn: 1})
			.deltas(1, 1, 'tool', 0, ['{"path"', ': "a"}'], {id: 'r1', name: 'read'})
			.deltas(1, 1, 'tool', 1, ['{"path"', ': "b"}'], {id: 'r2', name: 'grep'})
			.event('tool/call', {turn: 1, step: 1, callId: 'r1', name: 'read', arguments: '{"path": "a"}'});
		const fold = await foldOf(script.write());
		expect(kinds([...fold.entries, ...fold.tail])).toEqual(['card read running', 'streaming']);
		expect(fold.tail[0]!.preparing).toEqual(['grep']);
		// A step of tool calls alone leaves no entry of its own once its calls started.
		script.event('tool/call', {turn: 1, step: 1, callId: 'r2', name: 'grep', arguments: '{"path": "b"}'});
		const after = await foldOf(script.write());
		expect(kinds([...after.entries, ...after.tail])).toEqual(['card read running', 'card grep running']);
	});

	it('a step that ends without its message keeps the streamed prefix as an interrupted entry and drops its preview; the index agrees', async () => {
		const path = openStep(true, 'step-end').write();
		const fold = await foldOf(path);
		expect(fold.tail).toEqual([]);
		expect(kinds(fold.entries)).toEqual(['user', 'assistant']);
		expect(fold.entries[1]).toMatchObject({text: '## Plan\n\nI will **list** the files with `ls`.', reasoning: 'The user wants a listing.', interrupted: true, streaming: false});
		expect(allEntries(await indexOf(path, false))).toEqual(fold.entries);
	});

	it('an interrupted message keeps the prefix that streamed', async () => {
		const script = openStep(false, 'text').event('assistant/message', {turn: 1, step: 1, interrupted: true, message: {id: 'a1', role: 'assistant', content: [{type: 'text', text: '## Plan\n\nI will **list**'}], source: {kind: 'model'}}});
		const fold = await foldOf(script.write());
		expect(fold.tail).toEqual([]);
		expect(fold.entries[1]).toMatchObject({text: '## Plan\n\nI will **list**', interrupted: true, streaming: false});
	});

	it('a retried model attempt drops what the failed attempt streamed', async () => {
		const script = openStep(false, 'tool').event('llm/retry', {turn: 1, attempt: 2, reason: 'overloaded'});
		const fold = await foldOf(script.write());
		expect(fold.tail).toEqual([]);
		expect(kinds(fold.entries)).toEqual(['user', 'notice']);
		script.deltas(1, 1, 'text', 1, ['Again.']);
		const again = await foldOf(script.write());
		expect(again.tail.map(entry => entry.text)).toEqual(['Again.']);
	});

	it('a complete step with chunks folds to the same entries as without them', async () => {
		const withChunks = await foldOf(openStep(true, 'call').write().toString());
		const script = new LogScript(false);
		for (const line of openStep(false, 'call').lines) {
			if (line.type !== 'assistant/chunk') {
				script.lines.push(line);
			}
		}

		const without = await foldOf(script.write());
		expect(kinds(withChunks.entries)).toEqual(kinds(without.entries));
		expect(withChunks.entries.map(entry => entry.entry === 'card' ? entry.card.seq : entry.seq)).toEqual(without.entries.map(entry => entry.entry === 'card' ? entry.card.seq : entry.seq));
	});
});

describe('the streaming tail of a hostile log', () => {
	it('keeps a bounded number of open streams and preparing rows, however many the log opens', () => {
		const fold = new SessionFold(presenters);
		let seq = 0;
		for (let step = 1; step <= 2000; step++) {
			fold.apply({type: 'assistant/chunk', seq: seq++, time: 0, data: {turn: 1, step, chunk: {type: 'text-delta', index: 0, text: `step ${step}`}}} as never);
		}

		for (let call = 0; call < 5000; call++) {
			fold.apply({type: 'assistant/chunk', seq: seq++, time: 0, data: {turn: 1, step: 2000, chunk: {type: 'tool-call-delta', index: 1, id: `c${call}`, name: 'bash', argumentsDelta: '{'}}} as never);
		}

		expect(fold.tail.length).toBe(MAX_OPEN_STREAMS);
		// The newest streams are the ones kept.
		expect(fold.tail.at(-1)).toMatchObject({step: 2000, text: 'step 2000'});
		expect(fold.tail.at(-1)!.preparing).toHaveLength(MAX_PREPARING_CALLS);
		expect(fold.entries).toEqual([]);
	});
});
