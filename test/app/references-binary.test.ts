/**
`@` references through the real `bin/cardterm` against the fake model server (issue 31): `-p` sends
the referenced window of the file with the message, names a missing one in its row, the printed
work (stderr) shows both rows and not the attached text, `replay --json` reads the same references from the log, and
`--continue` sends the earlier message with its attachment again (the conversation rebuilt from the
log); in tmux, the `@` picker over a 1 000-file tree finds a file by a fuzzy query, Tab inserts it
and the model gets it. Needs a built dist/ (rebuilt here when older than the sources); the
interactive part needs tmux.
*/
import {mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardtermCommand, isolatedEnvironment, killTmuxServer, runCardterm, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';
let work = '';
let server: FakeModelServer | undefined;

const once = (...args: string[]): string[] => [...args, '--base-url', server!.url, '--model', 'fake-model', '--no-color'];
type Message = {readonly role: string; readonly content: unknown};
const userMessages = (index: number): Message[] => (server!.requests[index]!.body.messages as Message[]).filter(message => message.role === 'user');

beforeAll(async () => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-refs-e2e-'));
	work = join(folder, 'work');
	mkdirSync(join(work, 'src'), {recursive: true});
	writeFileSync(join(work, 'src', 'x.ts'), 'const one = 1;\nconst two = 2;\nconst three = 3;\nconst four = 4;\n');
	// A tree for the picker: 1 000 files in 20 folders, and the one the person is after.
	for (let folderIndex = 0; folderIndex < 20; folderIndex++) {
		const pack = join(work, 'packages', `pack${folderIndex}`);
		mkdirSync(pack, {recursive: true});
		for (let fileIndex = 0; fileIndex < 50; fileIndex++) {
			writeFileSync(join(pack, `module${fileIndex}.ts`), '');
		}
	}

	mkdirSync(join(work, 'src', 'render'), {recursive: true});
	writeFileSync(join(work, 'src', 'render', 'layout.ts'), 'export const LAYOUT_MARK = 42;\n');
	server = await startFakeModelServer({script: [{text: ['It defines two and three.']}, {text: ['Still two and three.']}, {text: ['The layout mark is 42.']}]});
}, 300_000);

afterAll(async () => {
	killTmuxServer();
	await server?.close();
	if (folder !== '') {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('@ references through bin/cardterm', () => {
	it('-p attaches the file\'s lines, names what it could not, and replay shows the same', async () => {
		const run = await runCardterm(once('-p', 'explain @src/x.ts:2-3 and @gone.ts'), work, isolatedEnvironment(folder));
		expect(run.status).toBe(0);
		const [message] = userMessages(0);
		expect(message!.content).toBe(`explain @src/x.ts:2-3 and @gone.ts\n\n<path>${join(work, 'src', 'x.ts')}</path>\n<type>file</type>\n<content>\n2: const two = 2;\n3: const three = 3;\n\n(Showing lines 2-3 of 4. Use offset=4 to continue.)\n</content>`);
		// The work (the person's message with its rows) goes to stderr, the answer to stdout.
		expect(run.stderr).toContain('› explain @src/x.ts:2-3 and @gone.ts');
		expect(run.stderr).toMatch(/⎿ @src\/x\.ts:2-3 lines 2-3 · 2 lines · \d+ B · ~\d+ tokens/u);
		expect(run.stderr).toContain('⎿ @gone.ts not attached: not found');
		expect(run.stderr).not.toContain('const two');
		expect(run.stdout).toBe('It defines two and three.\n');

		const sessions = join(folder, 'sessions');
		const log = join(sessions, readdirSync(sessions)[0]!, 'session.jsonl');
		const replay = await runCardterm(['replay', log, '--json'], work, isolatedEnvironment(folder));
		const user = replay.stdout.split('\n').filter(line => line !== '').map(line => JSON.parse(line) as {entry: string}).find(entry => entry.entry === 'user');
		expect(user).toMatchObject({text: 'explain @src/x.ts:2-3 and @gone.ts', references: [{token: 'src/x.ts:2-3', kind: 'file', attached: {lines: 2, range: {start: 2, end: 3}}}, {token: 'gone.ts', refused: 'not found'}]});
	}, 60_000);

	it('--continue sends the earlier message with its attachment again', async () => {
		const run = await runCardterm(once('-p', 'and now?', '--continue'), work, isolatedEnvironment(folder));
		expect(run.status).toBe(0);
		const [earlier, now] = userMessages(1);
		expect(earlier!.content).toBe(userMessages(0)[0]!.content);
		expect(earlier!.content).toContain('2: const two = 2;');
		expect(now!.content).toBe('and now?');
	}, 60_000);

	it.skipIf(tmuxMissing)('the @ picker in the real binary: typing filters, Tab inserts, the model gets the file (skipped without tmux)', async () => {
		const command = cardtermCommand(isolatedEnvironment(folder), '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '120', '-y', '30', '-c', work, command);
		await shows('openai-compatible:fake-model');
		tmux('send-keys', '-t', 'e2e', '-l', 'what is in @rndlay');
		await shows('› src/render/layout.ts');
		await shows('files and folders · ↑↓ choose');
		tmux('send-keys', '-t', 'e2e', 'Tab');
		await shows('> what is in @src/render/layout.ts');
		tmux('send-keys', '-t', 'e2e', 'Enter');
		await shows('The layout mark is 42.');
		await shows('⎿ @src/render/layout.ts 1 line');
		await waitFor('the request with the file', () => server!.requests.some(request => JSON.stringify(request.body).includes('LAYOUT_MARK')));
		tmux('send-keys', '-t', 'e2e', 'C-d');
	}, 90_000);
});
