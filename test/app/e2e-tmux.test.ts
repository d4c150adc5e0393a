/**
The real `bin/cardterm` driven in tmux as a person would use it: type at the prompt, cancel a
running command, open and close the pager, exit; then the saved log replays to the same cards.
Needs tmux (CI installs it) and a built dist/ (rebuilt here when older than the sources).
*/
import {execFileSync, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tmuxMissing = spawnSync('tmux', ['-V']).error !== undefined;
const socket = `cardterm-e2e-${process.pid}`;

function tmux(...args: string[]): string {
	return execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});
}

function screen(): string {
	return tmux('capture-pane', '-p', '-t', 'e2e', '-S', '-200');
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) {
			throw new Error(`timed out waiting for ${what}; the pane shows:\n${screen()}`);
		}

		// eslint-disable-next-line no-await-in-loop -- polling a real terminal
		await new Promise(resolve => {
			setTimeout(resolve, 100);
		});
	}
}

const shows = async (text: string): Promise<void> => waitFor(JSON.stringify(text), () => screen().includes(text));

/** The newest modification time under `folder` (sources), in ms. */
function newest(folder: string): number {
	let latest = 0;
	for (const entry of readdirSync(folder, {withFileTypes: true, recursive: true})) {
		if (entry.isFile() && /\.tsx?$/.test(entry.name)) {
			latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
		}
	}

	return latest;
}

/** Processes whose parent chain leads to `root`, with their command lines. */
function descendants(root: number): Array<{pid: number; command: string}> {
	const parents = new Map<number, number>();
	const commands = new Map<number, string>();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) {
			continue;
		}

		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
			commands.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
		} catch {
			// The process ended while we looked.
		}
	}

	return [...parents.keys()].filter(pid => {
		for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
			if (at === root) {
				return true;
			}
		}

		return false;
	}).map(pid => ({pid, command: commands.get(pid) ?? ''}));
}

/** Alive and not a zombie. */
function running(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return false;
	}
}

describe.skipIf(tmuxMissing)('cardterm in tmux (skipped when tmux is not installed)', () => {
	let folder = '';

	beforeAll(() => {
		const built = join(repo, 'dist/src/cli/main.js');
		if (!existsSync(built) || Math.max(newest(join(repo, 'src')), newest(join(repo, 'components'))) > statSync(built).mtimeMs) {
			execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], {cwd: repo, stdio: 'inherit'});
		}

		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-'));
		writeFileSync(join(folder, 'README.md'), '# e2e\n\nA readme for the end-to-end test.\n');
	}, 300_000);

	afterAll(() => {
		spawnSync('tmux', ['-L', socket, 'kill-server']);
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('runs commands, cancels a sleep with Ctrl+C, opens and closes the pager, exits, and the log replays to the same cards', async () => {
		const sessions = join(folder, 'sessions');
		// A clean environment: Ink draws nothing live when it sees CI variables.
		const command = [
			'env', '-i', `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`, `HOME=${process.env.HOME ?? folder}`, 'TERM=xterm-256color',
			`CARDTERM_SESSION_DIR=${sessions}`, process.execPath, join(repo, 'bin/cardterm'),
		].map(word => `'${word.replaceAll('\'', '\'\\\'\'')}'`).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'e2e', 'remain-on-exit', 'on');
		const appPid = Number(tmux('display-message', '-p', '-t', 'e2e', '#{pane_pid}').trim());

		await shows('type !command');
		tmux('send-keys', '-t', 'e2e', '!echo hi', 'Enter');
		await shows('● bash echo hi');
		tmux('send-keys', '-t', 'e2e', '/read README.md', 'Enter');
		await shows('● read');

		tmux('send-keys', '-t', 'e2e', '!sleep 30', 'Enter');
		await shows('○ bash sleep 30');
		await waitFor('the sleep process', () => descendants(appPid).some(process => process.command === 'sleep 30'));
		const sleeps = descendants(appPid).filter(process => process.command === 'sleep 30').map(process => process.pid);
		tmux('send-keys', '-t', 'e2e', 'C-c');
		await shows('⊘ bash sleep 30');
		await waitFor('the sleep process to end', () => sleeps.every(pid => !running(pid)), 10_000);

		tmux('send-keys', '-t', 'e2e', 'C-o');
		await shows('j/k move');
		expect(tmux('display-message', '-p', '-t', 'e2e', '#{alternate_on}').trim()).toBe('1');
		tmux('send-keys', '-t', 'e2e', 'q');
		await waitFor('the main screen', () => tmux('display-message', '-p', '-t', 'e2e', '#{alternate_on}').trim() === '0');
		await shows('⊘ 1 cancelled');
		// Each settled card is in the scrollback exactly once.
		const transcript = screen();
		expect(['● bash echo hi', '● read', '⊘ bash sleep 30'].map(title => transcript.split(title).length - 1)).toEqual([1, 1, 1]);

		tmux('send-keys', '-t', 'e2e', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'e2e', '#{pane_dead}').trim() === '1');

		const [id] = readdirSync(sessions);
		const log = join(sessions, id!, 'session.jsonl');
		expect(screen()).toContain(`session saved: ${log}`);
		const replay = execFileSync(process.execPath, [join(repo, 'bin/cardterm'), 'replay', log, '--json'], {encoding: 'utf8'});
		const cards = replay.trim().split('\n').map(line => JSON.parse(line) as {name: string; status: string; call: {title: string}});
		expect(cards.map(card => ({name: card.name, status: card.status, title: card.call.title}))).toEqual([
			{name: 'bash', status: 'ok', title: 'echo hi'},
			{name: 'read', status: 'ok', title: expect.stringContaining('README.md') as unknown as string},
			{name: 'bash', status: 'cancelled', title: 'sleep 30'},
		]);
	}, 180_000);
});
