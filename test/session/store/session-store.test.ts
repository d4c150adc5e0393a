import {existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import envPaths from 'env-paths';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {createSessionDir, listSessions, sessionsRoot} from '../../../src/session/store/session-store.js';
import {emptyOutcomeCounts} from '../../../src/presentation/card-outcome.js';
import {SessionLogWriter} from '../../../src/session/recorder/log-writer.js';
import {fixture, useTempDir} from '../helpers.js';
import {readFileSync} from 'node:fs';

let dir: string;
useTempDir((created) => {
	dir = created;
});
afterEach(() => {
	vi.unstubAllEnvs();
});

const result = (callId: string, isError: boolean) => ({
	type: 'tool/result' as const,
	time: 3,
	data: {message: {role: 'user', source: {kind: 'tool', callId}, content: [{type: 'tool-result' as const, toolCallId: callId, content: [{type: 'text', text: 'x'}], isError}]}},
});

describe('sessionsRoot', () => {
	it('prefers the argument, then CARDTERM_SESSION_DIR, then the per-user data directory', () => {
		vi.stubEnv('CARDTERM_SESSION_DIR', '/from/env');
		expect(sessionsRoot('/from/flag')).toBe('/from/flag');
		expect(sessionsRoot()).toBe('/from/env');
		vi.stubEnv('CARDTERM_SESSION_DIR', '');
		expect(sessionsRoot()).toBe(join(envPaths('cardterm', {suffix: ''}).data, 'sessions'));
	});
});

describe('createSessionDir', () => {
	it('creates one folder per session, named by its UTC creation time and a random suffix', () => {
		const root = join(dir, 'sessions');
		const created = createSessionDir(root, '/home/u/proj', Date.UTC(2026, 11, 2, 11, 5, 3));
		expect(created.id).toMatch(/^2026-12-02T11-05-03-[0-9a-f]{4}$/);
		expect(created).toEqual({
			id: created.id,
			dir: join(root, created.id),
			logPath: join(root, created.id, 'session.jsonl'),
			header: {type: 'session', version: 0, id: created.id, createdAt: Date.UTC(2026, 11, 2, 11, 5, 3), cwd: '/home/u/proj', delegationDepth: 0},
		});
		expect(existsSync(created.dir)).toBe(true);
	});

	it('never reuses a folder for two sessions of the same second', () => {
		const ids = new Set(Array.from({length: 40}, () => createSessionDir(dir, '/', 0).id));
		expect(ids.size).toBe(40);
		expect(readdirSync(dir).length).toBe(40);
	});
});

describe('listSessions', () => {
	it('lists sessions newest first with title and counts of cards and failures', async () => {
		const older = createSessionDir(dir, '/a', 1000);
		const newer = createSessionDir(dir, '/b', 2000);
		const writer = await SessionLogWriter.open(older.logPath, older.header);
		writer.append({type: 'session/title', time: 1, data: {title: 'Fix the build'}});
		writer.append({type: 'tool/call', time: 2, data: {callId: 'c1', name: 'bash', arguments: '{}'}});
		writer.append(result('c1', true));
		writer.append({type: 'tool/call', time: 2, data: {callId: 'c2', name: 'read', arguments: '{}'}});
		writer.append(result('c2', false));
		await writer.close();
		const newerWriter = await SessionLogWriter.open(newer.logPath, {...newer.header, title: 'Header title'});
		newerWriter.append({type: 'user/message', time: 4, data: {content: [{type: 'text', text: 'hi'}]}});
		await newerWriter.close();
		// Nothing after its header: an empty session, not listed.
		const empty = createSessionDir(dir, '/c', 3000);
		await (await SessionLogWriter.open(empty.logPath, empty.header)).close();
		mkdirSync(join(dir, 'broken'));
		writeFileSync(join(dir, 'broken', 'session.jsonl'), '');
		const unreadable: string[] = [];
		expect(await listSessions(dir, {onUnreadable: (folder, error) => unreadable.push(`${folder} ${error.reason}`)})).toEqual([
			{id: newer.id, createdAt: 2000, cwd: '/b', title: 'Header title', agent: 'cardterm', dir: newer.dir, path: newer.logPath, prompt: 'hi', turns: 0, failedTurns: 0, cards: 0, failures: 0, outcomes: emptyOutcomeCounts()},
			{id: older.id, createdAt: 1000, cwd: '/a', title: 'Fix the build', agent: 'cardterm', dir: older.dir, path: older.logPath, prompt: undefined, turns: 0, failedTurns: 0, cards: 2, failures: 1, outcomes: {...emptyOutcomeCounts(), ok: 1, error: 1}},
		]);
		expect(unreadable).toEqual([`${join(dir, 'broken')} missing header: the file is empty`]);
	});

	it('reads only headers when counts are not wanted, and finds zstd logs', async () => {
		mkdirSync(join(dir, 'z'));
		writeFileSync(join(dir, 'z', 'session.jsonl.zst'), readFileSync(fixture('basic.jsonl.zst')));
		expect(await listSessions(dir, {counts: false})).toEqual([
			{id: 's-basic', createdAt: 1790000000000, cwd: '/home/u/proj', title: undefined, agent: 'cardterm', dir: join(dir, 'z'), path: join(dir, 'z', 'session.jsonl.zst'), prompt: undefined, turns: undefined, failedTurns: undefined, cards: undefined, failures: undefined, outcomes: undefined},
		]);
		expect((await listSessions(dir))[0]).toEqual({id: 's-basic', createdAt: 1790000000000, cwd: '/home/u/proj', title: 'List the files', agent: 'cardterm', dir: join(dir, 'z'), path: join(dir, 'z', 'session.jsonl.zst'), prompt: undefined, turns: 1, failedTurns: 0, cards: 1, failures: 0, outcomes: {...emptyOutcomeCounts(), ok: 1}});
	});

	it('is empty when the root does not exist', async () => {
		expect(await listSessions(join(dir, 'none'))).toEqual([]);
	});
});
