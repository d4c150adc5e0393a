/**
Counts that agree (issue 12): one log holding a card of every outcome is counted the same by the
fold, the lazy log index (tail window and full index), an in-memory source, `sessions` (text and
--json), `replay --json` and the pager's and status line's tallies.
*/
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {emptyOutcomeCounts, outcomeTally, type CardOutcome} from '../../src/presentation/card-outcome.js';
import type {EntryJson} from '../../src/presentation/entry-json.js';
import {cardsOf} from '../../src/presentation/entry.js';
import {foldEvents} from '../../src/session/fold/fold.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {listSessions} from '../../src/session/store/session-store.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {openIndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {statusTally} from '../../components/StatusLine.js';
import {isFailedEntry} from '../../components/pager/card-text.js';
import {statusGlyph} from '../../src/layout/cards/card-header.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import {EventScript} from '../session/fold-events.js';
import {fakeIo} from './cli-io-fake.js';

const header = {type: 'session', version: 0, id: '2026-01-01T00-00-00-abcd', createdAt: 1_790_000_000_000, cwd: '/home/u/proj', delegationDepth: 0};

/** A session with one card of every outcome, in this order. */
function everyOutcome(): {readonly events: SessionEvent[]; readonly expected: readonly CardOutcome[]} {
	const script = new EventScript();
	script.push('turn/start', {turn: 1});
	script.call('ok', 'bash', {command: 'true', description: 'ok'});
	script.result('ok', '(no output)');
	script.call('exit', 'bash', {command: 'exit 3', description: 'exit'});
	script.result('exit', '(no output)\n[exit code: 3]');
	script.call('signal', 'bash', {command: 'sleep 9', description: 'killed'});
	script.result('signal', '…\n[killed by signal: SIGKILL]');
	script.call('http', 'web_fetch', {url: 'https://example.com/missing'});
	script.result('http', 'Fetched https://example.com/missing (HTTP 404)', {meta: {url: 'https://example.com/missing', statusCode: 404, truncated: false}});
	script.call('error', 'read', {file_path: 'missing.txt'});
	script.result('error', 'Error: no such file', {isError: true, error: {name: 'FsError', code: 'FS_NOT_FOUND'}});
	script.call('denied', 'bash', {command: 'rm -rf /', description: 'denied'});
	script.push('approval/asked', {id: 'a1', toolName: 'bash', callId: 'denied'});
	script.push('approval/decided', {id: 'a1', outcome: 'rejected'});
	script.result('denied', 'Error: the user rejected tool "bash"', {isError: true});
	script.call('cancelled', 'bash', {command: 'sleep 9', description: 'cancelled'});
	script.result('cancelled', 'Error: tool call aborted', {isError: true, error: {name: 'AbortError', code: 'ABORTED'}});
	script.call('lost', 'bash', {command: 'sleep 9', description: 'lost'}, {turn: 1, step: 2});
	script.push('step/end', {turn: 1, step: 2});
	script.call('asking', 'bash', {command: 'make', description: 'asking'}, {turn: 1, step: 3});
	script.push('approval/asked', {id: 'a2', toolName: 'bash', callId: 'asking'});
	script.call('running', 'bash', {command: 'sleep 1', description: 'running'}, {turn: 1, step: 3});
	return {events: script.events, expected: ['ok', 'failed', 'failed', 'failed', 'error', 'denied', 'cancelled', 'interrupted', 'pending', 'running']};
}

const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) {
		rmSync(folder, {recursive: true, force: true});
	}
});

/** The log in a sessions root, as a saved session. */
function savedSession(events: readonly SessionEvent[]): {readonly root: string; readonly path: string} {
	const root = mkdtempSync(join(tmpdir(), 'cardterm-outcomes-'));
	folders.push(root);
	mkdirSync(join(root, header.id));
	const path = join(root, header.id, 'session.jsonl');
	writeFileSync(path, `${[header, ...events].map(line => JSON.stringify(line)).join('\n')}\n`);
	return {root, path};
}

describe('one outcome rule, counted the same everywhere', () => {
	const {events, expected} = everyOutcome();
	const counts = emptyOutcomeCounts();
	for (const outcome of expected) {
		counts[outcome]++;
	}

	it('gives each card its outcome in the fold, and the fold counts them', () => {
		const fold = foldEvents(events, referencePresenters('/home/u/proj'));
		expect(cardsOf(fold.entries).map(card => card.outcome)).toEqual(expected);
		expect(fold.counts).toEqual(counts);
		expect(arrayEntrySource(fold.entries).counts!()).toEqual(counts);
	});

	it('counts the same in the lazy index, from its tail window and from the full index', async () => {
		const {path} = savedSession(events);
		for (const tail of [true, false]) {
			const source = await openIndexedEntrySource(path, {presenters: found => referencePresenters(found.cwd ?? '/'), tail});
			try {
				if (!tail) {
					await source.ready;
				}

				expect(source.counts()).toEqual(counts);
				const built = Array.from({length: source.count()}, (_, index) => source.entry(index));
				expect(cardsOf(built.filter(entry => entry !== undefined)).map(card => card.outcome)).toEqual(expected);
			} finally {
				source.close();
			}
		}
	});

	it('counts the same in sessions, as text and as --json', async () => {
		const {root} = savedSession(events);
		const [summary] = await listSessions(root);
		expect(summary).toMatchObject({cards: expected.length, failures: 7, outcomes: counts});

		const json = fakeIo();
		expect(await main(['sessions', '--session-dir', root, '--json'], json)).toBe(0);
		expect(JSON.parse(json.out())).toMatchObject({cards: 10, failures: 7, outcomes: counts});

		const text = fakeIo();
		expect(await main(['sessions', '--session-dir', root], text)).toBe(0);
		expect(text.out()).toContain('10 cards  ✗ 3 failed  ✗ 1 error  ✗ 1 denied  ⊘ 1 cancelled  ◌ 1 interrupted');
	});

	it('writes each card\'s outcome in replay --json, beside its status', async () => {
		const {path} = savedSession(events);
		const io = fakeIo();
		expect(await main(['replay', path, '--json'], io)).toBe(0);
		const cards = io.out().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as EntryJson).filter(entry => entry.entry === 'card');
		expect(cards.map(card => card.outcome)).toEqual(expected);
		expect(cards.map(card => card.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'error', 'error', 'cancelled', 'interrupted', 'running', 'running']);
	});

	it('draws the header glyph and its colour by outcome, and e/E stop at every card that did not end ok', () => {
		const fold = foldEvents(events, referencePresenters('/home/u/proj'));
		const cards = fold.entries.filter(entry => entry.entry === 'card');
		expect(cardsOf(cards).map(card => {
			const {glyph, style} = statusGlyph(card, colorTheme);
			return `${glyph}${style.fg ?? ''}`;
		})).toEqual([
			`●${colorTheme.ok.fg}`, `✗${colorTheme.error.fg}`, `✗${colorTheme.error.fg}`, `✗${colorTheme.error.fg}`, `✗${colorTheme.error.fg}`, `✗${colorTheme.error.fg}`,
			`⊘${colorTheme.cancelled.fg ?? ''}`, `◌${colorTheme.interrupted.fg ?? ''}`, `○${colorTheme.running.fg ?? ''}`, `○${colorTheme.running.fg ?? ''}`,
		]);
		expect(cards.map(entry => isFailedEntry(entry))).toEqual(expected.map(outcome => !['ok', 'pending', 'running'].includes(outcome)));
	});

	it('words the status line\'s tally as the pager\'s', () => {
		const tally = '○ 1 awaiting approval  ○ 1 running  ● 1 ok  ✗ 3 failed  ✗ 1 error  ✗ 1 denied  ⊘ 1 cancelled  ◌ 1 interrupted';
		expect(outcomeTally(counts)).toBe(tally);
		expect(statusTally({counts})).toBe(tally);
	});
});
