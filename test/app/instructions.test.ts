/**
Instruction files through the real `bin/cardterm` against the fake model server (issue 31): the
request's system prompt holds the user's global file, the repository root's `AGENTS.md`, a nested
folder's `CLAUDE.md` (no `AGENTS.md` beside it) and the working directory's `AGENTS.md`, in that
order, with an `@path` import; `/instructions` in the interactive session lists them with their
origin and estimated tokens. Needs a built dist/ (rebuilt here when older than the sources); the
interactive part needs tmux.
*/
import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, shellWord, shows, tmux, tmuxMissing} from './e2e-helpers.js';

let folder = '';
let repo = '';
let work = '';
let server: FakeModelServer | undefined;

const environment = (): Record<string, string> => ({PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, OPENAI_API_KEY: 'test', CARDTERM_SESSION_DIR: join(folder, 'sessions'), XDG_CONFIG_HOME: join(folder, 'config')});

beforeAll(async () => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-instructions-e2e-'));
	repo = join(folder, 'repo');
	work = join(repo, 'packages', 'app');
	mkdirSync(join(repo, '.git'), {recursive: true});
	mkdirSync(work, {recursive: true});
	mkdirSync(join(folder, 'config', 'cardterm'), {recursive: true});
	writeFileSync(join(folder, 'config', 'cardterm', 'AGENTS.md'), 'USER-LEVEL: answer in British English.\n');
	writeFileSync(join(repo, 'AGENTS.md'), 'ROOT-LEVEL: run npm test before you finish. Style: @docs/style.md\n');
	mkdirSync(join(repo, 'docs'));
	writeFileSync(join(repo, 'docs', 'style.md'), 'IMPORTED-STYLE: tabs, not spaces.\n');
	writeFileSync(join(repo, 'packages', 'CLAUDE.md'), 'CLAUDE-LEVEL: packages are published together.\n');
	writeFileSync(join(work, 'AGENTS.md'), 'APP-LEVEL: this app is an Ink screen.\n');
	writeFileSync(join(work, 'CLAUDE.md'), 'SHADOWED: AGENTS.md is beside me.\n');
	server = await startFakeModelServer({script: [{text: ['Understood.']}, {text: ['Understood again.']}]});
}, 300_000);

afterAll(async () => {
	killTmuxServer();
	await server?.close();
	if (folder !== '') {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('instruction files reach the model', () => {
	it('-p sends the user file, the root AGENTS.md, its import, a CLAUDE.md and the cwd AGENTS.md, most general first', async () => {
		// Not spawnSync: the fake server answers from this process.
		const child = spawn(process.execPath, [cardterm, '-p', 'hello', '--base-url', server!.url, '--model', 'fake-model', '--no-color'], {cwd: work, env: environment()});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString('utf8');
		});
		const run = {stderr, status: await new Promise<number | null>(resolve => child.on('close', resolve))};
		run.stderr = stderr;
		expect(run.stderr).toContain('session saved');
		expect(run.status).toBe(0);
		const system = String(server!.requests[0]!.body.messages[0]!.content);
		const order = ['USER-LEVEL', 'ROOT-LEVEL', 'IMPORTED-STYLE', 'CLAUDE-LEVEL', 'APP-LEVEL'].map(marker => system.indexOf(marker));
		expect(order.every(position => position > 0)).toBe(true);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expect(system).not.toContain('SHADOWED');
		expect(system).toContain(`<instructions file="${join(repo, 'packages', 'CLAUDE.md')}">`);
	}, 60_000);

	it.skipIf(tmuxMissing)('/instructions lists each file, where it comes from and its estimated tokens (skipped without tmux)', async () => {
		const command = cardtermCommand(environment(), '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '160', '-y', '30', '-c', work, command);
		await shows('openai-compatible:fake-model');
		tmux('send-keys', '-t', 'e2e', '/instructions', 'Enter');
		await shows('estimated at 4 characters a token');
		await shows(`(project files relative to ${repo})`);
		await shows(`${join(folder, 'config', 'cardterm', 'AGENTS.md')}  the user's  ~10 tokens`);
		await shows('  AGENTS.md  the project\'s  ~17 tokens');
		await shows('  docs/style.md  imported by AGENTS.md  ~9 tokens');
		await shows('  packages/CLAUDE.md  the project\'s  ~12 tokens');
		await shows('  packages/app/AGENTS.md  the project\'s  ~10 tokens');
		tmux('send-keys', '-t', 'e2e', 'C-d');
	}, 90_000);
});
