/**
The real `bin/cardterm` at the edges of its life (issue 11 items 15, 16): a sessions folder that
cannot be used starts the interactive session in memory with the problem shown; SIGTERM, SIGINT and
SIGHUP (the terminal closed) end the interactive session, `run` and `call` cleanly — running
commands and background jobs gone, the lock released, the log readable with the events, exit code
128 + N — and a second signal during that shutdown exits at once. Needs tmux and a built dist/
(rebuilt when older than the sources); Linux (/proc).
*/
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {constants, tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, descendants, killTmuxServer, running, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-lifecycle-'));
}, 300_000);

afterAll(() => {
	if (!tmuxMissing) {
		killTmuxServer();
	}

	rmSync(folder, {recursive: true, force: true});
});

type LoggedEvent = {type: string; data: {name?: string; arguments?: string; callId?: string}};

function readEvents(log: string): LoggedEvent[] {
	return readFileSync(log, 'utf8').split('\n').filter(line => line !== '').slice(1).map(line => JSON.parse(line) as LoggedEvent);
}

/** The log replays without a diagnostic; returns its cards. */
function replay(log: string): Array<{name: string; status: string; title: string}> {
	const output = execFileSync(process.execPath, [cardterm, 'replay', log, '--json'], {encoding: 'utf8'});
	return output.trim().split('\n').map(line => JSON.parse(line) as {name: string; status: string; call: {title: string}}).map(card => ({name: card.name, status: card.status, title: card.call.title}));
}

/** Waits until processes running exactly `commands` are among the descendants of `root`; returns their pids. */
async function started(root: number, commands: readonly string[], target?: string): Promise<number[]> {
	let pids: number[] = [];
	await waitFor(`processes ${commands.join(', ')}`, () => {
		const found = descendants(root);
		pids = commands.map(command => found.find(process => process.command === command)?.pid ?? 0);
		return pids.every(pid => pid > 0);
	}, 30_000, target);
	return pids;
}

/** A new tmux window running `script` (sh) in `folder`; returns the pane's pid. */
function openWindow(name: string, script: string): number {
	tmux('-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', '100', '-y', '30', '-c', folder, script);
	tmux('set-option', '-t', name, 'remain-on-exit', 'on');
	return Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim());
}

describe.skipIf(tmuxMissing)('an unusable sessions folder, in the real binary (skipped when tmux is not installed)', () => {
	it.each([
		['a file', () => {
			writeFileSync(join(folder, 'sessions-file'), '');
			return join(folder, 'sessions-file');
		}],
		['a path under /proc', () => `/proc/cardterm-e2e-${process.pid}/sessions`],
	])('%s: the session starts, shows the problem, runs a command and says the log was not saved', async (name, make) => {
		const target = `unusable-${name.replaceAll(/\W/g, '')}`;
		const codeFile = join(folder, `code-${target}`);
		openWindow(target, `${cardtermCommand({CARDTERM_SESSION_DIR: make()}).map(word => shellWord(word)).join(' ')}; echo $? > ${shellWord(codeFile)}`);
		await shows('type !command', target);
		await shows('session log not saved: cannot create', target);
		tmux('send-keys', '-t', target, '!echo still here', 'Enter');
		await shows('● bash echo still here', target);
		tmux('send-keys', '-t', target, 'C-d');
		await waitFor('the exit code', () => existsSync(codeFile) && readFileSync(codeFile, 'utf8').trim() !== '', 30_000, target);
		expect(readFileSync(codeFile, 'utf8').trim()).toBe('0');
		// cardterm wraps the message between words on the terminal: the path may start the next row.
		expect(screen(target)).toMatch(/session log not saved: cannot create\s+\/\S+/u);
		expect(screen(target)).not.toContain('Cannot access');
	}, 120_000);
});

const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

describe.skipIf(tmuxMissing)('termination signals to the interactive session (skipped when tmux is not installed)', () => {
	it.each(signals)('%s: the running command and the background job are gone, the lock released, the log complete, exit 128+N', async signal => {
		const sessions = join(folder, `sessions-${signal}`);
		const codeFile = join(folder, `code-${signal}`);
		const target = `signal-${signal}`;
		// The wrapper shell ignores SIGHUP so that it outlives the terminal and records the exit code.
		const script = `trap "" HUP; ${cardtermCommand({CARDTERM_SESSION_DIR: sessions}).map(word => shellWord(word)).join(' ')}; echo $? > ${shellWord(codeFile)}`;
		const pane = openWindow(target, script);
		await shows('type !command', target);
		tmux('send-keys', '-t', target, 'bash {"command": "sleep 301", "description": "A job", "run_in_background": true}', 'Enter');
		await shows('bash-1', target);
		tmux('send-keys', '-t', target, '!sleep 300', 'Enter');
		const [app] = descendants(pane).filter(process => process.command.includes(cardterm)).map(process => process.pid);
		const sleeps = await started(app!, ['sleep 301', 'sleep 300'], target);
		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const log = join(sessions, id!, 'session.jsonl');
		expect(existsSync(`${log}.lock`)).toBe(true);

		if (signal === 'SIGHUP') {
			// The terminal closes: tmux hangs up on the pane.
			tmux('kill-session', '-t', target);
		} else {
			process.kill(app!, signal);
		}

		await waitFor('the exit code', () => existsSync(codeFile) && readFileSync(codeFile, 'utf8').trim() !== '', 30_000, signal === 'SIGHUP' ? undefined : target);
		expect(Number(readFileSync(codeFile, 'utf8').trim())).toBe(128 + constants.signals[signal]);
		expect(sleeps.filter(pid => running(pid))).toEqual([]);
		expect(existsSync(`${log}.lock`)).toBe(false);
		expect(replay(log)).toEqual([
			{name: 'bash', status: 'ok', title: 'sleep 301'},
			{name: 'bash', status: 'cancelled', title: 'sleep 300'},
		]);
		if (signal !== 'SIGHUP') {
			// The terminal is given back: the closing line is printed after the app left the screen.
			await shows('session saved:', target);
		}
	}, 120_000);
});

/** Spawns `cardterm ARGS` in `folder` as a child; resolves with its exit code. */
function child(args: readonly string[]): {pid: number; exited: Promise<{code: number | null; signal: NodeJS.Signals | null; output: string}>} {
	const spawned = spawn(process.execPath, [cardterm, ...args], {cwd: folder, stdio: ['ignore', 'pipe', 'pipe']});
	let output = '';
	spawned.stdout.on('data', (chunk: Buffer) => {
		output += chunk.toString();
	});
	spawned.stderr.on('data', (chunk: Buffer) => {
		output += chunk.toString();
	});
	return {
		pid: spawned.pid!,
		exited: new Promise(resolve => {
			spawned.once('close', (code, signal) => {
				resolve({code, signal, output});
			});
		}),
	};
}

describe('termination signals to cardterm run and call (Linux)', () => {
	it.each(signals)('run, %s: the program\'s command and its background job are gone, the lock released, the log complete, exit 128+N', async signal => {
		const script = join(folder, `program-${signal}.mjs`);
		writeFileSync(script, `await tools.bash({command: 'sleep 301', description: 'A job', run_in_background: true});\nawait tools.bash({command: 'sleep 300', description: 'Wait'});\n`);
		const log = join(folder, `run-${signal}.jsonl`);
		const run = child(['run', script, '--log', log]);
		const sleeps = await started(run.pid, ['sleep 301', 'sleep 300']);
		expect(existsSync(`${log}.lock`)).toBe(true);
		process.kill(run.pid, signal);
		const {code, output} = await run.exited;
		expect({code, output}).toMatchObject({code: 128 + constants.signals[signal]});
		expect(sleeps.filter(pid => running(pid))).toEqual([]);
		expect(existsSync(`${log}.lock`)).toBe(false);
		const events = readEvents(log);
		const count = (type: string): number => events.filter(event => event.type === type).length;
		// Both sub-calls started and settled (cancelled), then the program's result.
		expect([count('tool/call'), count('tool/code-dispatch-start'), count('tool/code-dispatch'), count('tool/result'), count('turn/end')]).toEqual([1, 2, 2, 1, 1]);
		expect(replay(log).map(card => [card.name, card.status])).toEqual([['run_code', 'error']]);
	}, 60_000);

	it('call, SIGTERM: the command is gone, the lock released, the log complete, exit 143', async () => {
		const log = join(folder, 'call.jsonl');
		const called = child(['call', 'bash', JSON.stringify({command: 'sleep 302', description: 'Wait'}), '--log', log]);
		const [sleeper] = await started(called.pid, ['sleep 302']);
		process.kill(called.pid, 'SIGTERM');
		expect((await called.exited).code).toBe(143);
		expect(running(sleeper!)).toBe(false);
		expect(existsSync(`${log}.lock`)).toBe(false);
		expect(replay(log)).toEqual([{name: 'bash', status: 'cancelled', title: 'sleep 302'}]);
	}, 60_000);

	it('a second signal during the shutdown exits at once: still no process left, the lock released, what was appended written', async () => {
		const marker = join(folder, 'got-term');
		const script = join(folder, 'stubborn.mjs');
		// The command survives SIGTERM (the shutdown then waits out the 2 s grace before SIGKILL); the file says the shutdown began.
		writeFileSync(script, `await tools.bash({command: ${JSON.stringify(`trap 'touch ${marker}' TERM; while :; do sleep 0.1; done`)}, description: 'Stubborn'});\n`);
		const log = join(folder, 'stubborn.jsonl');
		const run = child(['run', script, '--log', log]);
		await started(run.pid, ['sleep 0.1']);
		const tree = descendants(run.pid).map(process => process.pid);
		process.kill(run.pid, 'SIGTERM');
		await waitFor('the shutdown to begin', () => existsSync(marker));
		process.kill(run.pid, 'SIGINT');
		expect((await run.exited).code).toBe(143);
		expect(tree.filter(pid => running(pid))).toEqual([]);
		expect(existsSync(`${log}.lock`)).toBe(false);
		const events = readEvents(log);
		// Exited before the stubborn command's grace ran out: its call has no result, the log reads cleanly.
		const count = (type: string): number => events.filter(event => event.type === type).length;
		expect([count('tool/call'), count('tool/code-dispatch-start'), count('tool/code-dispatch'), count('tool/result')]).toEqual([1, 1, 0, 0]);
		replay(log);
	}, 60_000);
});

describe.skipIf(tmuxMissing)('keys typed at launch, in the real binary (skipped when tmux is not installed)', () => {
	it('are taken by the live prompt in the order typed, an arrow key among them, and Enter runs the line', async () => {
		const target = 'typed-at-launch';
		openWindow(target, cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'typed-sessions')}).map(word => shellWord(word)).join(' '));
		// Typed as soon as anything is on the screen: the first frame, or the live screen on a fast machine.
		await waitFor('the first frame', () => screen(target).includes('> '), 30_000, target);
		tmux('send-keys', '-t', target, '!echo ab', 'Left', 'X');
		await shows('no model (see /model)', target);
		tmux('send-keys', '-t', target, 'Enter');
		await shows('● bash echo aXb', target);
		expect(screen(target)).toContain('\naXb');
		tmux('send-keys', '-t', target, 'C-d');
	}, 60_000);

	it('draw the live screen with CI=true in the environment, and the commands run still see CI=true', async () => {
		const target = 'ci-variable';
		openWindow(target, cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'ci-sessions'), CI: 'true'}).map(word => shellWord(word)).join(' '));
		// Ink draws no live frame when it sees CI; the screens load without it (src/cli/environment/screen-environment.ts).
		await shows('no model (see /model)', target);
		tmux('send-keys', '-t', target, '!echo "ci=$CI"', 'Enter');
		await shows('● bash echo "ci=$CI"', target);
		expect(screen(target)).toContain('\nci=true');
		tmux('send-keys', '-t', target, 'C-d');
	}, 60_000);
});
