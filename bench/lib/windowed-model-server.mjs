// The fake model server of bench/context-window.mjs in a process of its own, so that the bench's heap
// is cardterm's alone (the server remembers every answer, as a provider checks them): per prompt a
// `read` of one of seven files, then an answer; a summary request answered with a summary. It counts
// each request's tokens as the JSON of its messages and tools ÷ 4, reports them as the usage, and —
// given a window — refuses nothing but fails the bench when a request goes over it.
// Started by `startWindowedModelServer(window)` (a forked child); answers `{sent, serverMs}` when asked.
import {fork} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {startFakeModelServer} from '../../test/fixtures/fake-model-server.mjs';

/** Forks the server (`window`: 0 for none); resolves `{url, stats(), close()}`. */
export async function startWindowedModelServer(window) {
	const child = fork(fileURLToPath(import.meta.url), [String(window)], {stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
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
		stats: async () => ask({kind: 'stats'}),
		close: async () => {
			child.removeAllListeners('exit');
			await ask({kind: 'close'});
		},
	};
}

const counted = (body) => Math.ceil(JSON.stringify({messages: body.messages, tools: body.tools ?? []}).length / 4);
const isSummary = (body) => typeof body.messages[0]?.content === 'string' && body.messages[0].content.startsWith('You write the summary');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const window = Number(process.argv[2]);
	const sent = [];
	let over = 0;
	let calls = 0;
	const server = await startFakeModelServer({
		lifetimeMs: 3_600_000,
		keepRequests: false,
		script(body) {
			const tokens = counted(body);
			if (window > 0 && tokens > window) {
				over++;
			}

			const usage = {prompt_tokens: tokens, completion_tokens: 20};
			if (isSummary(body)) {
				return {text: '## Goal\nCount.\n## Progress\n### Done\nCounts.\n## Next steps\nCount again.', usage};
			}

			sent.push(tokens);
			if (body.messages.at(-1)?.role === 'tool') {
				return {text: `counted (${calls})`, usage};
			}

			calls++;
			return {toolCalls: [{id: `call_${calls}`, name: 'read', args: JSON.stringify({file_path: `data-${calls % 7}.txt`})}], usage};
		},
	});
	process.on('message', async message => {
		if (message.kind === 'stats') {
			process.send({sent, over, serverMs: server.serverMs});
		} else {
			await server.close();
			process.send({closed: true}, () => process.exit(0));
		}
	});
	process.send({url: server.url});
}
