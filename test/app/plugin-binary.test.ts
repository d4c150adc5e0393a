/**
`--plugin` through the real `bin/cardterm`, so the real loader runs: the module hooks that resolve
`@deepseek-ai/dsh-tools` to this cardterm and strip a TypeScript plugin's types on Node 20. The
plugin is the authoring guide's minimal example (contract.md §T8), verbatim (test/fixtures/plugins/seed-minimal.ts).
Needs a built dist/ (rebuilt here when older than the sources); the interactive part needs tmux.
*/
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, repo, running, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url));
const seedMinimal = fixture('seed-minimal.ts');
let folder = '';
let notes = '';

function call(...args: string[]) {
	const run = spawnSync(process.execPath, [cardterm, 'call', ...args, '--no-color', '--width', '70'], {cwd: folder, encoding: 'utf8', env: {...process.env, CI: '1'}});
	return {status: run.status, stdout: run.stdout, stderr: run.stderr};
}

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-plugin-bin-'));
	notes = join(folder, 'notes.txt');
	writeFileSync(notes, 'alpha\nbeta\n');
}, 300_000);

afterAll(() => {
	if (folder !== '') {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('cardterm call --plugin', () => {
	it("loads the reference's minimal example unmodified (TypeScript, @deepseek-ai/dsh-tools) and prints its tool's card", () => {
		const {status, stdout, stderr} = call('read_file', JSON.stringify({path: notes}), '--plugin', seedMinimal);
		expect(stderr).toBe('');
		expect(status).toBe(0);
		expect(stdout).toMatch(/^● read_file path .*notes\.txt · \d+ms\nalpha\nbeta\n/);
	});

	it('gives the card object with --json, and a failing call of the plugin’s tool exits 1', () => {
		const json = call('read_file', JSON.stringify({path: notes}), '--plugin', seedMinimal, '--json');
		expect(json.status).toBe(0);
		expect(JSON.parse(json.stdout)).toMatchObject({name: 'read_file', status: 'ok', result: {card: 'generic', content: [{type: 'text', text: 'alpha\nbeta\n'}]}});

		const missing = call('read_file', JSON.stringify({path: join(folder, 'nope.txt')}), '--plugin', seedMinimal);
		expect(missing.status).toBe(1);
		expect(missing.stdout).toContain('ENOENT');
	});

	it('applies a plugin that guards and listens (seed-countdown.mjs) beside it', () => {
		const plugins = ['--plugin', seedMinimal, '--plugin', fixture('seed-countdown.mjs')];
		const guarded = call('countdown', '{"from": 6}', ...plugins);
		expect(guarded.status).toBe(1);
		expect(guarded.stdout).toContain('Error: countdown: at most 5');
		const denied = call('read_file', JSON.stringify({path: join(folder, 'secret.txt')}), ...plugins);
		expect(denied.stdout).toContain('Error: countdown: secrets stay secret');
	});

	it('gives a plugin the session’s own cardterm under both names, the entry the package exports (same-cardterm.mjs)', () => {
		const {status, stdout, stderr} = call('which_cardterm', '{}', '--plugin', fixture('same-cardterm.mjs'));
		expect(stderr).toBe('');
		expect(status).toBe(0);
		const exported = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {exports: {'.': {default: string}}}).exports['.'].default;
		expect(stdout).toContain('one module: true');
		expect(stdout).toContain(`url: ${pathToFileURL(join(repo, exported)).href}`);
	});

	it('names the file when a plugin cannot be loaded', () => {
		const broken = join(folder, 'broken.mjs');
		writeFileSync(broken, 'export const name = "broken"\nexport const inject = ["settings"]\nexport function apply() {}\n');
		const {status, stderr} = call('read_file', '{}', '--plugin', broken);
		expect(status).not.toBe(0);
		expect(stderr).toContain(`plugin "broken" (${broken}) needs settings, which cardterm does not provide`);
	});
});

describe.skipIf(tmuxMissing)('cardterm --plugin in tmux (skipped when tmux is not installed)', () => {
	afterAll(() => {
		killTmuxServer();
	});

	it('calls the plugin’s tool from the prompt and shows its card', async () => {
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'sessions')}, '--plugin', seedMinimal).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'e2e', 'remain-on-exit', 'on');
		const appPid = Number(tmux('display-message', '-p', '-t', 'e2e', '#{pane_pid}').trim());
		await shows('type !command');
		tmux('send-keys', '-t', 'e2e', '-l', `read_file {"path": "${notes}"}`);
		tmux('send-keys', '-t', 'e2e', 'Enter');
		await shows('● read_file path');
		await shows('beta');
		tmux('send-keys', '-t', 'e2e', 'C-d');
		await waitFor('the app to exit', () => !running(appPid), 20_000);
	});
});
