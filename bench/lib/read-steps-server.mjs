// The fake model server of bench/agent-overhead.mjs in a process of its own, so that the bench's own
// CPU time is cardterm's alone: N steps with one `read` call each (of another window of the file),
// then an answer. Started by `startReadStepsServer(calls)` (a forked child); answers `{serverMs}`
// when asked, ends on `close()`.
import {fork} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {startFakeModelServer} from '../../test/fixtures/fake-model-server.mjs';

/** Forks the server for `calls` steps; resolves `{url, serverMs(), close()}`. */
export async function startReadStepsServer(calls) {
	const child = fork(fileURLToPath(import.meta.url), [String(calls)], {stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
	const replies = [];
	child.on('message', message => replies.shift()?.(message));
	const ask = request => new Promise(resolve => {
		replies.push(resolve);
		child.send(request);
	});
	const {url} = await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', code => reject(new Error(`the bench's model server exited (${code}) before it listened`)));
	});
	replies.length = 0;
	return {
		url,
		serverMs: async () => (await ask({kind: 'stats'})).serverMs,
		close: async () => {
			child.removeAllListeners('exit');
			await ask({kind: 'close'});
		},
	};
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const count = Number(process.argv[2]);
	const server = await startFakeModelServer({
		lifetimeMs: 3_600_000,
		keepRequests: false,
		// Each step reads another window of the file: the same call step after step is a runaway loop the agent stops.
		script: (_request, index) => index < count ? {toolCalls: [{id: `c${index}`, name: 'read', args: ['{"file_path":', '"notes.txt",', `"limit":5,"offset":${(index % 50) + 1}}`]}]} : {text: ['All ', 'read.']},
	});
	process.on('message', async message => {
		if (message.kind === 'stats') {
			process.send({serverMs: server.serverMs});
		} else {
			await server.close();
			process.send({closed: true}, () => process.exit(0));
		}
	});
	process.send({url: server.url});
}
