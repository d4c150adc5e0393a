/**
The files a person keeps for the prompt, through the real `bin/cardterm` against the fake model
server (issue 31). Instruction files: the request's system prompt holds the user's global file, the
repository root's `AGENTS.md` with its `@path` import, a nested folder's `CLAUDE.md` (no `AGENTS.md`
beside it) and the working directory's `AGENTS.md`, most general first; `/instructions` lists them
with their origin and estimated tokens. Commands a person writes: `-p "/review ARGS"` sends the
project command's prompt with its arguments filled in; `/help` lists the user's and the project's
commands with their descriptions, Tab completes one, and running it sends its prompt. Needs a built
dist/ (rebuilt here when older than the sources); the interactive part needs tmux.
*/
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardtermCommand, isolatedEnvironment, killTmuxServer, runCardterm, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';
let repo = '';
let work = '';
let server: FakeModelServer | undefined;

/** `-p PROMPT` against the fake server, no colour. */
const once = (prompt: string): string[] => ['-p', prompt, '--base-url', server!.url, '--model', 'fake-model', '--no-color'];

/** The request the fake server got whose person's message is `text`. */
function requestOf(text: string) {
	return server!.requests.find(request => request.body.messages.findLast(message => message.role === 'user')?.content === text);
}

function put(path: string, text: string): void {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, text);
}

beforeAll(async () => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-prompt-files-e2e-'));
	repo = join(folder, 'repo');
	work = join(repo, 'packages', 'app');
	mkdirSync(join(repo, '.git'), {recursive: true});
	put(join(folder, 'config', 'cardterm', 'AGENTS.md'), 'USER-LEVEL: answer in British English.\n');
	put(join(repo, 'AGENTS.md'), 'ROOT-LEVEL: run npm test before you finish. Style: @docs/style.md\n');
	put(join(repo, 'docs', 'style.md'), 'IMPORTED-STYLE: tabs, not spaces.\n');
	put(join(repo, 'packages', 'CLAUDE.md'), 'CLAUDE-LEVEL: packages are published together.\n');
	put(join(work, 'AGENTS.md'), 'APP-LEVEL: this app is an Ink screen.\n');
	put(join(work, 'CLAUDE.md'), 'SHADOWED: AGENTS.md is beside me.\n');
	put(join(work, '.cardterm', 'commands', 'review.md'), '---\ndescription: Review a file for one concern\nargument-hint: FILE CONCERN\n---\nReview $1 with an eye on $2. All arguments: $ARGUMENTS\n');
	put(join(folder, 'config', 'cardterm', 'commands', 'standup.md'), '---\ndescription: What changed since yesterday\n---\nList the commits since yesterday.\n');
	server = await startFakeModelServer({script: [{text: ['Understood.']}, {text: ['Reviewed.']}, {text: ['Listed.']}]});
}, 300_000);

afterAll(async () => {
	killTmuxServer();
	await server?.close();
	if (folder !== '') {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('instruction files and commands through bin/cardterm', () => {
	it('-p sends the user file, the root AGENTS.md, its import, a CLAUDE.md and the cwd AGENTS.md, most general first', async () => {
		const run = await runCardterm(once('hello'), work, isolatedEnvironment(folder));
		expect(run.stderr).toContain('session saved');
		expect(run.status).toBe(0);
		const system = String(requestOf('hello')!.body.messages[0]!.content);
		const order = ['USER-LEVEL', 'ROOT-LEVEL', 'IMPORTED-STYLE', 'CLAUDE-LEVEL', 'APP-LEVEL'].map(marker => system.indexOf(marker));
		expect(order.every(position => position > 0)).toBe(true);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expect(system).not.toContain('SHADOWED');
		expect(system).toContain(`<instructions file="${join(repo, 'packages', 'CLAUDE.md')}">`);
	}, 60_000);

	it('-p "/review ARGS" sends the command\'s prompt with its arguments filled in', async () => {
		const run = await runCardterm(once('/review src/app.ts security'), work, isolatedEnvironment(folder));
		expect(run.status).toBe(0);
		expect(requestOf('Review src/app.ts with an eye on security. All arguments: src/app.ts security')).toBeDefined();
	}, 60_000);

	it.skipIf(tmuxMissing)('/instructions lists the files; /help lists the commands, Tab completes one, and it runs (skipped without tmux)', async () => {
		const command = cardtermCommand(isolatedEnvironment(folder), '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '160', '-y', '50', '-c', work, command);
		await shows('openai-compatible:fake-model');
		tmux('send-keys', '-t', 'e2e', '/instructions', 'Enter');
		await shows('estimated at 4 characters a token');
		await shows(`${join(folder, 'config', 'cardterm', 'AGENTS.md')}  the user's  ~10 tokens`);
		await shows('  AGENTS.md  the project\'s  ~17 tokens');
		await shows('  docs/style.md  imported by AGENTS.md  ~9 tokens');
		await shows('  packages/CLAUDE.md  the project\'s  ~12 tokens');
		await shows('  packages/app/AGENTS.md  the project\'s  ~10 tokens');
		await shows(`(project files relative to ${repo})`);
		tmux('send-keys', '-t', 'e2e', 'C-l');
		tmux('send-keys', '-t', 'e2e', '/help', 'Enter');
		await shows('/review FILE CONCERN');
		await shows('Review a file for one concern (.cardterm/commands)');
		await shows('What changed since yesterday (your commands)');
		tmux('send-keys', '-t', 'e2e', '-l', '/stand');
		tmux('send-keys', '-t', 'e2e', 'Tab');
		await shows('> /standup');
		tmux('send-keys', '-t', 'e2e', 'Enter');
		await shows('Listed.');
		await waitFor('the command\'s request', () => requestOf('List the commits since yesterday.') !== undefined);
		tmux('send-keys', '-t', 'e2e', 'C-d');
	}, 90_000);
});
