/**
A log in the DeepSeek harness's compaction vocabulary (built for this test from the shapes its event
map declares: `compaction/start`, `compaction/prune` with its replacement, `compaction/summary`, the
checkpoint `user/message` from the compact plugin, `compaction/end`): every view shows one card per
compaction, and the conversation rebuilt from it is the compacted one.
*/
import {readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import {Conversation} from '../../../src/agent/conversation.js';
import {main} from '../../../src/cli/main.js';
import type {EntryJson} from '../../../src/presentation/entry-json.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {fakeIo} from '../cli-io-fake.js';

const log = join(resolve(import.meta.dirname, '../../fixtures/logs'), 'harness-compaction.jsonl');

describe('a log with compaction events', () => {
	it('replays to one compaction card per compaction (--json): the summary, its shadowed range and tokens; a failed one says why', async () => {
		const io = fakeIo();
		expect(await main(['replay', log, '--json'], io)).toBe(0);
		expect(io.err()).toBe('');
		const entries = io.out().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as EntryJson);
		const compactions = entries.filter(entry => entry.entry === 'compaction');
		expect(compactions).toEqual([
			{entry: 'compaction', seq: 14, time: 1_790_000_001_500, summarised: {count: 4, tokens: 240, range: {start: 2, end: 8}}, summary: 'The person asked for the config\'s level; it is info.', evidence: []},
			{entry: 'compaction', seq: 18, time: 1_790_000_002_001, evidence: [], error: 'the summary model returned tool calls instead of a summary'},
		]);
		// The originals stay: a view shows what happened, never the replacements.
		expect(entries.filter(entry => entry.entry === 'user').map(entry => entry.entry === 'user' && entry.text)).toEqual(['Read the config and tell me the level.', 'Thanks.']);
		expect(entries.filter(entry => entry.entry === 'card')).toHaveLength(1);
	});

	it('prints the card in print mode: its headline, what it summarised, and the failure', async () => {
		const io = fakeIo();
		expect(await main(['replay', log, '--print'], io)).toBe(0);
		const out = io.out();
		expect(out).toMatch(/⊙ compacted the context …?\n/);
		expect(out).toContain('summarised 4 messages (240 tokens) · log seqs 2–8');
		expect(out).toContain('⊙ compaction failed: the summary model returned tool calls instead of a summary');
	});

	it('rebuilds the compacted conversation: the checkpoint stands for the summarised messages', () => {
		const events = readFileSync(log, 'utf8').split('\n').slice(1).filter(line => line !== '').map(line => JSON.parse(line) as SessionEvent);
		const conversation = new Conversation();
		for (const event of events) {
			conversation.apply(event);
		}

		expect(conversation.messages()).toEqual([
			{role: 'user', text: expect.stringContaining('<summary>\nThe person asked for the config\'s level; it is info.\n</summary>')},
			{role: 'user', text: 'Thanks.'},
			{role: 'assistant', content: [{type: 'text', text: 'You are welcome.'}]},
		]);
	});
});
