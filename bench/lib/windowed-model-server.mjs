// The fake model server of bench/context-window.mjs in a process of its own, so that the bench's heap
// is cardterm's alone (the server remembers every answer, as a provider checks them): per prompt a
// `read` of one of seven files, then an answer; a summary request answered with a summary. It counts
// each request's tokens as the JSON of its messages and tools ÷ 4, reports them as the usage, and —
// given a window — refuses nothing but fails the bench when a request goes over it.
// Started by `startWindowedModelServer(window)` (a forked child); answers `{sent, serverMs}` when asked.
import {fileURLToPath} from 'node:url';
import {startFakeModelServer} from '../../test/fixtures/fake-model-server.mjs';
import {startForkedServer} from './forked-server.mjs';

/** Forks the server (`window`: 0 for none); resolves `{url, stats(), close()}`. */
export async function startWindowedModelServer(window) {
	const server = await startForkedServer(fileURLToPath(import.meta.url), [String(window)]);
	return {url: server.url, stats: async () => server.ask({kind: 'stats'}), close: server.close};
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
