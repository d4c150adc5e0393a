// The floor of the ACP turn bench: the agent alone, driven by a client that only reads its frames (no
// screen, no log, no mapping). Whatever a client does with the updates comes on top of this.
import {spawn} from 'node:child_process';
import {createInterface} from 'node:readline';

/**
Starts the ACP agent `argv`, opens a session in `cwd` and sends `prompt`; resolves `{turnMs, updates}`:
the time from writing session/prompt (`settleMs` after the session opened) to reading its result, and the session/update frames read meanwhile.
Rejects on an error answer, the agent's exit or after `timeoutMs`.
*/
export function timeBareTurn({argv, cwd, env, prompt, settleMs = 1000, timeoutMs = 300_000}) {
	// Its own process group: Gemini CLI's command relaunches itself as a child, which a signal to it alone leaves running.
	const agent = spawn(argv[0], argv.slice(1), {cwd, env, stdio: ['pipe', 'pipe', 'ignore'], detached: true});
	const pending = new Map();
	let nextId = 0;
	let updates = 0;
	const request = (method, params) => new Promise((resolve, reject) => {
		const id = nextId++;
		pending.set(id, {resolve, reject});
		agent.stdin.write(`${JSON.stringify({jsonrpc: '2.0', id, method, params})}\n`);
	});
	createInterface({input: agent.stdout}).on('line', line => {
		const frame = JSON.parse(line);
		if (frame.method === 'session/update') {
			updates++;
		} else if (frame.method !== undefined && frame.id !== undefined) {
			// A request of the agent's (permission, file, terminal): this client grants nothing.
			agent.stdin.write(`${JSON.stringify({jsonrpc: '2.0', id: frame.id, error: {code: -32_601, message: 'not supported by the bench client'}})}\n`);
		} else if (pending.has(frame.id)) {
			const {resolve, reject} = pending.get(frame.id);
			pending.delete(frame.id);
			if (frame.error === undefined) {
				resolve(frame.result);
			} else {
				reject(new Error(`${argv.at(-1)}: ${JSON.stringify(frame.error).slice(0, 300)}`));
			}
		}
	});
	const ended = new Promise((_, reject) => {
		agent.once('exit', code => reject(new Error(`the agent exited (${code}) during the turn`)));
		setTimeout(() => reject(new Error(`no turn end after ${timeoutMs / 1000} s`)), timeoutMs).unref();
	});
	const turn = async () => {
		await request('initialize', {protocolVersion: 1, clientCapabilities: {fs: {readTextFile: false, writeTextFile: false}, terminal: false}});
		const {sessionId} = await request('session/new', {cwd, mcpServers: []});
		// As long as a person takes to type the prompt in the screens measured beside it: the agent's start-up work after session/new is not the turn's.
		await new Promise(resolve => {
			setTimeout(resolve, settleMs);
		});
		updates = 0;
		const started = performance.now();
		const result = await request('session/prompt', {sessionId, prompt: [{type: 'text', text: prompt}]});
		return {turnMs: performance.now() - started, updates, stopReason: result.stopReason};
	};

	return Promise.race([turn(), ended]).finally(() => {
		agent.removeAllListeners('exit');
		try {
			process.kill(-agent.pid, 'SIGTERM');
		} catch {
			// Already gone.
		}
	});
}
