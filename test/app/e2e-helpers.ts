/** Driving the real `bin/cardterm`: tmux, the process table, a fresh dist/. */
import {execFileSync, spawn, spawnSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
export const cardterm = join(repo, 'bin/cardterm');
/** The module bin/cardterm runs: the bundle `npm run build` writes after tsc (rolldown.config.mjs). */
export const builtEntry = join(repo, 'dist/bundle/src/cli/main.js');
export const tmuxMissing = spawnSync('tmux', ['-V']).error !== undefined;
const socket = `cardterm-e2e-${process.pid}`;

export function tmux(...args: string[]): string {
	return execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});
}

export function killTmuxServer(): void {
	spawnSync('tmux', ['-L', socket, 'kill-server']);
}

export function screen(target = 'e2e'): string {
	return tmux('capture-pane', '-p', '-t', target, '-S', '-200');
}

/**
`command` as a shell line that prints how it exited: tmux 3.3 does not always record a dead pane's
status (`#{pane_dead_status}` stayed empty after `cardterm` exited 130 in 5 of 6 tries), so a test
reads the code from the screen instead (`shownExit`).
*/
export function reportingExit(command: string): string {
	return `${command}; echo "cardterm exited $?"`;
}

/** The exit status `reportingExit` printed in `target`'s pane, once it shows. */
export async function shownExit(target: string, timeoutMs = 20_000): Promise<number> {
	let code: string | undefined;
	await waitFor('the app to exit', () => {
		code = /cardterm exited (\d+)/.exec(screen(target))?.[1];
		return code !== undefined;
	}, timeoutMs, target);
	return Number(code);
}

export async function waitFor(what: string, check: () => boolean, timeoutMs = 30_000, target = 'e2e'): Promise<void> {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) {
			let pane = '';
			try {
				pane = screen(target);
			} catch {
				pane = '(no pane)';
			}

			throw new Error(`timed out waiting for ${what}; the pane shows:\n${pane}`);
		}

		// polling a real terminal
		await new Promise(resolve => {
			setTimeout(resolve, 100);
		});
	}
}

export const shows = async (text: string, target = 'e2e'): Promise<void> => waitFor(JSON.stringify(text), () => screen(target).includes(text), 30_000, target);

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

/** What a fresh Node process running the ES module `script` prints (for checks the test's own, grown heap would spoil). */
export function freshProcessOutput(script: string): string {
	return execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'}).trim();
}

/** Rebuilds dist/ (tsc, then the bundle) when the bundle is older than the sources. */
export function buildDist(): void {
	if (!existsSync(builtEntry) || Math.max(newest(join(repo, 'src')), newest(join(repo, 'components'))) > statSync(builtEntry).mtimeMs) {
		execFileSync('npm', ['run', 'build'], {cwd: repo, stdio: 'inherit'});
	}
}

/** Processes whose parent chain leads to `root`, with their command lines. */
export function descendants(root: number): Array<{pid: number; command: string}> {
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
export function running(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return false;
	}
}

/** One word for `sh`. */
export function shellWord(word: string): string {
	return `'${word.replaceAll('\'', '\'\\\'\'')}'`;
}

/** The command line of `bin/cardterm` with `args` in a clean environment: only what a test passes reaches it. */
export function cardtermCommand(environment: Record<string, string>, ...args: string[]): string[] {
	return [
		'env', '-i', `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`, `HOME=${process.env.HOME ?? '/tmp'}`, 'TERM=xterm-256color',
		...Object.entries(environment).map(([name, value]) => `${name}=${value}`), process.execPath, cardterm, ...args,
	];
}

/**
`bin/cardterm ARGS` in `cwd` with only `env`, to its end: its exit status, stderr and stdout. Never spawnSync
beside a fake model server: the server answers from the test's own process.
*/
export async function runCardterm(args: readonly string[], cwd: string, env: Record<string, string>): Promise<{readonly status: number | null; readonly stderr: string; readonly stdout: string}> {
	const child = spawn(process.execPath, [cardterm, ...args], {cwd, env});
	let stderr = '';
	let stdout = '';
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString('utf8');
	});
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString('utf8');
	});
	const status = await new Promise<number | null>(resolve => child.on('close', resolve));
	return {status, stderr, stdout};
}

/** A clean environment for `bin/cardterm` under `folder`: its home, sessions and config folder there, a test key. */
export function isolatedEnvironment(folder: string): Record<string, string> {
	return {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, OPENAI_API_KEY: 'test', CARDTERM_SESSION_DIR: join(folder, 'sessions'), XDG_CONFIG_HOME: join(folder, 'config')};
}
