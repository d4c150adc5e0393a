import {describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import type {EntryJson} from '../../src/presentation/entry-json.js';
import {fakeIo} from '../cli/cli-io-fake.js';

describe('cardterm demo', () => {
	it('replays a session with every card kind, variant and status', async () => {
		const io = fakeIo();
		expect(await main(['demo', '--json'], io)).toBe(0);
		expect(io.err()).toBe('');
		const entries = io.out().trim().split('\n').map(line => JSON.parse(line) as EntryJson);
		const cards = entries.filter(entry => entry.entry === 'card');
		// Every kind of call view, and every kind of result view (a card without one shows its raw content as generic).
		expect(new Set(cards.map(card => card.call.card))).toEqual(new Set(['diff', 'generic', 'terminal']));
		const kinds = new Set(cards.flatMap(card => card.result === null ? [] : [card.result.card === 'search' ? `search ${card.result.shape}` : card.result.card === 'web' ? `web ${card.result.kind}` : card.result.card]));
		expect([...kinds].sort()).toEqual(['diff', 'generic', 'read', 'search matches', 'search paths', 'terminal', 'web fetch', 'web search']);
		expect(cards.some(card => card.status === 'interrupted' && card.result === null)).toBe(true);
		expect(new Set(cards.map(card => card.status))).toEqual(new Set(['ok', 'error', 'cancelled', 'interrupted']));
		const summary = cards.map(card => `${card.name}:${card.status}`);
		for (const expected of ['edit:error', 'read:error', 'bash:cancelled', 'bash:interrupted', 'deploy:error', 'run_code:ok', 'web_fetch:ok', 'web_search:ok', 'todo_write:ok', 'job_kill:ok', 'word_count:ok']) {
			expect(summary).toContain(expected);
		}

		const run = cards.find(card => card.name === 'run_code')!;
		expect(run.children.map(child => [child.name, child.status])).toEqual([['read', 'ok'], ['grep', 'ok']]);
		const terminal = cards.filter(card => card.result?.card === 'terminal');
		expect(terminal.some(card => card.result?.card === 'terminal' && card.result.exitCode === 1)).toBe(true);
		expect(terminal.some(card => card.result?.card === 'terminal' && card.result.signal === 'SIGTERM')).toBe(true);
		expect(cards.some(card => card.result?.card === 'web' && card.result.kind === 'fetch' && card.result.statusCode === 404)).toBe(true);
		// A conversation around the cards (issue 16 item 15): what the person asked, the model's reasoning and answers, turn ends.
		const counts = new Map<string, number>();
		for (const entry of entries) {
			counts.set(entry.entry, (counts.get(entry.entry) ?? 0) + 1);
		}

		expect({user: counts.get('user'), turn: counts.get('turn'), todo: counts.get('todo')}).toEqual({user: 6, turn: 6, todo: 1});
		expect(counts.get('assistant')).toBeGreaterThanOrEqual(18);
		const answers = entries.filter(entry => entry.entry === 'assistant');
		expect(answers.every(entry => entry.entry === 'assistant' && entry.reasoning !== '')).toBe(true);
		expect(answers.some(entry => entry.entry === 'assistant' && entry.text.startsWith('## Result\n'))).toBe(true);
		// The todo list comes right after the card that wrote it.
		const todo = entries.findIndex(entry => entry.entry === 'todo');
		expect(entries[todo - 1]).toMatchObject({entry: 'card', name: 'todo_write'});
	});

	it('prints the demo as plain text without escape sequences when colour is off', async () => {
		const io = fakeIo({env: {NO_COLOR: '1'}});
		expect(await main(['demo', '--print', '--width', '80'], io)).toBe(0);
		expect(io.out()).toContain('● read src/config.ts');
		expect(io.out()).not.toMatch(/\u001B/);
	});
});
