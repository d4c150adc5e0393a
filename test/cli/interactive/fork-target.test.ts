/**
`--fork SESSION[@ENTRY]`: a new session from the middle of a saved log — another producer's, from
the held dsh corpus — whose header names its parent and entry; the parent's bytes never change; the
fork continues as a resumed session (the turn the cut left open is closed) and folds back the same
(live == replay); `sessions` lists it under its parent.
*/
import {createHash} from 'node:crypto';
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {Conversation} from '../../../src/agent/conversation.js';
import {forkTarget, forkWords} from '../../../src/cli/interactive/fork-target.js';
import {withForks} from '../../../src/cli/commands/sessions-command.js';
import {continueLog} from '../../../src/host/continue-log.js';
import {openSession} from '../../../src/host/open-session.js';
import {cardsOf} from '../../../src/presentation/entry.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import {listSessions} from '../../../src/session/store/session-store.js';

const corpus = join(import.meta.dirname, '../../../../shared/corpus/dsh-sessions');
const parentLog = join(corpus, 'examples--acp-agent--fs-edit--session.jsonl');
const absent = existsSync(parentLog) ? undefined : `the held dsh corpus log ${parentLog} is absent`;
if (absent !== undefined) {
	console.warn(`fork-target.test: skipped: ${absent}`);
}

const sha = async (path: string): Promise<string> => createHash('sha256').update(await readFile(path)).digest('hex');

async function eventsOf(path: string) {
	const log = await openSessionLog(path);
	const events = [];
	for await (const event of log.events) {
		events.push(event);
	}

	return {header: log.header, events, diagnostics: log.diagnostics};
}

describe('--fork', () => {
	it('splits SESSION@ENTRY', () => {
		expect(forkWords('abc@12')).toEqual({session: 'abc', entry: 12});
		expect(forkWords('logs/a@b.jsonl')).toEqual({session: 'logs/a@b.jsonl'});
		expect(forkWords('abc')).toEqual({session: 'abc'});
	});

	it.skipIf(absent !== undefined)('forks the middle of a corpus log: header names the parent, parent untouched, continued and replayed alike', async () => {
		const before = await sha(parentLog);
		const root = await mkdtemp(join(tmpdir(), 'cardterm-fork-'));
		const parent = await eventsOf(parentLog);
		// Between the two tool results of the log's one turn: the second step's result is cut off.
		const fork = await forkTarget({fork: `${parentLog}@135`, sessionDir: root, env: {}, cwd: root, now: Date.UTC(2026, 11, 6)});
		expect(await sha(parentLog)).toBe(before);
		expect(fork.path.startsWith(root)).toBe(true);
		expect(fork.header).toMatchObject({parentSession: parent.header.id, origin: 'fork', forkEntry: 135, forkPath: parentLog});
		expect(fork.events.map(event => event.seq)).toEqual(parent.events.filter(event => event.seq < 135).map(event => event.seq));

		const written = await eventsOf(fork.path);
		expect(written.diagnostics.filter(diagnostic => diagnostic.kind !== 'seq-gap')).toEqual([]);
		expect(written.header).toEqual(fork.header);
		expect(written.events).toEqual(fork.events);

		// Continued: the fold starts from the fork's events, the open turn is closed as a resume closes it.
		const session = await openSession({cwd: root, logPath: fork.path, history: written.events});
		continueLog(session, written.events);
		const conversation = new Conversation();
		for (const event of written.events) {
			conversation.apply(event);
		}

		const parentConversation = new Conversation();
		for (const event of parent.events.filter(event => event.seq < 135)) {
			parentConversation.apply(event);
		}

		expect(conversation.messages()).toEqual(parentConversation.messages());
		const live = cardsOf(session.fold.entries).map(card => [card.name, card.status, card.resultView]);
		await session.close();
		const replay = new SessionFold(referencePresenters(root));
		for (const event of (await eventsOf(fork.path)).events) {
			replay.apply(event);
		}

		expect(cardsOf(replay.entries).map(card => [card.name, card.status, card.resultView])).toEqual(live);
		expect(live.map(([name, status]) => [name, status])).toEqual([['read', 'ok'], ['edit', 'interrupted']]);
	});

	it('lists a fork under its parent in `sessions`', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-fork-list-'));
		await mkdir(join(root, 'p1'));
		const parent = await openSession({cwd: root, logPath: join(root, 'p1', 'session.jsonl'), id: 'p1'});
		await parent.runtime.runCall('bash', {command: 'echo one', description: 'one'}, {signal: new AbortController().signal});
		await parent.close();
		const fork = await forkTarget({fork: 'p1', sessionDir: root, env: {}, cwd: root, now: Date.UTC(2030, 0, 1)});
		await mkdir(join(root, 'other'));
		const other = await openSession({cwd: root, logPath: join(root, 'other', 'session.jsonl'), id: 'other', now: () => Date.UTC(2031, 0, 1)});
		await other.runtime.runCall('bash', {command: 'echo two', description: 'two'}, {signal: new AbortController().signal});
		await other.close();
		// Newest first, but the fork (newer than its parent) is listed under it.
		const listed = withForks(await listSessions(root)).map(({session, depth}) => [session.id, depth]);
		expect(listed).toEqual([['other', 0], ['p1', 0], [fork.header.id, 1]]);
		await expect(forkTarget({fork: 'p1@999', sessionDir: root, env: {}, cwd: root})).rejects.toThrow('--fork: p1 has no entry 999');
		await expect(forkTarget({fork: 'nope', sessionDir: root, env: {}, cwd: root})).rejects.toThrow('--fork: no session nope in');
	});
});
