import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {openSession} from '../../../src/host/open-session.js';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {cardsOf} from '../../../src/presentation/entry.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import {useTempDir} from '../helpers.js';

let dir = '';
useTempDir(made => {
	dir = made;
});

type LogLine = {type: string; seq: number; data: {message?: {id?: string; role: string}}};

async function logLines(path: string): Promise<LogLine[]> {
	const text = await readFile(path, 'utf8');
	return text.split('\n').slice(1, -1).map(line => JSON.parse(line) as LogLine);
}

/** One session appending to `logPath`: a read, an unknown tool, a cancelled call. */
async function appendCalls(logPath: string): Promise<void> {
	const session = await openSession({cwd: dir, logPath});
	const signal = new AbortController().signal;
	await session.runtime.runCall('read', {file_path: 'notes.txt'}, {signal});
	await session.runtime.runCall('nope', {}, {signal});
	await session.runtime.runCall('read', {file_path: 'notes.txt'}, {signal: AbortSignal.abort()});
	await session.close();
}

async function replayCards(path: string) {
	const log = await openSessionLog(path);
	const fold = new SessionFold(referencePresenters(dir));
	for await (const event of log.events) {
		fold.apply(event);
	}

	return {cards: cardsOf(fold.entries), diagnostics: log.diagnostics};
}

describe('the durable tool/result message', () => {
	it('has an id, unique in the log, also across two sessions appending to it (§E3.2: {id, role, source, content})', async () => {
		await writeFile(join(dir, 'notes.txt'), 'alpha\n');
		const logPath = join(dir, 'session.jsonl');
		await appendCalls(logPath);
		await appendCalls(logPath);

		const results = (await logLines(logPath)).filter(line => line.type === 'tool/result');
		expect(results).toHaveLength(6);
		// The id is the result's own seq, so a replay or a later session computes nothing new.
		expect(results.map(line => line.data.message?.id)).toEqual(results.map(line => `result-${line.seq}`));
		expect(new Set(results.map(line => line.data.message?.id)).size).toBe(6);
		expect(Object.keys(results[0]!.data.message!)).toEqual(['id', 'role', 'source', 'content']);
	});

	it('is not needed to replay: a log whose results have no id folds to the same cards', async () => {
		await writeFile(join(dir, 'notes.txt'), 'alpha\n');
		const logPath = join(dir, 'session.jsonl');
		await appendCalls(logPath);
		const text = await readFile(logPath, 'utf8');
		const [header, ...events] = text.split('\n');
		const withoutIds = events.map(line => {
			if (!line.startsWith('{"type":"tool/result"')) {
				return line;
			}

			const event = JSON.parse(line) as LogLine;
			delete event.data.message!.id;
			return JSON.stringify(event);
		});
		const oldPath = join(dir, 'old.jsonl');
		await writeFile(oldPath, [header, ...withoutIds].join('\n'));
		expect(withoutIds.join('\n')).not.toContain('"id":"result-');

		const current = await replayCards(logPath);
		const old = await replayCards(oldPath);
		expect(old.diagnostics).toEqual([]);
		expect(current.cards.map(card => [card.name, card.status])).toEqual([['read', 'ok'], ['nope', 'error'], ['read', 'cancelled']]);
		expect(old.cards).toEqual(current.cards);
	});
});
