import {existsSync} from 'node:fs';
import {chmod, mkdir, mkdtemp, readdir, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {exportOpencodeSession, listOpencodeSessions} from '../../../src/host/opencode-sessions.js';
import {fakeIo} from '../cli-io-fake.js';

const fixture = join(import.meta.dirname, '../../fixtures/foreign-sessions/opencode/ses_db5d9a862ffesY1b7n6U2Btwa5.json');
const id = 'ses_db5d9a862ffesY1b7n6U2Btwa5';

/** The real opencode make-fixtures.mjs installed (AGENTS_PREFIX), and the scratch HOME its session is in. */
const realOpencode = join(process.env.AGENTS_PREFIX ?? '/tmp/agents', 'node_modules/.bin/opencode');
const scratch = join(process.env.SCRATCH ?? '/tmp/cardterm-foreign', 'opencode');
const realPresent = existsSync(realOpencode) && existsSync(join(scratch, 'home/.local/share/opencode/opencode.db'));

/**
A fake `opencode` on PATH, answering as opencode 1.18.33 does: `session list --format json` lists the
recorded session in the folder it runs in (and one of another folder), `export ID` prints the recorded
export. It notes each run's arguments and HOME, so the tests see what cardterm asked and with which home.
*/
async function fakeOpencode(behaviour: 'records' | 'hangs' | 'fails' = 'records'): Promise<{bin: string; calls: string}> {
	const bin = await mkdtemp(join(tmpdir(), 'cardterm-fake-opencode-'));
	const calls = join(bin, 'calls.txt');
	const body = {
		records: `case "$1 $2" in
  "session list") printf '[{"id":"${id}","title":"Friendlier greeting","updated":1796540363034,"created":1796540356509,"projectId":"global","directory":"%s"},{"id":"ses_other","title":"elsewhere","updated":1796540363999,"created":1796540356000,"directory":"/somewhere/else"}]\\n' "$PWD" ;;
  "export ${id}") cat '${fixture}' ;;
  *) echo "Error: Session not found: $2" >&2; exit 1 ;;
esac`,
		// `sleep` is a child of the script: the timeout must stop the whole group, or the pipes stay open.
		hangs: 'sleep 60',
		fails: 'echo "INFO starting" >&2; printf "Error: database \\033]0;owned\\007is locked\\n" >&2; exit 1',
	}[behaviour];
	await writeFile(join(bin, 'opencode'), `#!/bin/sh\necho "$* HOME=$HOME" >> '${calls}'\n${body}\n`);
	await chmod(join(bin, 'opencode'), 0o755);
	return {bin, calls};
}

async function run(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{code: number; out: string; err: string}> {
	const io = fakeIo({cwd, env});
	const code = await main(argv, io);
	return {code, out: io.out(), err: io.err()};
}

describe('opencode sessions through its CLI', () => {
	it('sessions --all lists this folder\'s opencode sessions with their calls and failures; replay opencode:ID reads the export; nothing is left behind', async () => {
		const {bin, calls} = await fakeOpencode();
		const home = await mkdtemp(join(tmpdir(), 'cardterm-home-'));
		const cwd = await mkdtemp(join(tmpdir(), 'cardterm-project-'));
		const env = {HOME: home, PATH: `${bin}:/usr/bin:/bin`};
		// Where opencode keeps no data, it is not started.
		expect((await run(['sessions', '--all', '--session-dir', join(home, 'cardterm')], cwd, env)).out).toBe(`no saved sessions of ${cwd} by any agent\n`);
		expect(existsSync(calls)).toBe(false);
		await mkdir(join(home, '.local/share/opencode'), {recursive: true});
		const before = (await readdir(tmpdir())).filter(name => name.startsWith('cardterm-opencode-')).length;

		const json = await run(['sessions', '--all', '--session-dir', join(home, 'cardterm'), '--json'], cwd, env);
		expect(json.err).toBe('');
		const listed = json.out.trim().split('\n').map(line => JSON.parse(line) as {agent: string; path: string; cards: number; failures: number; title: string});
		// The session of another folder is not listed; the recorded one has 10 cards, 3 not ok (denied, failed, interrupted).
		expect(listed.map(session => [session.agent, session.path, session.title, session.cards, session.failures])).toEqual([['opencode', `opencode:${id}`, 'Friendlier greeting', 10, 3]]);
		const text = await run(['sessions', '--all', '--session-dir', join(home, 'cardterm')], cwd, env);
		expect(text.out).toMatch(new RegExp(`^2026-\\d\\d-\\d\\d \\d\\d:\\d\\d {2}opencode {2}Friendlier greeting {2}10 cards {2}.+ {2}opencode:${id}\\n$`));
		// Search reads the exported content: a call's argument.
		const search = await run(['sessions', '--all', '--session-dir', join(home, 'cardterm'), '--search', 'process.exit(3)'], cwd, env);
		expect(search.out).toContain(`opencode:${id}\n    a call: `);

		const replay = await run(['replay', `opencode:${id}`, '--json'], cwd, env);
		expect(replay.err).toBe('');
		const cards = replay.out.trim().split('\n').map(line => JSON.parse(line) as {entry: string; name?: string; outcome?: string}).filter(entry => entry.entry === 'card');
		expect(cards.map(card => `${card.name} ${card.outcome}`)).toEqual(['opencode:bash ok', 'opencode:read ok', 'opencode:grep ok', 'opencode:glob ok', 'opencode:todowrite ok', 'opencode:edit ok', 'opencode:write ok', 'opencode:bash denied', 'opencode:bash failed', 'opencode:bash interrupted']);
		const page = await run(['export', `opencode:${id}`, '--md'], cwd, env);
		expect(page.out).toContain('Friendlier greeting');

		// An export is a copy of the session as it was: watch says so rather than wait on it for ever.
		const watch = fakeIo({cwd, env, isTTY: true});
		expect(await main(['watch', `opencode:${id}`], watch)).toBe(2);
		expect(watch.err()).toContain(`watch: opencode:${id} is read through opencode export, a copy of the session as it was (nothing to follow); replay opencode:${id} reads it`);

		// Run with the person's HOME, in the project folder; each export's copy removed once read.
		const asked = (await import('node:fs')).readFileSync(calls, 'utf8').trim().split('\n');
		expect(asked).toContain(`session list --format json HOME=${home}`);
		expect(asked).toContain(`export ${id} HOME=${home}`);
		expect((await readdir(tmpdir())).filter(name => name.startsWith('cardterm-opencode-')).length).toBe(before);
	});

	it('without opencode on PATH: one line where opencode keeps data, none where it does not; replay says what it needs', async () => {
		const home = await mkdtemp(join(tmpdir(), 'cardterm-home-'));
		const cwd = await mkdtemp(join(tmpdir(), 'cardterm-project-'));
		const env = {HOME: home, PATH: '/nonexistent'};
		const none = await run(['sessions', '--all', '--session-dir', join(home, 'cardterm')], cwd, env);
		expect(none.err).toBe('');
		await mkdir(join(home, '.local/share/opencode'), {recursive: true});
		const some = await run(['sessions', '--all', '--session-dir', join(home, 'cardterm')], cwd, env);
		expect(some.err).toBe('cardterm: opencode sessions are listed through its CLI: put opencode on PATH to list them (or replay what `opencode export ID > FILE` writes)\n');
		expect(some.out).toBe(`no saved sessions of ${cwd} by any agent\n`);
		const replay = await run(['replay', `opencode:${id}`, '--json'], cwd, env);
		expect(replay.code).toBe(65);
		expect(replay.err).toContain(`opencode:${id}: opencode sessions are read through its CLI, and opencode is not on PATH`);
	});

	it('a failing opencode is named with its last word; an unknown id and an id that looks like a flag are refused', async () => {
		const failing = await fakeOpencode('fails');
		const cwd = await mkdtemp(join(tmpdir(), 'cardterm-project-'));
		const home = await mkdtemp(join(tmpdir(), 'cardterm-home-'));
		await mkdir(join(home, '.local/share/opencode'), {recursive: true});
		const listed = await run(['sessions', '--all', '--session-dir', join(home, 'cardterm')], cwd, {HOME: home, PATH: failing.bin});
		expect(listed.code).toBe(0);
		// Its escape (a window title) is not passed on to the terminal.
		expect(listed.err).toMatch(/^cardterm: opencode sessions not listed: opencode session list --format json failed \(exit 1\): Error: database .*is locked\n$/);
		expect(listed.err).not.toContain('\u001B');
		const replayed = await run(['replay', `opencode:${id}`, '--json'], cwd, {HOME: home, PATH: failing.bin});
		expect(replayed.code).toBe(65);
		expect(replayed.err).toMatch(new RegExp(`^cardterm: opencode:${id}: opencode export ${id} failed \\(exit 1\\): Error: database .*is locked\n$`));
		expect(replayed.err).not.toContain('\u001B');

		const {bin} = await fakeOpencode();
		const unknown = await run(['replay', 'opencode:ses_missing', '--json'], cwd, {HOME: home, PATH: bin});
		expect(unknown.code).toBe(65);
		expect(unknown.err).toContain('opencode:ses_missing: opencode export ses_missing failed (exit 1): Error: Session not found: ses_missing');
		await expect(exportOpencodeSession(join(bin, 'opencode'), '--help', cwd, {PATH: bin})).rejects.toThrow('not an opencode session id: "--help"');
	});

	it('a hanging opencode is stopped at the timeout, with the process it started, and the timeout names it', async () => {
		const {bin} = await fakeOpencode('hangs');
		const cwd = await mkdtemp(join(tmpdir(), 'cardterm-project-'));
		await expect(listOpencodeSessions(join(bin, 'opencode'), cwd, {PATH: '/usr/bin:/bin'}, 300)).rejects.toThrow('opencode session list --format json did not finish in 0.3 s (stopped)');
		await expect(exportOpencodeSession(join(bin, 'opencode'), id, cwd, {PATH: '/usr/bin:/bin'}, 300)).rejects.toThrow(`opencode export ${id} did not finish in 0.3 s (stopped)`);
	});

	it.skipIf(!realPresent)('the real opencode lists and exports the fixture\'s session (skipped without make-fixtures.mjs opencode\'s install under AGENTS_PREFIX and its scratch HOME)', async () => {
		const home = join(scratch, 'home');
		// opencode's environment as make-fixtures.mjs ran it: every XDG folder in the scratch HOME.
		const env = {HOME: home, PATH: `${join(realOpencode, '..')}:${process.env.PATH ?? ''}`, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local/state'), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1'};
		const listed = await run(['sessions', '--all', '--session-dir', join(await mkdtemp(join(tmpdir(), 'cardterm-home-')), 'cardterm'), '--json'], join(scratch, 'project'), env);
		expect(listed.err).toBe('');
		expect(listed.out.trim().split('\n').map(line => JSON.parse(line) as {path: string; cards: number; failures: number}).map(session => [session.path, session.cards, session.failures])).toEqual([[`opencode:${id}`, 10, 3]]);
	}, 60_000);
});
