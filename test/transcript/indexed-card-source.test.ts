import {existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {cardsOf, type TranscriptEntry} from '../../src/presentation/entry.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {openIndexedEntrySource, type IndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import type {Card} from '../../src/presentation/card.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {EventScript} from '../session/fold-events.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const corpus = '/work/shared/corpus/dsh-sessions';
const header = {type: 'session', version: 0, id: 's-indexed', createdAt: 1_790_000_000_000, cwd: '/home/u/proj', delegationDepth: 0};
const opened: IndexedEntrySource[] = [];
const folders: string[] = [];

afterEach(() => {
	for (const source of opened.splice(0)) {
		source.close();
	}

	for (const folder of folders.splice(0)) {
		rmSync(folder, {recursive: true, force: true});
	}
});

/** The full fold of a log, as `replay` builds it. */
async function fullFold(path: string): Promise<SessionFold> {
	const log = await openSessionLog(path);
	const fold = new SessionFold(referencePresenters(log.header.cwd ?? process.cwd()));
	for await (const event of log.events) {
		fold.apply(event);
	}

	return fold;
}

async function indexed(path: string, options: {tailBytes?: number; tail?: boolean; cacheSize?: number; cacheBytes?: number} = {}): Promise<IndexedEntrySource> {
	const source = await openIndexedEntrySource(path, {presenters: found => referencePresenters(found.cwd ?? process.cwd()), ...options});
	opened.push(source);
	return source;
}

function allEntries(source: IndexedEntrySource): Array<TranscriptEntry | undefined> {
	return Array.from({length: source.count()}, (_, index) => source.entry(index));
}

function allCards(source: IndexedEntrySource): Card[] {
	return cardsOf(allEntries(source).filter(entry => entry !== undefined));
}

function writeLog(lines: readonly string[]): string {
	const folder = mkdtempSync(join(tmpdir(), 'cardterm-indexed-'));
	folders.push(folder);
	const path = join(folder, 'session.jsonl');
	writeFileSync(path, `${[JSON.stringify(header), ...lines].join('\n')}\n`);
	return path;
}

function progress(script: EventScript, callId: string, text: string): void {
	script.push('cardterm/tool-progress', {callId, text}, {ignorable: true});
}

/** Every pairing rule of the fold, with damaged lines between. */
function edgeCaseLines(): string[] {
	const script = new EventScript();
	script.push('turn/start', {turn: 1});
	script.call('a', 'bash', {command: 'echo a', description: 'a'});
	progress(script, 'a', 'line 1\n');
	progress(script, 'a', 'line 2\n');
	script.result('a', 'a done');
	// Two open calls with one id: results pair with the most recent first.
	script.call('dup', 'read', {path: 'one.txt'});
	script.call('dup', 'read', {path: 'two.txt'});
	script.result('dup', 'second');
	script.result('dup', 'first', {isError: true});
	// Interrupted by its step's end, then settled late.
	script.call('late', 'bash', {command: 'sleep 9', description: 'late'}, {turn: 1, step: 2});
	progress(script, 'late', 'waiting\n');
	script.push('step/end', {turn: 1, step: 2});
	script.result('late', 'finally');
	// Interrupted and never settled.
	script.call('lost', 'glob', {pattern: '*.ts'}, {turn: 1, step: 3});
	script.push('turn/end', {turn: 1});
	// Orphans: announced by an assistant message, and not.
	script.push('assistant/message', {turn: 2, step: 1, message: {role: 'assistant', content: [{type: 'tool-call', id: 'ann', name: 'grep', arguments: {pattern: 'x'}}]}});
	script.result('ann', 'announced orphan');
	script.result('ghost', 'plain orphan');
	// A second result for a settled call is an orphan too.
	script.result('a', 'again');
	// Compaction rewrites are not executions.
	const kept = script.call('kept', 'read', {path: 'k.txt'});
	script.result('kept', 'rewritten', {surfaceOp: {op: 'replace', start: kept.seq, end: kept.seq}});
	script.result('kept', 'real', {meta: {note: 1}});
	// Code Mode sub-calls, with a parent and without one.
	script.call('run', 'run_code', {code: 'await tools.read({path: "x"})'});
	script.push('tool/code-dispatch-start', {parentCallId: 'run', subCallId: 'run.1', name: 'read', arguments: {path: 'x'}});
	script.push('tool/code-dispatch', {parentCallId: 'run', subCallId: 'run.1', name: 'read', isError: false, content: [{type: 'text', text: 'x'}]});
	script.push('tool/code-dispatch-start', {parentCallId: 'gone', subCallId: 'gone.1', name: 'glob', arguments: {pattern: '*'}});
	script.push('tool/code-dispatch', {parentCallId: 'gone', subCallId: 'gone.1', name: 'glob', isError: true, content: [{type: 'text', text: 'no'}]});
	script.result('run', 'ran');
	// Older producers' flat result shape, for a call and as an orphan.
	script.call('flat', 'bash', {command: 'echo flat', description: 'flat'}, {turn: 4, step: 1});
	script.push('tool/result', {turn: 4, step: 1, callId: 'flat', content: [{type: 'text', text: 'flat done'}], isError: false});
	script.push('tool/result', {callId: 'flat-orphan', content: [{type: 'text', text: 'no call'}], isError: true});
	// Approvals, a cancellation, a crash repair, and cards still running at the end.
	script.call('ask', 'write', {path: 'a.txt', content: 'hi'});
	script.push('approval/asked', {id: 'ap1', toolName: 'write', callId: 'ask', reason: 'outside src/'});
	script.push('approval/decided', {id: 'ap1', outcome: 'allow-once'});
	script.result('ask', 'written');
	script.call('stop', 'bash', {command: 'sleep 30', description: 'stop'});
	script.result('stop', 'cancelled', {isError: true, error: {name: 'AbortError', code: 'ABORTED'}});
	script.call('crash', 'bash', {command: 'make', description: 'crash'});
	script.result('crash', 'unknown', {isError: true, error: {name: 'ToolError', code: 'TOOL_OUTCOME_UNKNOWN'}});
	script.call('open', 'bash', {command: 'tail -f log', description: 'open'}, {turn: 3, step: 1});
	progress(script, 'open', 'still going\n');
	progress(script, 'open', 'and going\n');
	script.call('bad args', 'edit', '{not json');
	const lines = script.events.map(event => JSON.stringify(event));
	// A malformed line and a repeated seq, which the reader skips.
	lines.splice(5, 0, '{"type":"tool/call",');
	lines.splice(12, 0, JSON.stringify({...script.events[3], data: {callId: 'repeat', name: 'read', arguments: '{}'}}));
	return lines;
}

/** A long, regular log of `count` cards (about 300 bytes each). */
function longLog(count: number): string {
	const script = new EventScript();
	for (let index = 0; index < count; index++) {
		script.call(`c${index}`, 'bash', {command: `echo ${index}`, description: `card ${index}`}, {turn: 1, step: index});
		script.result(`c${index}`, `output ${index}`, {isError: index % 7 === 0});
	}

	return writeLog(script.events.map(event => JSON.stringify(event)));
}

describe('IndexedEntrySource', () => {
	const logs = [
		join(root, 'test/fixtures/logs/spec-example.jsonl'),
		join(root, 'test/fixtures/logs/basic.jsonl'),
		join(root, 'examples/demo-session.jsonl'),
		...(existsSync(corpus) ? readdirSync(corpus).filter(name => name.endsWith('.jsonl')).sort().map(name => join(corpus, name)) : []),
	];

	it.each(logs)('builds every card of %s exactly as the full fold does', async path => {
		const fold = await fullFold(path);
		const source = await indexed(path, {tail: false});
		await source.ready;
		expect(source.error).toBeUndefined();
		expect(source.count()).toBe(fold.entries.length);
		expect(allEntries(source)).toEqual(fold.entries);
		expect(source.counts()).toEqual(fold.counts);
	});

	it('follows every pairing rule of the fold, through damaged lines, with a two-card cache', async () => {
		const path = writeLog(edgeCaseLines());
		const fold = await fullFold(path);
		const source = await indexed(path, {tail: false, cacheSize: 2});
		await source.ready;
		expect(cardsOf(fold.entries).map(card => `${card.callId}:${card.status}`)).toEqual([
			'a:ok', 'dup:error', 'dup:ok', 'late:ok', 'lost:interrupted', 'ann:ok', 'ghost:ok', 'a:ok', 'kept:ok', 'run:ok', 'gone.1:error', 'flat:ok', 'flat-orphan:error', 'ask:ok', 'stop:cancelled', 'crash:interrupted', 'open:running', 'bad args:running',
		]);
		expect(allEntries(source)).toEqual(fold.entries);
		// Built again after eviction, the cards are still equal.
		expect(allEntries(source).reverse()).toEqual([...fold.entries].reverse());
		expect(source.counts()).toEqual({pending: 0, running: 2, ok: 10, failed: 0, error: 3, denied: 0, cancelled: 1, interrupted: 2});
		expect(source.counts()).toEqual(fold.counts);
	});

	it('keeps a built card while the cache has room, and rebuilds an equal one once the byte budget evicted it', async () => {
		const path = writeLog(edgeCaseLines());
		const roomy = await indexed(path, {tail: false});
		const tight = await indexed(path, {tail: false, cacheBytes: 1});
		await Promise.all([roomy.ready, tight.ready]);
		expect(roomy.entry(3)).toBe(roomy.entry(3));
		const first = tight.entry(3);
		tight.entry(4);
		const again = tight.entry(3);
		expect(again).not.toBe(first);
		expect(again).toEqual(first);
		expect(allEntries(tight)).toEqual(allEntries(roomy));
	});

	it('reports the damaged lines the reader reports', async () => {
		const path = writeLog(edgeCaseLines());
		const reported: string[] = [];
		const source = await openIndexedEntrySource(path, {presenters: () => referencePresenters('/'), tail: false, onDiagnostic: diagnostic => reported.push(`${diagnostic.line} ${diagnostic.kind}`)});
		opened.push(source);
		await source.ready;
		const read = await openSessionLog(path);
		for await (const _event of read.events) {
			// Drain to collect the reader's diagnostics.
		}

		expect(reported).toEqual(read.diagnostics.map(diagnostic => `${diagnostic.line} ${diagnostic.kind}`));
		expect(reported).toEqual(['7 malformed', '14 seq-repeat']);
	});

	it('indexes a zstd log through a temporary copy, removed on close', async () => {
		const fold = await fullFold(join(root, 'test/fixtures/logs/basic.jsonl'));
		const source = await indexed(join(root, 'test/fixtures/logs/basic.jsonl.zst'));
		await source.ready;
		expect(allEntries(source)).toEqual(fold.entries);
		expect(source.generation()).toBe(0);
		expect(existsSync(source.path)).toBe(true);
		source.close();
		expect(existsSync(source.path)).toBe(false);
	});

	it('opens on the newest cards of the tail window, then switches to the full index keeping card identities', async () => {
		const path = longLog(400);
		const fold = await fullFold(path);
		const source = await indexed(path, {tailBytes: 4096});
		const changes: number[] = [];
		source.subscribe(() => changes.push(source.count()));
		// Before the index: only cards whose call lies inside the last 4 KB, all final.
		const tailCount = source.count();
		expect(source.complete()).toBe(false);
		expect(source.generation()).toBe(0);
		expect(tailCount).toBeGreaterThan(5);
		expect(tailCount).toBeLessThan(40);
		const tail = allCards(source);
		expect(tail).toEqual(cardsOf(fold.entries).slice(-tailCount));
		expect(source.counts()).toEqual({pending: 0, running: 0, ok: tail.filter(card => card?.outcome === 'ok').length, failed: 0, error: tail.filter(card => card?.outcome === 'error').length, denied: 0, cancelled: 0, interrupted: 0});
		await source.ready;
		expect(source.complete()).toBe(true);
		expect(source.progress()).toBe(1);
		expect(source.generation()).toBe(1);
		expect(changes.at(-1)).toBe(400);
		expect(allEntries(source)).toEqual(fold.entries);
		// Each tail card is found again under its new number, by its key.
		expect(Array.from({length: tailCount}, (_, index) => source.moved(index, 0))).toEqual(Array.from({length: tailCount}, (_, index) => 400 - tailCount + index));
		expect(source.moved(3, 1)).toBe(3);
		expect(source.keyOf(399)).toBe(cardsOf(fold.entries)[399]!.seq);
		expect(source.indexOfKey(cardsOf(fold.entries)[123]!.seq)).toBe(123);
		expect(source.indexOfKey(-5)).toBeUndefined();
	});

	it('leaves out of the tail window a result whose call lies before it', async () => {
		const script = new EventScript();
		script.call('early', 'bash', {command: 'sleep 1', description: 'early'});
		// Padding that makes no entry (a blank message).
		for (let index = 0; index < 50; index++) {
			script.push('user/message', {role: 'user', content: [{type: 'text', text: ' '.repeat(100)}], source: {kind: 'user'}});
		}

		script.call('inside', 'read', {path: 'in.txt'});
		script.result('early', 'settled inside the window');
		script.result('inside', 'read');
		const path = writeLog(script.events.map(event => JSON.stringify(event)));
		const source = await indexed(path, {tailBytes: 2000});
		expect(allCards(source).map(card => `${card?.callId}:${card?.status}`)).toEqual(['inside:ok']);
		await source.ready;
		expect(allCards(source).map(card => `${card?.callId}:${card?.status}`)).toEqual(['early:ok', 'inside:ok']);
		expect(source.moved(0, 0)).toBe(1);
	});

	it('keeps every card when the tail window holds the whole file, orphans included', async () => {
		const path = writeLog(edgeCaseLines());
		const fold = await fullFold(path);
		const source = await indexed(path);
		expect(source.complete()).toBe(false);
		expect(allEntries(source)).toEqual(fold.entries);
		await source.ready;
		expect(allEntries(source)).toEqual(fold.entries);
	});

	it('stops indexing when closed, without completing', async () => {
		const path = longLog(3000);
		const source = await indexed(path, {tailBytes: 1024});
		source.close();
		await source.ready;
		expect(source.complete()).toBe(false);
		expect(source.error).toBeUndefined();
	});

	it('shows no card, and names the file, when the log was rewritten after it was indexed', async () => {
		const path = longLog(3);
		const source = await indexed(path, {tail: false});
		await source.ready;
		writeFileSync(path, 'x'.repeat(2000));
		expect(source.entry(1)).toBeUndefined();
		expect(source.error?.message).toMatch(new RegExp(`^${path.replaceAll('/', '\\/')}: entry 2 could not be rebuilt from its lines at byte \\d+; the file changed after it was indexed$`));
	});

	it('throws the reader error for a log without a header', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'cardterm-indexed-'));
		folders.push(folder);
		const path = join(folder, 'bad.jsonl');
		writeFileSync(path, '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n');
		await expect(openIndexedEntrySource(path, {presenters: () => referencePresenters('/')})).rejects.toThrow(/missing header/);
	});
});
