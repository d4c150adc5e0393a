import {appendFileSync, readFileSync, renameSync, truncateSync, unlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {watchLog} from '../../src/transcript/watch-entry-source.js';
import {fixture, useTempDir} from '../session/helpers.js';
import {startPager} from './harness/pager-screen.js';


let dir: string;
useTempDir(created => {
	dir = created;
});

/** basic.jsonl (a title, an answer, one bash card and the turn end: 4 entries) under another session id, optionally with a second card (5). */
function session(id: string, cards: 1 | 2 = 1): string {
	const lines = readFileSync(fixture('basic.jsonl'), 'utf8').split('\n').slice(0, -1);
	lines[0] = lines[0]!.replace('"s-basic"', JSON.stringify(id));
	if (cards === 2) {
		const call = lines.findIndex(line => line.startsWith('{"type":"tool/call"'));
		lines.push(lines[call]!.replace('"seq":11', '"seq":15').replaceAll('call_ls', 'call_two'), lines[call + 1]!.replace('"seq":12', '"seq":16').replaceAll('call_ls', 'call_two'));
	}

	return `${lines.join('\n')}\n`;
}

async function watching(path: string) {
	const controller = new AbortController();
	const watched = await watchLog(path, {signal: controller.signal, presenters: header => referencePresenters(header.cwd ?? dir), checkIntervalMs: 50});
	const pager = await startPager(watched.cards, {columns: 100, rows: 16, follow: true});
	return {
		pager,
		async close() {
			await pager.close();
			controller.abort();
			await watched.done;
		},
	};
}

describe('watch: the status line says what the log path holds', () => {
	it('says following, then log replaced · reopened with the new session\'s cards when another log is renamed over it', async () => {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, session('s-first', 2));
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('5/5 · ');
			expect(pager.tty.text()).toContain('s-first · following');
			writeFileSync(join(dir, 'next.jsonl'), session('s-second'));
			renameSync(join(dir, 'next.jsonl'), path);
			await pager.tty.waitForText('s-second · log replaced · reopened · following');
			expect(pager.tty.text()).toContain('4/4 · ');
			expect(pager.tty.text()).not.toContain('s-first');
		} finally {
			await close();
		}
	});

	it('says log deleted · waiting, and shows the log created again there', async () => {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, session('s-first', 2));
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('s-first · following');
			unlinkSync(path);
			await pager.tty.waitForText('s-first · log deleted · waiting');
			// The cards of the deleted log stay on screen while it waits.
			expect(pager.tty.text()).toContain('5/5 · ');
			writeFileSync(path, session('s-again'));
			await pager.tty.waitForText('s-again · log replaced · reopened');
			expect(pager.tty.text()).toContain('4/4 · ');
		} finally {
			await close();
		}
	});

	it('says log truncated and shows what is left; a longer log written over it in place is not spliced', async () => {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, session('s-first', 2));
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('5/5 · ');
			truncateSync(path, session('s-first', 1).length);
			await pager.tty.waitForText('s-first · log truncated · reread · following');
			expect(pager.tty.text()).toContain('4/4 · ');
			writeFileSync(path, session('s-longer', 2), {flag: 'r+'});
			await pager.tty.waitForText('s-longer · log replaced · reopened');
			expect(pager.tty.text()).toContain('5/5 · ');
		} finally {
			await close();
		}
	});

	it('says follow stopped, with the reason, when the log at the path has a bad header', async () => {
		const path = join(dir, 'session.jsonl');
		// Two cards, the last after the turn end: the writer is not finished.
		writeFileSync(path, session('s-first', 2));
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('s-first · following');
			writeFileSync(join(dir, 'next.jsonl'), '{"type":"session","version":9,"id":"x","createdAt":1}\n');
			renameSync(join(dir, 'next.jsonl'), path);
			await pager.tty.waitForText('s-first · follow stopped:');
			expect(pager.tty.text()).not.toContain('following');
		} finally {
			await close();
		}
	});
});

describe('watch: a step still streaming', () => {
	it('shows the partial answer as it grows and a preparing row, which the card replaces when its call arrives', async () => {
		const path = join(dir, 'session.jsonl');
		let seq = 0;
		const line = (type: string, data: unknown): string => `${JSON.stringify({type, seq: seq++, time: 1_790_000_000_000 + seq, data})}\n`;
		const chunk = (value: Record<string, unknown>): string => line('assistant/chunk', {turn: 1, step: 1, chunk: value});
		writeFileSync(path, `${JSON.stringify({type: 'session', version: 0, id: 's-live', createdAt: 1_790_000_000_000, cwd: dir, delegationDepth: 0})}\n${line('turn/start', {turn: 1})}${line('step/start', {turn: 1, step: 1})}${chunk({type: 'text-delta', index: 0, text: 'Looking at the'})}`);
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('Looking at the');
			appendFileSync(path, chunk({type: 'text-delta', index: 0, text: ' **workspace** now.'}));
			await pager.tty.waitForText('Looking at the workspace now.');
			appendFileSync(path, chunk({type: 'tool-call-delta', index: 1, id: 'c1', name: 'bash', argumentsDelta: '{"command":'}));
			await pager.tty.waitForText('◌ preparing bash…');
			appendFileSync(path, line('assistant/message', {turn: 1, step: 1, message: {role: 'assistant', content: [{type: 'text', text: 'Looking at the **workspace** now.'}, {type: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command": "ls", "description": "list"}'}]}}));
			appendFileSync(path, line('tool/call', {turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{"command": "ls", "description": "list"}'}));
			await pager.tty.waitForText('$ ls');
			expect(pager.tty.text()).not.toContain('preparing bash');
			expect(pager.tty.text().split('Looking at the workspace now.')).toHaveLength(2);
		} finally {
			await close();
		}
	});
});

describe('watch: waiting, the writer finishing, damage as it arrives', () => {
	it('waits for a log that does not exist yet, like tail -F, and shows it once it is written', async () => {
		const path = join(dir, 'later.jsonl');
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText(`waiting for ${path}`);
			expect(pager.tty.text()).toContain('empty · ');
			expect(pager.tty.text()).not.toContain('reading…');
			writeFileSync(path, session('s-later', 2));
			await pager.tty.waitForText('s-later · following');
			expect(pager.tty.text()).toContain('5/5 · ');
		} finally {
			await close();
		}
	});

	it('says writer finished once the turn has ended and the lock is gone, never reading… forever', async () => {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, session('s-live'));
		writeFileSync(`${path}.lock`, `${process.pid}\n`);
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('s-live · following');
			expect(pager.tty.text()).not.toContain('reading…');
			unlinkSync(`${path}.lock`);
			await pager.tty.waitForText('s-live · writer finished');
		} finally {
			await close();
		}
	});

	it('says writer gone when the lock goes without a turn end', async () => {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, session('s-crash', 2));
		writeFileSync(`${path}.lock`, `${process.pid}\n`);
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('s-crash · following');
			unlinkSync(`${path}.lock`);
			await pager.tty.waitForText('s-crash · writer gone · turn not ended');
		} finally {
			await close();
		}
	});

	it('counts damaged lines in the status line as they are appended, before q', async () => {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, session('s-damage', 2));
		const {pager, close} = await watching(path);
		try {
			await pager.tty.waitForText('5/5 · ');
			appendFileSync(path, 'this is not JSON\n');
			await pager.tty.waitForText('1 damaged line (! lists)');
			appendFileSync(path, '{"broken": \n');
			await pager.tty.waitForText('2 damaged lines (! lists)');
		} finally {
			await close();
		}
	});
});
