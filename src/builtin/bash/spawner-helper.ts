/**
@module The spawner's own program: a small Node process that starts the agent's commands and hands
their output pipes over (spawner.ts starts it). It runs as `node -e` from this function's text, so
it imports nothing: it reaches `child_process` through the `require` Node gives `-e` code on `globalThis` (a
bundler rewrites a bare `require` call into its own shim, which that text would not have), and
every value it handles comes in messages.

Why a process of its own: `fork()` copies the forking process's page tables, so starting a command
from the session's process (100 MB and more) costs milliseconds of its main thread a call, while
this process stays a few MB. It reads no output: each command's stdout and stderr pipes are sent to
the session with the messages that announce them (IPC handle passing), so output reaches the session
as from a command it started itself, at the pipe's speed and with its back-pressure. Messages: in
`spawn {id, program, args, cwd, env}`; out `ready` once, then per command `spawned {id, pid}` with its
stdout, `stderr {id}` with its stderr, `exit {id, exitCode, signal}`, or `failed {id, error}` when it
could not start. It exits when the session's process goes (its channel closes).
*/

/** A request to the spawner. */
export type SpawnerRequest = {readonly type: 'spawn'; readonly id: number; readonly program: string; readonly args: readonly string[]; readonly cwd: string; readonly env: NodeJS.ProcessEnv};

/** What a start failure carries across: the fields of Node's spawn error. */
export type SpawnFailure = {readonly message: string; readonly code?: string; readonly errno?: number; readonly syscall?: string; readonly path?: string};

/** A message from the spawner (`spawned` and `stderr` come with a pipe). */
export type SpawnerEvent =
	| {readonly type: 'ready'}
	| {readonly type: 'spawned'; readonly id: number; readonly pid: number}
	| {readonly type: 'stderr'; readonly id: number}
	| {readonly type: 'failed'; readonly id: number; readonly error: SpawnFailure}
	| {readonly type: 'exit'; readonly id: number; readonly exitCode: number | null; readonly signal: string | null};

/** The spawner's main: serves requests until its channel closes. Self-contained (it runs from its text). */
export function spawnerMain(): void {
	const {spawn} = (globalThis as unknown as {require: (id: string) => typeof import('node:child_process')}).require('node:child_process');
	const send = (event: SpawnerEvent, pipe?: import('node:child_process').SendHandle): void => {
		if (process.connected) {
			// A pipe is closed here once sent; a send that fails (the session went) ends with the channel.
			process.send!(event, pipe, undefined, () => {});
		}
	};

	// The terminal's Ctrl+C and a session's SIGTERM are the session's to handle: it ends this process by closing the channel.
	process.on('SIGINT', () => {});
	process.on('SIGTERM', () => {});
	process.on('disconnect', () => {
		process.exit(0);
	});
	process.on('message', (request: SpawnerRequest) => {
		const {id} = request;
		const failed = (error: NodeJS.ErrnoException): void => {
			send({type: 'failed', id, error: {message: error.message, ...(error.code === undefined ? {} : {code: error.code}), ...(error.errno === undefined ? {} : {errno: error.errno}), ...(error.syscall === undefined ? {} : {syscall: error.syscall}), ...(error.path === undefined ? {} : {path: error.path})}});
		};

		let child: import('node:child_process').ChildProcess;
		try {
			child = spawn(request.program, [...request.args], {cwd: request.cwd, env: request.env, detached: true, stdio: ['ignore', 'pipe', 'pipe']});
		} catch (error) {
			// Arguments Node refuses before it forks (a NUL byte): this command fails, the spawner goes on.
			failed(error as NodeJS.ErrnoException);
			return;
		}

		if (child.pid === undefined) {
			child.once('error', failed);
			return;
		}

		const {stdout, stderr} = child;
		// These pipes are the session's to read: not a byte may be read here. A new socket starts reading
		// at once (the reads happen in a later turn of the loop, so stopping now reads nothing), and Node
		// reads a child's unread pipes once it exits; a pipe waits to be sent until the last one's receipt.
		for (const pipe of [stdout, stderr] as unknown as Array<{_handle: {readStop(): number; reading: boolean}}>) {
			pipe._handle.readStop();
			pipe._handle.reading = false;
		}

		child.stdio[1] = null;
		child.stdio[2] = null;
		send({type: 'spawned', id, pid: child.pid}, stdout as import('node:net').Socket);
		send({type: 'stderr', id}, stderr as import('node:net').Socket);
		// A failed kill later ends nothing: the command's end is its exit.
		child.on('error', () => {});
		child.once('exit', (exitCode, signal) => {
			send({type: 'exit', id, exitCode, signal});
		});
	});
	send({type: 'ready'});
}
