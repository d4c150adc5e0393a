/**
A log in the DeepSeek harness's compaction vocabulary (built for this test from the shapes its event
map declares: `compaction/start`, `compaction/prune` with its replacement, `compaction/summary`, the
checkpoint `user/message` from the compact plugin, `compaction/end`): every view shows one card per
compaction, and the conversation rebuilt from it is the compacted one.
*/
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {Conversation} from '../../../src/agent/conversation.js';
import {main} from '../../../src/cli/main.js';
import type {EntryJson} from '../../../src/presentation/entry-json.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {openIndexedEntrySource} from '../../../src/transcript/indexed-entry-source.js';
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

describe('the compaction card from the pager\'s lazy index and from a hostile log', () => {
	it('the lazy index builds the same cards from their lines as the fold', async () => {
		const source = await openIndexedEntrySource(log, {presenters: () => referencePresenters('/'), tail: false});
		try {
			await source.ready;
			const entries = Array.from({length: source.count()}, (_, index) => source.entry(index));
			expect(entries.filter(entry => entry?.entry === 'compaction').map(entry => entry!.entry === 'compaction' && [entry.seq, entry.summary ?? entry.error])).toEqual([
				[14, 'The person asked for the config\'s level; it is info.'],
				[18, 'the summary model returned tool calls instead of a summary'],
			]);
		} finally {
			source.close();
		}
	});

	it('a hostile compaction (fields of every wrong kind, huge evidence, escapes) shows a bounded card and never crashes', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'cardterm-compaction-'));
		const path = join(dir, 'hostile.jsonl');
		const lines = [
			{type: 'session', version: 0, id: 's', createdAt: 1},
			{type: 'compaction/start', seq: 0, time: 2, data: {compactionId: 7, turn: 'x'}},
			{type: 'compaction/summary', seq: 1, time: 3, data: {summary: [{type: 'text', text: '\u001B]52;c;aGk=\u0007\u001B[2J wiped'}], shadowedRange: {start: -1, end: 'z'}, shadowedSeqs: 'all', shadowedTokenCount: -5, tokensBefore: 1e300, evidence: {filesRead: Array.from({length: 100_000}, (_, k) => `f${k}\u001B[31m`), commands: [{command: 'x'.repeat(1_000_000), exitCode: 'one'}], failingTests: 3}}},
			{type: 'compaction/end', seq: 2, time: 4, data: {error: {nested: true}}},
		];
		writeFileSync(path, lines.map(line => JSON.stringify(line)).join('\n'));
		const io = fakeIo();
		expect(await main(['replay', path, '--print', '--expand', 'all', '--width', '100'], io)).toBe(0);
		const out = io.out();
		expect(out).toContain('⊙ compacted the context');
		expect(out).not.toMatch(/\u001B|\u0007/);
		// The newest 40 files, each cut; the million-character command cut to 200.
		expect(out).toContain('f99999');
		expect(out).not.toContain('f99959\\');
		expect(out.length).toBeLessThan(40_000);
		rmSync(dir, {recursive: true, force: true});
	});
});
