import {existsSync} from 'node:fs';
import {chmod, mkdir, mkdtemp, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../cli-io-fake.js';

describe('cardterm sessions', () => {
	it('lists sessions recorded by cardterm call, newest first, with card and failure counts', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-sessions-'));
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-ws-'));
		const logA = join(root, '2026-01-01T00-00-00-aaaa', 'session.jsonl');
		const logB = join(root, '2026-01-02T00-00-00-bbbb', 'session.jsonl');
		const {mkdir} = await import('node:fs/promises');
		await mkdir(join(root, '2026-01-01T00-00-00-aaaa'));
		await mkdir(join(root, '2026-01-02T00-00-00-bbbb'));
		expect(await main(['call', 'read', '{"file_path":"missing.txt"}', '--log', logA, '--cwd', workspace], fakeIo())).toBe(1);
		expect(await main(['call', 'glob', '{"pattern":"*"}', '--log', logB, '--cwd', workspace], fakeIo())).toBe(0);
		expect(await main(['call', 'glob', '{"pattern":"*"}', '--log', logB, '--cwd', workspace], fakeIo())).toBe(0);

		const io = fakeIo();
		expect(await main(['sessions', '--session-dir', root, '--json'], io)).toBe(0);
		const sessions = io.out().trim().split('\n').map(line => JSON.parse(line) as {path: string; cards: number; failures: number; cwd: string});
		expect(sessions.map(session => [session.path, session.cards, session.failures, session.cwd])).toEqual([
			[logB, 2, 0, workspace],
			[logA, 1, 1, workspace],
		]);
	});

	it('leaves out empty sessions (nothing after the header), also for replay --last', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-empty-sessions-'));
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-ws-'));
		await mkdir(join(root, '2026-01-01T00-00-00-full'));
		expect(await main(['call', 'glob', '{"pattern":"*"}', '--log', join(root, '2026-01-01T00-00-00-full', 'session.jsonl'), '--cwd', workspace], fakeIo())).toBe(0);
		await mkdir(join(root, '2026-01-02T00-00-00-void'));
		const header = {type: 'session', version: 0, id: '2026-01-02T00-00-00-void', createdAt: Date.UTC(2026, 0, 2), cwd: workspace, delegationDepth: 0};
		await writeFile(join(root, '2026-01-02T00-00-00-void', 'session.jsonl'), `${JSON.stringify(header)}\n\n`);

		for (const json of [false, true]) {
			const io = fakeIo();
			expect(await main(['sessions', '--session-dir', root, ...(json ? ['--json'] : [])], io)).toBe(0);
			expect(io.out()).not.toContain('void');
			expect(io.out().split('\n').filter(line => line !== '')).toHaveLength(1);
			expect(io.err()).toBe('');
		}

		const {newestSessionLog} = await import('../../../src/cli/commands/sessions-command.js');
		expect(await newestSessionLog(workspace, root)).toBe(join(root, '2026-01-01T00-00-00-full', 'session.jsonl'));
	});

	it('says where it looked when there are no sessions', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-empty-'));
		const io = fakeIo();
		expect(await main(['sessions', '--session-dir', root], io)).toBe(0);
		expect(io.out()).toBe(`no saved sessions in ${root}\n`);
	});
});

describe('cardterm sessions with bad sessions among good ones', () => {
	const good = {type: 'session', version: 0, id: '2026-01-01T00-00-00-good', createdAt: Date.UTC(2026, 0, 1), cwd: '/home/u/proj', delegationDepth: 0};
	// A session with nothing after its header is empty and not listed: each listed one holds an event.
	const event = JSON.stringify({type: 'user/message', seq: 0, time: Date.UTC(2026, 0, 1), data: {content: [{type: 'text', text: 'hi'}]}});

	/** A sessions root holding the good session and `bad` (folder name → what to put in it). */
	async function rootWith(bad: Record<string, (dir: string) => Promise<void>>): Promise<string> {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-bad-sessions-'));
		await mkdir(join(root, good.id));
		await writeFile(join(root, good.id, 'session.jsonl'), `${JSON.stringify(good)}\n${event}\n`);
		for (const [name, make] of Object.entries(bad)) {
			await mkdir(join(root, name));
			await make(join(root, name));
		}

		return root;
	}

	const logWith = (text: string) => async (dir: string) => writeFile(join(dir, 'session.jsonl'), text);
	const headerWith = (fields: Record<string, unknown>) => logWith(`${JSON.stringify({...good, id: 'bad', ...fields})}\n${event}\n`);

	/** Runs `sessions` in both output modes; each must list the good session and name each bad folder on one stderr line. */
	async function expectGoodListedBadNamed(root: string, badNames: readonly string[]): Promise<void> {
		for (const json of [false, true]) {
			const io = fakeIo();
			expect(await main(['sessions', '--session-dir', root, ...(json ? ['--json'] : [])], io)).toBe(0);
			const out = io.out().split('\n').filter(line => line !== '');
			expect(out).toHaveLength(1);
			expect(out[0]).toContain(good.id);
			const err = io.err().split('\n').filter(line => line !== '');
			expect(err).toHaveLength(badNames.length);
			for (const name of badNames) {
				expect(err.filter(line => line.startsWith(`cardterm: skipped ${join(root, name)}: `))).toHaveLength(1);
			}
		}
	}

	it('names a session whose header fields are of the wrong type, out of range or missing, and lists the others', async () => {
		const cases: Record<string, Record<string, unknown>> = {
			'created-huge': {createdAt: 1e300},
			'created-huge-negative': {createdAt: -1e300},
			'created-past-date-range': {createdAt: 8.64e15 + 1},
			'created-string': {createdAt: '2026-01-01'},
			'created-missing': {createdAt: undefined},
			'id-number': {id: 5},
			'id-missing': {id: undefined},
			'cwd-object': {cwd: {}},
			'title-array': {title: ['x']},
			'version-string': {version: '0'},
			'type-missing': {type: undefined},
		};
		const root = await rootWith(Object.fromEntries(Object.entries(cases).map(([name, fields]) => [name, headerWith(fields)])));
		await expectGoodListedBadNamed(root, Object.keys(cases));
		const io = fakeIo();
		await main(['sessions', '--session-dir', root], io);
		expect(io.err()).toContain(`${join(root, 'created-huge', 'session.jsonl')}:1: invalid header: "createdAt" must be epoch ms within ±8.64e15 (got 1e+300)`);
	});

	it('names a session whose first line is no header at all', async () => {
		const cases = {
			empty: logWith(''),
			'not-json': logWith('{"type":"session",\n'),
			'not-object': logWith('[1,2]\n'),
			'no-newline': logWith(JSON.stringify({...good, id: 'torn'})),
			binary: logWith('\u0000\u00ff\u0001garbage\n'),
		};
		await expectGoodListedBadNamed(await rootWith(cases), Object.keys(cases));
	});

	it('shows the latest representable time and keeps huge text fields to a bounded row', async () => {
		const root = await rootWith({
			'far-future': headerWith({id: 'far-future', createdAt: 8.64e15}),
			// Huge, but under the 1 MiB a header line may hold (log-header.ts MAX_HEADER_BYTES; larger ones are named).
			'huge-title': headerWith({id: 'huge-title', title: 'x'.repeat(800_000), cwd: `/${'d'.repeat(100_000)}`}),
		});
		const io = fakeIo();
		expect(await main(['sessions', '--session-dir', root], io)).toBe(0);
		expect(io.err()).toBe('');
		const rows = io.out().split('\n').filter(line => line !== '');
		expect(rows).toHaveLength(3);
		expect(rows.find(row => row.includes('far-future'))).toMatch(/^\+275760-09-13 00:00 /);
		for (const row of rows) {
			expect(row.length).toBeLessThan(1000);
		}
	});

	it('names a session whose log cannot be read and lists the others', async () => {
		const cases: Record<string, (dir: string) => Promise<void>> = {};
		// A file whose read fails (EIO): /proc/self/mem has no mapping at offset 0 (Linux only).
		if (existsSync('/proc/self/mem')) {
			cases['read-fails'] = async dir => symlink('/proc/self/mem', join(dir, 'session.jsonl'));
		}

		// Permission bits stop anyone but root.
		if (process.getuid?.() !== 0) {
			cases['no-permission'] = async dir => {
				await writeFile(join(dir, 'session.jsonl'), `${JSON.stringify(good)}\n`);
				await chmod(join(dir, 'session.jsonl'), 0);
			};
		}

		cases['dangling-link'] = async dir => symlink(join(dir, 'nowhere'), join(dir, 'session.jsonl'));
		await expectGoodListedBadNamed(await rootWith(cases), Object.keys(cases));
	});

	it('names folders where files should be and ignores stray files', async () => {
		const root = await rootWith({
			'log-is-folder': async dir => mkdir(join(dir, 'session.jsonl')),
			'no-log': async () => undefined,
		});
		await writeFile(join(root, 'notes.txt'), 'not a session\n');
		await expectGoodListedBadNamed(root, ['log-is-folder', 'no-log']);
		const io = fakeIo();
		expect(await main(['sessions', '--session-dir', join(root, 'notes.txt')], io)).toBe(1);
		expect(io.err()).toBe(`cardterm: cannot list sessions in ${join(root, 'notes.txt')}: it is not a folder\n`);
	});

	it('shows escape sequences and newlines in folder names and header fields escaped, one line per session', async () => {
		const hostile = 'evil\u001b]0;pwned\u0007\n\u001b[2J\u202e';
		const root = await rootWith({
			[`bad-${hostile}`]: logWith('not json\n'),
			[`good-${hostile}`]: headerWith({id: `id-${hostile}`, cwd: `/cwd-${hostile}`, title: `title-${hostile}`}),
		});
		for (const json of [false, true]) {
			const io = fakeIo();
			expect(await main(['sessions', '--session-dir', root, ...(json ? ['--json'] : [])], io)).toBe(0);
			// eslint-disable-next-line no-control-regex -- the point: no control character reaches the terminal
			expect(`${io.out()}${io.err()}`.replaceAll('\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
			expect(io.out().split('\n').filter(line => line !== '')).toHaveLength(2);
			expect(io.err().split('\n').filter(line => line !== '')).toHaveLength(1);
			expect(io.err()).toContain('bad-evil\\x1b]0;pwned\\x07\\n\\x1b[2J\\u202e');
		}
	});
});
