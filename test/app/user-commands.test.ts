/**
Commands a person writes, through the real `bin/cardterm` against the fake model server (issue 31):
`-p "/review src/app.ts security"` sends the project command's prompt with its arguments filled in;
in the interactive session `/help` lists the user's and the project's commands with their
descriptions, Tab completes one, and running it sends its prompt to the model. Needs a built dist/;
the interactive part needs tmux.
*/
import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';
let work = '';
let server: FakeModelServer | undefined;

const environment = (): Record<string, string> => ({PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, OPENAI_API_KEY: 'test', CARDTERM_SESSION_DIR: join(folder, 'sessions'), XDG_CONFIG_HOME: join(folder, 'config')});

/** The person's message in the fake server's request `index`. */
const userMessage = (index: number): string => String(server!.requests[index]!.body.messages.findLast(message => message.role === 'user')?.content);

beforeAll(async () => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-user-commands-e2e-'));
	work = join(folder, 'work');
	mkdirSync(join(work, '.cardterm', 'commands'), {recursive: true});
	mkdirSync(join(folder, 'config', 'cardterm', 'commands'), {recursive: true});
	writeFileSync(join(work, '.cardterm', 'commands', 'review.md'), '---\ndescription: Review a file for one concern\nargument-hint: FILE CONCERN\n---\nReview $1 with an eye on $2. All arguments: $ARGUMENTS\n');
	writeFileSync(join(folder, 'config', 'cardterm', 'commands', 'standup.md'), '---\ndescription: What changed since yesterday\n---\nList the commits since yesterday.\n');
	server = await startFakeModelServer({script: [{text: ['Reviewed.']}, {text: ['Listed.']}]});
}, 300_000);

afterAll(async () => {
	killTmuxServer();
	await server?.close();
	if (folder !== '') {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('commands a person writes', () => {
	it('-p "/review ARGS" sends the command\'s prompt with its arguments filled in', async () => {
		// Not spawnSync: the fake server answers from this process.
		const child = spawn(process.execPath, [cardterm, '-p', '/review src/app.ts security', '--base-url', server!.url, '--model', 'fake-model', '--no-color'], {cwd: work, env: environment()});
		const status = await new Promise<number | null>(resolve => child.on('close', resolve));
		expect(status).toBe(0);
		expect(userMessage(0)).toBe('Review src/app.ts with an eye on security. All arguments: src/app.ts security');
	}, 60_000);

	it.skipIf(tmuxMissing)('/help lists them, Tab completes one, and it runs (skipped without tmux)', async () => {
		const command = cardtermCommand(environment(), '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '160', '-y', '40', '-c', work, command);
		await shows('openai-compatible:fake-model');
		tmux('send-keys', '-t', 'e2e', '/help', 'Enter');
		await shows('/review FILE CONCERN');
		await shows('Review a file for one concern (.cardterm/commands)');
		await shows('What changed since yesterday (your commands)');
		tmux('send-keys', '-t', 'e2e', '-l', '/stand');
		tmux('send-keys', '-t', 'e2e', 'Tab');
		await shows('> /standup');
		tmux('send-keys', '-t', 'e2e', 'Enter');
		await shows('Listed.');
		await waitFor('the second request', () => server!.requests.length === 2);
		expect(userMessage(1)).toBe('List the commits since yesterday.');
		tmux('send-keys', '-t', 'e2e', 'C-d');
	}, 90_000);
});
