import {existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import type {CardJson} from '../../../src/presentation/card-json.js';
import type {EntryJson} from '../../../src/presentation/entry-json.js';
import {fakeIo} from '../cli-io-fake.js';

const fixtures = resolve(import.meta.dirname, '../../fixtures/logs');
const corpus = [resolve(import.meta.dirname, '../../../../shared/corpus/dsh-sessions'), '/work/shared/corpus/dsh-sessions'].find(path => existsSync(path));

async function replayJson(file: string): Promise<{code: number; cards: CardJson[]; entries: EntryJson[]; err: string}> {
	const io = fakeIo();
	const code = await main(['replay', file, '--json'], io);
	const entries = io.out().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as EntryJson);
	return {code, cards: entries.filter(entry => entry.entry === 'card'), entries, err: io.err()};
}

describe('cardterm replay --json', () => {
	it('folds the spec example log to its golden table', async () => {
		const {code, cards, err} = await replayJson(join(fixtures, 'spec-example.jsonl'));
		expect(code).toBe(0);
		expect(err).toBe('');
		expect(cards.map(card => [card.callId, card.status, card.call.card, card.call.title, card.result?.card ?? null])).toEqual([
			['call_read', 'ok', 'generic', 'Read src/config.ts', 'read'],
			['call_grep', 'ok', 'generic', 'Grep DEBUG (*.ts)', 'search'],
			['call_glob', 'ok', 'generic', 'Glob **/*.test.ts', 'search'],
			['call_edit', 'ok', 'diff', 'Edit src/config.ts', 'diff'],
			['call_edit2', 'error', 'diff', 'Edit src/config.ts', 'generic'],
			['call_test', 'ok', 'terminal', 'npm test', 'terminal'],
			['call_ws', 'ok', 'generic', 'vitest environment option', 'web'],
			['call_wf', 'ok', 'generic', 'https://vitest.dev/config/', 'web'],
			['call_todo', 'ok', 'generic', 'Update todo list', 'generic'],
			['call_dev', 'ok', 'generic', 'npm run dev', 'generic'],
			['call_sleep', 'cancelled', 'terminal', 'sleep 600', 'generic'],
			['call_echo', 'cancelled', 'terminal', 'echo done', 'generic'],
			['call_notes', 'running', 'diff', 'Write docs/NOTES.md', null],
		]);
		const byId = new Map(cards.map(card => [card.callId, card]));
		expect(byId.get('call_test')!.result).toEqual({card: 'terminal', output: 'FAIL src/config.test.ts > reads level\nTests  1 failed | 4 passed (5)', exitCode: 1});
		expect(byId.get('call_edit')!.result).toEqual({card: 'diff', title: 'Edit src/config.ts', diffs: [{path: 'src/config.ts', oldText: "export const config = {\n  DEBUG: true,\n  level: 'info',\n}", newText: "export const config = {\n  DEBUG: false,\n  level: 'info',\n}"}]});
		expect(byId.get('call_sleep')!.error).toEqual({name: 'AbortError', code: 'ABORTED'});
		expect(byId.get('call_dev')!.result).toEqual({card: 'generic', content: [{type: 'text', text: '```console\nstarted background job bash-1\n```'}]});
		expect(byId.get('call_read')!.durationMs).toBe(11);
		// A card whose presenter gave no result view carries its raw content, as --print shows it.
		expect(byId.get('call_edit2')!.result).toEqual({card: 'generic', content: [{type: 'text', text: expect.stringContaining('old_string was not found')}]});
	});

	it('replays every corpus log with one card per top-level call and none left running after its turn', async context => {
		if (corpus === undefined) {
			context.skip('the corpus folder ../shared/corpus/dsh-sessions is not present here');
		}

		const files = readdirSync(corpus!).filter(name => name.endsWith('.jsonl'));
		expect(files.length).toBeGreaterThan(40);
		for (const name of files) {
			const file = join(corpus!, name);
			// eslint-disable-next-line no-await-in-loop -- one log at a time keeps failures readable
			const {code, cards, err} = await replayJson(file);
			expect({name, code, err}).toEqual({name, code: 0, err: ''});
			const lines = readFileSync(file, 'utf8').split('\n').filter(line => line !== '').map(line => JSON.parse(line) as {type: string; data: {callId?: string}});
			const calls = lines.filter(line => line.type === 'tool/call').map(line => line.data.callId);
			expect(cards.map(card => card.callId)).toEqual(calls);
			expect(cards.filter(card => card.status === 'running').map(card => `${name}: ${card.callId}`)).toEqual([]);
			const withMeta = new Set(lines.filter(line => line.type === 'tool/result' && 'meta' in line.data).map(line => (line.data as {message: {source: {callId: string}}}).message.source.callId));
			for (const card of cards) {
				if (withMeta.has(card.callId) && ['read', 'write', 'edit', 'grep', 'glob', 'web_fetch', 'web_search'].includes(card.name)) {
					expect({name, callId: card.callId, result: card.result?.card}).toEqual({name, callId: card.callId, result: expect.stringMatching(/^(read|diff|search|web)$/)});
				}
			}
		}
	});

	it('prints every corpus log in colour with no escape sequence but the SGR styles cardterm writes', async context => {
		if (corpus === undefined) {
			context.skip('the corpus folder ../shared/corpus/dsh-sessions is not present here');
		}

		for (const name of readdirSync(corpus!).filter(file => file.endsWith('.jsonl'))) {
			const io = fakeIo({env: {FORCE_COLOR: '1'}});
			// eslint-disable-next-line no-await-in-loop -- one log at a time keeps failures readable
			expect(await main(['replay', join(corpus!, name), '--print', '--width', '100'], io)).toBe(0);
			const output = io.out();
			expect(output).toMatch(/\u001B\[[\d;]*m/);
			// eslint-disable-next-line no-control-regex -- looking for exactly these bytes
			const leftover = output.replaceAll(/\u001B\[[\d;]*m/g, '').match(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g);
			expect({name, leftover}).toEqual({name, leftover: null});
		}
	});

	it('reports damaged lines on stderr with a count, replays the rest and exits 0', async () => {
		const lines = readFileSync(join(fixtures, 'spec-example.jsonl'), 'utf8').split('\n');
		lines.splice(5, 0, '{not json');
		const file = join(mkdtempSync(join(tmpdir(), 'cardterm-damaged-')), 'damaged.jsonl');
		writeFileSync(file, lines.join('\n'));
		const {code, cards, err} = await replayJson(file);
		expect(code).toBe(0);
		expect(cards).toHaveLength(13);
		expect(err).toBe(`${file}:6: not valid JSON\ncardterm: 1 damaged line skipped in ${file}\n`);
	});

	it('counts a seq gap and an unsupported result format as notes, not as damaged lines', async () => {
		const lines = readFileSync(join(fixtures, 'basic.jsonl'), 'utf8').split('\n').filter(line => line !== '');
		const events = lines.slice(1).map(line => JSON.parse(line) as {seq?: number; seq0?: number});
		// Seqs from line 4 on jump by 10 (a producer's gap; packed rows carry seq0), and one result is in a shape cardterm does not read.
		const shift = (event: {seq?: number; seq0?: number}) => (event.seq0 === undefined ? {...event, seq: event.seq! + 10} : {...event, seq0: event.seq0 + 10});
		const shifted = events.map((event, index) => JSON.stringify(index >= 2 ? shift(event) : event));
		const odd = JSON.stringify({type: 'tool/result', seq: 100, time: 1, data: {id: 'x', output: 'text'}});
		const file = join(mkdtempSync(join(tmpdir(), 'cardterm-notes-')), 'notes.jsonl');
		writeFileSync(file, `${[lines[0], ...shifted, odd].join('\n')}\n`);
		const {code, cards, err} = await replayJson(file);
		expect(code).toBe(0);
		expect(cards.map(card => card.callId)).toEqual(['call_ls']);
		expect(err).toBe([
			`${file}:4: seq gap: expected 2, got 12 (10 missing); reading goes on from 12`,
			`${file}:${lines.length + 1}: tool/result in an unsupported result format (neither data.message nor a flat data.callId with content and isError): skipped`,
			`cardterm: 2 notes on ${file} (seq gaps or result formats cardterm does not read; no line was damaged)`,
			'',
		].join('\n'));
	});

	it('exits 65 naming the file when the header is unreadable', async () => {
		const io = fakeIo();
		const file = join(fixtures, 'spec-example.jsonl');
		const code = await main(['replay', `${file}.missing`, '--json'], io);
		expect(code).toBe(65);
		expect(io.err()).toContain('spec-example.jsonl.missing');
	});

	it('exits 2 naming an unknown flag', async () => {
		const io = fakeIo();
		expect(await main(['replay', 'x.jsonl', '--colour'], io)).toBe(2);
		expect(io.err()).toBe('cardterm replay: unknown flag --colour (see cardterm replay --help)\n');
	});
});

describe('cardterm replay of a log that ends mid-step', () => {
	const header = JSON.stringify({type: 'session', version: 0, id: 's-open', createdAt: 1_790_000_000_000, cwd: '/tmp', delegationDepth: 0});
	const lines = [
		{type: 'turn/start', seq: 0, time: 1, data: {turn: 1}},
		{type: 'user/message', seq: 1, time: 2, data: {id: 'u', role: 'user', content: [{type: 'text', text: 'List the files.'}], source: {kind: 'user'}}, surfaceOp: 'append'},
		{type: 'text-chunks', seq0: 2, time0: 3, data: {turn: 1, step: 1, index: 0, dt: [1, 1], texts: ['I will', ' **list**', ' them']}},
		{type: 'assistant/chunk', seq: 5, time: 6, data: {turn: 1, step: 1, chunk: {type: 'tool-call-delta', index: 1, id: 'c1', name: 'bash', argumentsDelta: '{"command"'}}},
	];
	const file = join(mkdtempSync(join(tmpdir(), 'cardterm-open-step-')), 'session.jsonl');
	writeFileSync(file, `${[header, ...lines.map(line => JSON.stringify(line))].join('\n')}\n`);

	it('--print ends with the partial answer and its preparing row', async () => {
		const io = fakeIo();
		expect(await main(['replay', file, '--print', '--width', '60'], io)).toBe(0);
		expect(io.out()).toMatch(/List the files\.[\s\S]*I will list them\n◌ preparing bash…\n/);
	});

	it('--json writes the streaming entry last, with its preparing calls', async () => {
		const {entries} = await replayJson(file);
		expect(entries.map(entry => entry.entry)).toEqual(['user', 'assistant']);
		expect(entries[1]).toMatchObject({entry: 'assistant', seq: 2, text: 'I will **list** them', streaming: true, preparing: ['bash'], interrupted: false});
	});
});
