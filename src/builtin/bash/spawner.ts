/**
@module Starting a command: through a spawner (spawner-helper.ts), a small process of its own,
once it runs; directly until then and whenever it cannot serve.

`fork()` copies the forking process's page tables: from a session's process of 100 MB and more it
took 2–4 ms of the main thread a command (`node --cpu-prof` of a 400-call agent session: 2.8 ms a
call in `ChildProcess.spawn`), against ~0.5 ms from a small one. The spawner is started at the
first command (that command and any other that comes before it is ready start directly), lives
as long as the session, and is used by every later command. If it fails or dies, the commands it
ran end as if killed, their processes are still stopped (they are found by their marker,
command-processes.ts), and later commands start directly.

A command confined by a sandbox (`sandbox`: bwrap and its arguments, command-confinement.ts) is
started by a spawner that runs inside that sandbox: one per distinct sandbox, so a session's
confined commands share one set of namespaces instead of bwrap making new ones a command (~1.5 ms
a command on an idle machine, 3–4 ms under load). A sandbox that changes (the workspace gained a
`.git` to guard) is another spawner. What a confined command can reach is the same; what changes is
that confined commands of one session share one loopback network (a server one started is reachable
from the next, as outside the sandbox).
*/
import {spawn, type ChildProcess} from 'node:child_process';
import type {Socket} from 'node:net';
import {assertNever} from '../../presentation/assert-never.js';
import {spawnerMain, type SpawnerEvent, type SpawnerRequest, type SpawnFailure} from './spawner-helper.js';

/** How a command ended, or why it could not start. */
export type CommandEnd = {readonly exitCode: number | null; readonly signal: string | null} | {readonly error: Error};

/** A started command, however it was started. */
export type SpawnedCommand = {
	/** Its pid once started; `undefined` when it could not start (`ended` then has the error). */
	readonly started: Promise<number | undefined>;
	/** Its exit, or the start failure. */
	readonly ended: Promise<CommandEnd>;
	/** Every byte of its output delivered (its pipes closed). */
	readonly closed: Promise<void>;
	/** Stop reading its output (pipes held open by a process nothing could find). */
	abandon(): void;
};

/** A command: `program` and `args`, run under `sandbox` (a program and its arguments before it) when given. */
export type CommandRequest = {readonly program: string; readonly args: readonly string[]; readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly sandbox?: readonly string[]};
export type CommandOutput = {readonly onStdout: (chunk: Buffer) => void; readonly onStderr: (chunk: Buffer) => void};

/** A command the spawner started, as this process follows it. */
type FollowedCommand = {
	readonly start: (pid: number | undefined) => void;
	readonly pipe: (pipe: Socket, fd: 1 | 2) => void;
	readonly end: (end: CommandEnd) => void;
	/** The spawner went before the command's pipes came: nothing more will. */
	readonly orphan: () => void;
};

/** The spawner's state in this process. */
type Spawner = {readonly process: ChildProcess; ready: boolean; readonly commands: Map<number, FollowedCommand>};

/** The spawners by sandbox (its arguments joined; '' for none). */
const spawners = new Map<string, Spawner>();
/** Sandboxes whose spawner failed or died: their commands start directly. All when CARDTERM_SPAWNER=off. */
const unusable = new Set<string>();
const spawnersOff = process.env.CARDTERM_SPAWNER === 'off';
let nextId = 0;

const sandboxKey = (sandbox: readonly string[] | undefined): string => (sandbox ?? []).join('\0');

function failure(error: SpawnFailure): Error {
	return Object.assign(new Error(error.message), error);
}

/** The spawner's text to run: its main, called. */
const spawnerSource = `(${spawnerMain.toString()})()`;

function startSpawner(key: string, sandbox: readonly string[], cwd: string): void {
	let child: ChildProcess;
	const [program, ...args] = [...sandbox, process.execPath, '--max-semi-space-size=1', '-e', spawnerSource];
	try {
		// Its own process group: the terminal's Ctrl+C is the session's to handle. A small heap: it holds no output.
		child = spawn(program!, args, {cwd, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], detached: true, env: {PATH: process.env.PATH ?? ''}});
	} catch {
		unusable.add(key);
		return;
	}

	const state: Spawner = {process: child, ready: false, commands: new Map()};
	spawners.set(key, state);
	// It would go by itself once the channel closes; a session that exits leaves no process, not even for a moment.
	const stopOnExit = (): void => {
		child.kill('SIGKILL');
	};

	process.once('exit', stopOnExit);
	child.once('exit', () => {
		process.off('exit', stopOnExit);
	});
	child.unref();
	child.channel?.unref();
	child.on('message', (event: SpawnerEvent, pipe?: Socket) => {
		if (event.type === 'ready') {
			state.ready = true;
			return;
		}

		const command = state.commands.get(event.id);
		if (command === undefined) {
			pipe?.destroy();
			return;
		}

		switch (event.type) {
			case 'spawned': {
				command.start(event.pid);
				command.pipe(pipe!, 1);
				break;
			}

			case 'stderr': {
				command.pipe(pipe!, 2);
				break;
			}

			case 'failed': {
				state.commands.delete(event.id);
				command.start(undefined);
				command.end({error: failure(event.error)});
				break;
			}

			case 'exit': {
				state.commands.delete(event.id);
				command.end({exitCode: event.exitCode, signal: event.signal});
				break;
			}

			default: {
				assertNever(event);
			}
		}

		if (state.commands.size === 0) {
			// The channel keeps this process alive only while a command is started through it.
			child.channel?.unref();
		}
	});
	const gone = (): void => {
		unusable.add(key);
		if (spawners.get(key) === state) {
			spawners.delete(key);
		}

		// Its commands lost their exit: they end as killed (their processes are stopped by the caller, by
		// marker). A command asked for in the moment it died may have started with no pid sent: not stopped.
		for (const command of state.commands.values()) {
			command.start(undefined);
			command.orphan();
			command.end({exitCode: null, signal: 'SIGKILL'});
		}

		state.commands.clear();
	};

	child.once('error', gone);
	child.once('exit', gone);
}

/** A command's two pipes read into `output`; `closed` once each has closed (or is known never to come). */
function pipeReader(output: CommandOutput) {
	const pipes: Socket[] = [];
	let open = 2;
	let done!: () => void;
	const closed = new Promise<void>(resolve => {
		done = resolve;
	});
	const closeOne = (): void => {
		open -= 1;
		if (open === 0) {
			done();
		}
	};

	return {
		closed,
		take(pipe: Socket | undefined, fd: 1 | 2): void {
			if (pipe === undefined) {
				closeOne();
				return;
			}

			pipes.push(pipe);
			pipe.on('data', fd === 1 ? output.onStdout : output.onStderr);
			// A reset pipe ends its output like a closed one.
			pipe.on('error', () => {});
			pipe.once('close', closeOne);
		},
		/** Every pipe that will not come now counts as closed. */
		noMore(): void {
			while (open > pipes.length) {
				closeOne();
			}
		},
		abandon(): void {
			for (const pipe of pipes) {
				pipe.destroy();
			}

			this.noMore();
		},
	};
}

function spawnDirectly(request: CommandRequest, output: CommandOutput): SpawnedCommand {
	let child: ChildProcess;
	const [program, ...args] = [...request.sandbox ?? [], request.program, ...request.args];
	try {
		child = spawn(program!, args, {cwd: request.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: request.env});
	} catch (error) {
		// Arguments Node refuses before it forks (a NUL byte): the same failure the spawner reports.
		return {started: Promise.resolve(undefined), ended: Promise.resolve({error: error as Error}), closed: Promise.resolve(), abandon() {}};
	}

	child.stdout?.on('data', output.onStdout);
	child.stderr?.on('data', output.onStderr);
	const ended = new Promise<CommandEnd>(resolve => {
		child.on('error', error => {
			// A start failure emits no 'exit'; a later error (a failed kill) ends nothing.
			if (child.pid === undefined) {
				resolve({error});
			}
		});
		child.once('exit', (exitCode, signal) => {
			resolve({exitCode, signal});
		});
	});
	return {
		started: Promise.resolve(child.pid),
		ended,
		closed: new Promise(resolve => {
			child.once('close', () => {
				resolve();
			});
		}),
		abandon() {
			child.stdout?.destroy();
			child.stderr?.destroy();
		},
	};
}

function spawnThrough(state: Spawner, request: CommandRequest, output: CommandOutput): SpawnedCommand {
	nextId += 1;
	const id = nextId;
	const reader = pipeReader(output);
	let start!: (pid: number | undefined) => void;
	let end!: (end: CommandEnd) => void;
	const started = new Promise<number | undefined>(resolve => {
		start = resolve;
	});
	const ended = new Promise<CommandEnd>(resolve => {
		end = resolve;
	});
	state.commands.set(id, {
		start,
		pipe: (pipe, fd) => {
			reader.take(pipe, fd);
		},
		end(outcome) {
			if ('error' in outcome) {
				reader.noMore();
			}

			end(outcome);
		},
		orphan: () => {
			reader.noMore();
		},
	});
	state.process.channel?.ref();
	state.process.send({type: 'spawn', id, program: request.program, args: request.args, cwd: request.cwd, env: request.env} satisfies SpawnerRequest);
	return {
		started,
		ended,
		closed: reader.closed,
		abandon() {
			reader.abandon();
		},
	};
}

/** The pid of the spawner serving `sandbox` (none: unconfined commands) once it serves (tests). */
export function spawnerPid(sandbox?: readonly string[]): number | undefined {
	const state = spawners.get(sandboxKey(sandbox));
	return state?.ready === true && state.process.connected ? state.process.pid : undefined;
}

/**
Start the spawner of `sandbox` (none: unconfined commands) now, so a session's first command does not
wait for it nor start directly (a live session calls this once it is open; idempotent).
*/
export function warmSpawner(cwd: string, sandbox?: readonly string[]): void {
	const key = sandboxKey(sandbox);
	if (!spawners.has(key) && !spawnersOff && !unusable.has(key)) {
		startSpawner(key, sandbox ?? [], cwd);
	}
}

/** Start `request` with stdin closed, in a process group of its own; its output goes to `output` as it arrives. */
export function spawnCommand(request: CommandRequest, output: CommandOutput): SpawnedCommand {
	const key = sandboxKey(request.sandbox);
	const state = spawners.get(key);
	if (state?.ready === true && state.process.connected) {
		// Inside its sandbox already: the spawner starts the command itself.
		return spawnThrough(state, request, output);
	}

	if (state === undefined && !spawnersOff && !unusable.has(key)) {
		startSpawner(key, request.sandbox ?? [], request.cwd);
	}

	return spawnDirectly(request, output);
}
