// The fake model server of bench/agent-overhead.mjs in a process of its own, so that the bench's own
// CPU time is cardterm's alone: N steps with one `read` call each (of another window of the file),
// then an answer. Started by `startReadStepsServer(calls)` (a forked child); answers `{serverMs}`
// when asked, ends on `close()`.
import {fileURLToPath} from 'node:url';
import {startFakeModelServer} from '../../test/fixtures/fake-model-server.mjs';
import {startForkedServer} from './forked-server.mjs';

/** Forks the server for `calls` steps; resolves `{url, serverMs(), close()}`. */
export async function startReadStepsServer(calls) {
	const server = await startForkedServer(fileURLToPath(import.meta.url), [String(calls)]);
	return {url: server.url, serverMs: async () => (await server.ask({kind: 'stats'})).serverMs, close: server.close};
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
