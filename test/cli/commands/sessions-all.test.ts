import {cp, mkdir, mkdtemp, readdir, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../cli-io-fake.js';

const fixtures = join(import.meta.dirname, '../../fixtures/foreign-sessions');
const jsonl = async (dir: string): Promise<string> => (await readdir(dir)).find(name => name.endsWith('.jsonl'))!;

type Listed = {agent: string; path: string; cards: number; failures: number; title?: string; prompt?: string; cwd: string};

async function listAll(home: string, cwd: string, env: Record<string, string> = {}): Promise<{listed: Listed[]; text: string; err: string}> {
	const json = fakeIo({cwd, env: {HOME: home, ...env}});
	expect(await main(['sessions', '--all', '--session-dir', join(home, 'cardterm'), '--json'], json)).toBe(0);
	const text = fakeIo({cwd, env: {HOME: home, ...env}});
	expect(await main(['sessions', '--all', '--session-dir', join(home, 'cardterm')], text)).toBe(0);
	return {listed: json.out().trim().split('\n').filter(line => line !== '').map(line => JSON.parse(line) as Listed), text: text.out(), err: json.err()};
}

describe('cardterm sessions --all', () => {
	it('finds each agent\'s session of this folder where the agent saved it, with its calls and failures', async () => {
		const home = await mkdtemp(join(tmpdir(), 'cardterm-home-'));
		// Each fixture where its agent saves it, for the folder it was written in.
		const claude = join(home, '.claude/projects/-tmp-cardterm-foreign-claude-project');
		await mkdir(claude, {recursive: true});
		await cp(join(fixtures, 'claude'), claude, {recursive: true});
		const codex = join(home, '.codex/sessions/2026/12/06');
		await mkdir(codex, {recursive: true});
		await cp(join(fixtures, 'codex', await jsonl(join(fixtures, 'codex'))), join(codex, await jsonl(join(fixtures, 'codex'))));
		const gemini = join(home, '.gemini/tmp/project');
		await mkdir(join(gemini, 'chats'), {recursive: true});
		await writeFile(join(gemini, '.project_root'), '/tmp/cardterm-foreign/gemini/project');
		await cp(join(fixtures, 'gemini', await jsonl(join(fixtures, 'gemini'))), join(gemini, 'chats', await jsonl(join(fixtures, 'gemini'))));
		const pi = join(home, '.pi/agent/sessions/--tmp-cardterm-foreign-pi-project--');
		await mkdir(pi, {recursive: true});
		await cp(join(fixtures, 'pi', await jsonl(join(fixtures, 'pi'))), join(pi, await jsonl(join(fixtures, 'pi'))));

		const expected: Array<[string, string, number, number]> = [
			['claude', 'Claude Code', 11, 5],
			['codex', 'Codex', 6, 2],
			['gemini', 'Gemini CLI', 8, 1],
			['pi', 'pi', 8, 3],
		];
		for (const [agent, name, cards, failures] of expected) {
			const {listed, text, err} = await listAll(home, `/tmp/cardterm-foreign/${agent}/project`);
			expect(err).toBe('');
			expect(listed.map(session => [session.agent, session.cards, session.failures, session.prompt])).toEqual([[name, cards, failures, 'Make greet friendlier and add a farewell module.']]);
			expect(text).toContain(`${name}  Make greet friendlier and add a farewell module.  ${cards} cards`);
		}
	});

	it('follows the agents\' own variables to moved folders, and lists nothing of another folder', async () => {
		const home = await mkdtemp(join(tmpdir(), 'cardterm-home-'));
		const moved = await mkdtemp(join(tmpdir(), 'cardterm-codex-'));
		await mkdir(join(moved, 'sessions/2026/12/06'), {recursive: true});
		await cp(join(fixtures, 'codex', await jsonl(join(fixtures, 'codex'))), join(moved, 'sessions/2026/12/06', await jsonl(join(fixtures, 'codex'))));
		expect((await listAll(home, '/tmp/cardterm-foreign/codex/project', {CODEX_HOME: moved})).listed.map(session => session.agent)).toEqual(['Codex']);
		expect((await listAll(home, '/elsewhere', {CODEX_HOME: moved})).text).toBe('no saved sessions of /elsewhere by any agent\n');
	});
	it('--search finds sessions by their content across agents, printed with where they matched', async () => {
		const home = await mkdtemp(join(tmpdir(), 'cardterm-home-'));
		const claude = join(home, '.claude/projects/-tmp-cardterm-foreign-claude-project');
		await mkdir(claude, {recursive: true});
		await cp(join(fixtures, 'claude'), claude, {recursive: true});
		const cwd = '/tmp/cardterm-foreign/claude/project';
		const search = async (...args: string[]): Promise<{out: string; err: string}> => {
			const io = fakeIo({cwd, env: {HOME: home}});
			expect(await main(['sessions', '--all', '--session-dir', join(home, 'cardterm'), '--search', ...args], io)).toBe(0);
			return {out: io.out(), err: io.err()};
		};

		// In a call's arguments (the failing check), in the person's first message, in no session.
		const inCall = await search('PROCESS.exit(3)');
		expect(inCall.err).toBe('');
		expect(inCall.out).toMatch(/^.*Claude Code {2}Make greet friendlier and add a farewell module\. {2}11 cards.*\n {4}a call: .*process\.exit\(3\).*\n$/);
		expect((await search('farewell module')).out).toContain('\n    the first message: Make greet friendlier and add a farewell module.\n');
		expect((await search('no session says this')).out).toBe('no session holds "no session says this"\n');
		const json = fakeIo({cwd, env: {HOME: home}});
		expect(await main(['sessions', '--all', '--session-dir', join(home, 'cardterm'), '--json', '--search', 'a tiny project'], json)).toBe(0);
		const listed = json.out().trim().split('\n').map(line => JSON.parse(line) as Listed & {match: {where: string; snippet: string}});
		// The README's words: in a result (the read) of the main session, and of the subagent's transcript.
		expect(listed.map(session => session.match.where)).toContain('a result');
	});
});
