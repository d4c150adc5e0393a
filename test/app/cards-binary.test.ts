/**
Cards and Markdown a person can read (issue 16, first day items 5, 15, 18, 19), through the real
`bin/cardterm`: a settled edit card shows the fix, numbered, and folds its context first; Markdown
headings and code fences are rendered, not shown raw; truncated command output is kept in a spill
file the card names; `cardterm demo` shows a conversation. Needs a built dist/ (rebuilt when older
than the sources).
*/
import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardtermCommand, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing} from './e2e-helpers.js';

let folder = '';
let workspace = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-cards-'));
	workspace = join(folder, 'work');
	mkdirSync(workspace);
}, 300_000);

afterAll(() => {
	killTmuxServer();
	rmSync(folder, {recursive: true, force: true});
});

/** `bin/cardterm ARGS` in the workspace, with a clean environment. */
async function run(args: readonly string[], extra: Record<string, string> = {}): Promise<{code: number; stdout: string; stderr: string}> {
	const [command, ...rest] = cardtermCommand({XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data'), CARDTERM_SESSION_DIR: join(folder, 'sessions'), ...extra}, ...args);
	return new Promise(resolve => {
		execFile(command!, rest, {cwd: workspace, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024}, (error, stdout, stderr) => {
			resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stdout, stderr});
		});
	});
}

describe('a settled edit card (item 5)', () => {
	it('shows both changes whole, numbered old and new, with the context around them cut first', async () => {
		const twenty = (word: string) => `${Array.from({length: 20}, (_, index) => (index === 2 || index === 15 ? `const ${word} = true // ${index + 1}` : `line ${index + 1}`)).join('\n')}\n`;
		writeFileSync(join(workspace, 'app.ts'), twenty('DEBUG'));
		const {code, stdout, stderr} = await run(['call', 'edit', JSON.stringify({file_path: 'app.ts', old_string: 'DEBUG', new_string: 'RELEASE', replace_all: true}), '--width', '80', '--no-color']);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		// Before: `… 7 lines hidden (of 16)` took the second `-` line and kept three lines of context on each side.
		expect(stdout.split('\n').slice(1)).toEqual([
			'app.ts',
			' 2   line 2',
			' 3 - const DEBUG = true // 3',
			' 3 + const RELEASE = true // 3',
			' 4   line 4',
			'   ⋯ 10 unchanged lines',
			'15   line 15',
			'16 - const DEBUG = true // 16',
			'16 + const RELEASE = true // 16',
			'17   line 17',
			'+2 −2 · 1 file',
			'',
		]);
	}, 60_000);
});

describe('Markdown in the model\'s answer (item 18)', () => {
	it('draws headings without their # and code without its fences, in replay --print as in every view', async () => {
		const answer = '## Result\n\nDEBUG is **off**.\n\n```ts\nconst debug = false;\n```\n\n### Next\n\nRun the tests.';
		const log = join(folder, 'markdown.jsonl');
		const events = [
			{type: 'session', version: 0, id: 's-markdown', createdAt: 1_790_000_000_000, cwd: workspace, delegationDepth: 0},
			{type: 'turn/start', seq: 0, time: 1_790_000_000_001, data: {turn: 1}},
			{type: 'user/message', seq: 1, time: 1_790_000_000_002, data: {turn: 1, message: {role: 'user', content: [{type: 'text', text: 'Is DEBUG off?'}]}}},
			{type: 'step/start', seq: 2, time: 1_790_000_000_003, data: {turn: 1, step: 1}},
			{type: 'assistant/message', seq: 3, time: 1_790_000_000_004, data: {turn: 1, step: 1, message: {id: 'a-1', role: 'assistant', content: [{type: 'text', text: answer}], source: {kind: 'model', provider: 'p', model: 'm'}}}, surfaceOp: 'append'},
			{type: 'step/end', seq: 4, time: 1_790_000_000_005, data: {turn: 1, step: 1}},
			{type: 'turn/end', seq: 5, time: 1_790_000_000_006, data: {turn: 1, reason: {kind: 'completed'}}},
		];
		writeFileSync(log, `${events.map(event => JSON.stringify(event)).join('\n')}\n`);
		const {code, stdout, stderr} = await run(['replay', log, '--print', '--width', '80', '--no-color']);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const answerRows = stdout.split('\n');
		const from = answerRows.indexOf('Result');
		// Before: `## Result`, `### Next`, and the fence rows ```ts and ``` around the code.
		expect(answerRows.slice(from, from + 7)).toEqual(['Result', '', 'DEBUG is off.', '', '  const debug = false;', '', 'Next']);
		expect(stdout).not.toContain('#');
		expect(stdout).not.toContain('```');
	}, 60_000);
});

describe('truncated command output (item 19)', () => {
	it('is kept whole in a spill file in the session folder, and the card says where', async () => {
		const sessionFolder = join(folder, 'sessions', 'spilled');
		mkdirSync(sessionFolder, {recursive: true});
		const {code, stdout} = await run(['call', 'bash', JSON.stringify({command: 'seq 1 30000', description: 'Count far'}), '--log', join(sessionFolder, 'session.jsonl'), '--width', '200', '--no-color']);
		expect(code).toBe(0);
		// Before: `[output truncated; the full output was not kept]`.
		const named = /\[output truncated; full output: (\S+)\]/.exec(stdout)?.[1];
		expect(named).toBeDefined();
		expect(dirname(named!)).toBe(join(sessionFolder, 'spill'));
		expect(readFileSync(named!, 'utf8')).toBe(`${Array.from({length: 30_000}, (_, index) => index + 1).join('\n')}\n`);
		expect(statSync(named!).mode & 0o777).toBe(0o600);
	}, 60_000);

	it('is kept in a private temporary folder when the call has no log', async () => {
		const {code, stdout} = await run(['call', 'bash', JSON.stringify({command: 'seq 1 30000', description: 'Count far'}), '--width', '200', '--no-color']);
		expect(code).toBe(0);
		const named = /\[output truncated; full output: (\S+)\]/.exec(stdout)?.[1];
		expect(named?.startsWith(join(tmpdir(), 'cardterm-spill-'))).toBe(true);
		expect(statSync(dirname(named!)).mode & 0o777).toBe(0o700);
		expect(readFileSync(named!, 'utf8').split('\n')).toHaveLength(30_001);
		rmSync(dirname(named!), {recursive: true, force: true});
	}, 60_000);
});

describe('cardterm demo (item 15)', () => {
	it('prints a conversation: the person\'s messages, the model\'s reasoning and answers, turn ends, around the cards', async () => {
		const {code, stdout} = await run(['demo', '--print', '--width', '100', '--no-color']);
		expect(code).toBe(0);
		const rows = stdout.split('\n');
		// Before: cards only, one turn per call, none of the lines below.
		expect(rows[0]).toBe('› The config test fails while DEBUG is on. Turn DEBUG off everywhere and run the tests.');
		expect(rows[1]).toBe('∴ Let me see the config and every place that reads DEBUG.');
		expect(rows[2]).toMatch(/^● read src\/config\.ts · \d+ms$/);
		expect(rows[3]).toBe('src/config.ts · lines 1–4 of 4');
		expect(rows.filter(row => row.startsWith('› '))).toHaveLength(6);
		expect(rows.filter(row => row.startsWith('── completed · '))).toHaveLength(4);
		expect(rows.some(row => row.startsWith('── cancelled by you · '))).toBe(true);
		expect(rows.some(row => row.startsWith('── interrupted (crash)'))).toBe(true);
		const answer = rows.indexOf('Result');
		expect(rows.slice(answer, answer + 5)).toEqual(['Result', '', 'DEBUG is off in src/config.ts, and src/app.ts uses RELEASE now. Four tests pass; one still fails:', '', "  expect(config.level).toBe('warn'); // src/config.test.ts"]);
	}, 60_000);

	it.skipIf(tmuxMissing)('opens the pager on the same transcript, the read card\'s path as --print shows it (tmux)', async () => {
		const command = cardtermCommand({XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data')}, 'demo').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'demo', '-x', '100', '-y', '30', '-c', workspace, command);
		await shows('? help · q quit', 'demo');
		await shows('── interrupted (crash)', 'demo');
		tmux('send-keys', '-t', 'demo', 'g');
		await shows('› The config test fails', 'demo');
		const top = screen('demo');
		// Before: `/home/demo/project/src/config.ts · lines 1–4 of 4` in the pager, `src/config.ts · …` in print.
		expect(top).toContain('\nsrc/config.ts · lines 1–4 of 4\n');
		expect(top).not.toContain('/home/demo/project/src/config.ts');
		expect(top).toContain('∴ Let me see the config and every place that reads DEBUG.');
		tmux('send-keys', '-t', 'demo', 'q');
	}, 60_000);
});
