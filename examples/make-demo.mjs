// Regenerates examples/demo-session.jsonl, the session `cardterm demo` replays.
//   npm run build && node examples/make-demo.mjs
// A real agent session: cardterm's agent loop runs the real reference tools in a temporary workspace
// (a tiny TypeScript project), against a local web page and a fake SearXNG endpoint, driven by a
// scripted model (the repository's fake OpenAI-compatible server, test/fixtures/fake-model-server.mjs).
// So the log holds a conversation — the person's messages, the model's reasoning and answers, turn
// ends — around every card kind and state. The temporary path and port are rewritten to stable ones
// so the committed log does not change by run (its times do).
import {createServer} from 'node:http';
import {mkdtemp, mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {defineTool} from 'cardterm';
import {createAgent} from '../dist/src/agent/create-agent.js';
import {resolveModel} from '../dist/src/agent/model-client.js';
import {openSession} from '../dist/src/host/open-session.js';
import {startFakeModelServer} from '../test/fixtures/fake-model-server.mjs';

const stablePath = '/home/demo/project';
const stablePort = 43117;
const out = new URL('demo-session.jsonl', import.meta.url);

const web = createServer((request, response) => {
	if (request.url.startsWith('/search')) {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({
			answers: ['Set `test.environment` in vitest.config.ts.'],
			results: [
				{url: 'https://vitest.dev/config/', title: 'Configuring Vitest', content: 'Options for vitest.config.ts', publishedDate: '2026-05-01'},
				{url: 'https://vitest.dev/guide/environment', title: 'Test environment', content: 'node, jsdom, happy-dom'},
			],
		}));
		return;
	}

	if (request.url === '/menu.html') {
		response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
		response.end('<html><head><title>Menu</title></head><body><h1>Café menu</h1><p>Prices include <b>service</b>.</p><ul><li>Tea — 2€</li><li>Cake — 3€</li></ul><table><tr><th>Day</th><th>Soup</th></tr><tr><td>Mon</td><td>Leek</td></tr></table></body></html>');
		return;
	}

	response.writeHead(404, {'content-type': 'text/plain'});
	response.end('no such page\n');
});
await new Promise(done => web.listen(0, '127.0.0.1', done));
const port = web.address().port;
const base = `http://127.0.0.1:${port}`;
process.env.CARDTERM_SEARXNG_URL = base;

const workspace = await mkdtemp(join(tmpdir(), 'cardterm-demo-'));
await mkdir(join(workspace, 'src'));
await writeFile(join(workspace, 'src/config.ts'), "export const config = {\n\tDEBUG: true,\n\tlevel: 'info',\n};\n");
await writeFile(join(workspace, 'src/log.ts'), "import {config} from './config.js';\n\nexport function log(message: string) {\n\tif (config.DEBUG) console.debug(message); // DEBUG only\n}\n");
await writeFile(join(workspace, 'src/app.ts'), Array.from({length: 20}, (_, index) => (index === 2 || index === 15 ? `const DEBUG = true // ${index + 1}` : `line ${index + 1}`)).join('\n') + '\n');
await writeFile(join(workspace, 'README.md'), '# demo\n\nA tiny project for the cardterm demo.\n');
for (let index = 0; index < 120; index++) {
	await writeFile(join(workspace, `src/gen-${String(index).padStart(3, '0')}.ts`), `export const value${index} = 'TODO ${index}';\n`);
}

const wordCount = defineTool({
	name: 'word_count',
	description: 'Count the words of a text (a plugin tool without a presenter).',
	parameters: {text: {type: 'string', required: true}},
	output: {schema: {type: 'integer'}, render: (_args, value) => [{type: 'text', text: `${value} words`}]},
	async execute(args) {
		return args.text.split(/\s+/).filter(Boolean).length;
	},
});

/** One model step: the tool calls it makes, with what it thought first. */
let callNumber = 0;
const calls = (reasoning, ...list) => ({
	reasoning,
	toolCalls: list.map(([name, args]) => ({id: `call_${++callNumber}`, name, args: JSON.stringify(args)})),
	finish: 'tool_calls',
	usage: {prompt_tokens: 2400 + callNumber * 310, completion_tokens: 60 + list.length * 25, cached: 2048, reasoning: 40},
});
/** The step that answers: reasoning, then Markdown text. */
const answer = (reasoning, text) => ({reasoning, text, finish: 'stop', usage: {prompt_tokens: 5200 + callNumber * 120, completion_tokens: 180, cached: 4096, reasoning: 60}});
const sh = (command, description, extra = {}) => ['bash', {command, description, ...extra}];

const turns = [
	{
		prompt: 'The config test fails while DEBUG is on. Turn DEBUG off everywhere and run the tests.',
		steps: [
			calls('Let me see the config and every place that reads DEBUG.', ['read', {file_path: 'src/config.ts'}], ['grep', {pattern: 'DEBUG', include: '*.ts'}]),
			calls('What else is in src/, and is anything left to do?', ['glob', {pattern: 'src/*.ts'}], ['grep', {pattern: 'TODO'}], ['glob', {pattern: '**/*.py'}]),
			calls('Switch the flag off, rename the app constants, and clear VERBOSE too if it is there.',
				['edit', {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'}],
				['edit', {file_path: 'src/app.ts', old_string: 'DEBUG', new_string: 'RELEASE', replace_all: true}],
				['edit', {file_path: 'src/config.ts', old_string: 'VERBOSE', new_string: 'QUIET'}]),
			calls('Write the change down.',
				['write', {file_path: 'docs/NOTES.md', content: '# Notes\n\n- DEBUG is off by default\n- 日本語のメモ 🚀\n'}],
				['write', {file_path: 'README.md', content: '# demo\n\nA tiny project for the cardterm demo, now documented.\n'}]),
			calls('Check the renamed lines, and the notes file I was told about.', ['read', {file_path: 'src/app.ts', offset: 2, limit: 3}], ['read', {file_path: 'missing.txt'}]),
			calls('Now the tests.',
				sh("printf '\\033[32m✓\\033[0m 4 passed\\n\\033[31m✗\\033[0m 1 failed\\n'; printf 'FAIL src/config.test.ts > reads level\\n' >&2; exit 1", 'Run the test suite'),
				sh('ls src | head -3', 'List the first source files'),
				sh('for i in 1 2 3; do printf "downloading %d%%\\r" $((i * 33)); done; echo done', 'Show a progress bar'),
				sh('sleep 5', 'Wait longer than allowed', {timeoutMs: 300})),
			answer('One test still fails, and it is about the level, not DEBUG: worth saying plainly.', [
				'## Result',
				'',
				'DEBUG is **off** in `src/config.ts`, and `src/app.ts` uses `RELEASE` now. Four tests pass; one still fails:',
				'',
				'```ts',
				"expect(config.level).toBe('warn'); // src/config.test.ts",
				'```',
				'',
				'### Next',
				'',
				"1. Decide whether the level should be `'warn'`.",
				'2. Rerun `npm test`.',
			].join('\n')),
		],
	},
	{
		prompt: 'Clean the build folder, push, and reset what is left.',
		steps: [
			calls('Three commands; the config asks before some of them.',
				sh('rm -rf build', 'Remove the build folder'),
				sh('git push origin main 2>&1 || echo "(no remote in the demo)"', 'Push the branch'),
				sh('git reset --hard', 'Throw away local changes')),
			answer('The policy refused rm and the person refused the reset.', 'Pushed. Removing `build/` was **refused** by the policy, and you declined `git reset --hard`, so local changes are kept.'),
		],
	},
	{
		prompt: 'Where do I set the vitest environment? And what is on the café menu page?',
		steps: [
			calls('Search the web, and fetch the page (and the one it links to).',
				['web_search', {queries: ['vitest environment option']}],
				['web_fetch', {url: `${base}/menu.html`}],
				['web_fetch', {url: `${base}/missing.html`}]),
			answer('Two answers; the second page was a 404.', 'Set `test.environment` in `vitest.config.ts` ([Configuring Vitest](https://vitest.dev/config/)). The menu lists tea (2€) and cake (3€); the other page does not exist (404).'),
		],
	},
	{
		prompt: 'Plan the rest, start the dev server in the background, and try the other tools.',
		steps: [
			calls('A plan first.', ['todo_write', {todos: [{content: 'Turn DEBUG off', status: 'completed'}, {content: 'Fix the failing test', status: 'in_progress'}, {content: 'Write release notes', status: 'pending'}]}]),
			calls('Start the server, look at the jobs, then stop it again.', sh('sleep 60', 'Start a long background task', {run_in_background: true})),
			calls('Which jobs run?', ['job_list', {}]),
			calls('Stop it.', ['job_kill', {job_id: 'bash-1'}]),
			calls('A program can call tools too; and a plugin tool, and one that does not exist.',
				['run_code', {code: "const a = await tools.read({file_path: 'src/log.ts'});\nconst b = await tools.grep({pattern: 'config'});\nconsole.log(`${a.totalLines} lines, ${b.matches.length} matches`);\nreturn {lines: a.totalLines};", description: 'Read and search from a program'}],
				['word_count', {text: 'every tool call becomes a card'}],
				['deploy', {target: 'production'}]),
			answer('Say what happened.', 'The plan is on the list, the background job is stopped, `run_code` read and searched, and there is no `deploy` tool here.'),
		],
	},
	{
		prompt: 'Run the slow build.',
		// The person presses Esc while it runs.
		cancelAfterMs: 500,
		steps: [calls('This takes a while.', sh('sleep 30', 'Cancelled while running'))],
	},
];

const script = turns.flatMap(turn => turn.steps);
const model = await startFakeModelServer({script, lifetimeMs: 120_000});
const logFolder = await mkdtemp(join(tmpdir(), 'cardterm-demo-log-'));
const logPath = join(logFolder, 'session.jsonl');
const session = await openSession({
	cwd: workspace,
	logPath,
	extraTools: [wordCount],
	policy: async (exec, next) => {
		const command = exec.name === 'bash' ? exec.arguments?.command ?? '' : '';
		if (command.startsWith('rm ')) {
			return {kind: 'deny', reason: 'the demo policy refuses rm'};
		}

		if (command.startsWith('git push') || command.startsWith('git reset')) {
			return {kind: 'ask', reason: `the demo config asks before ${command.split(' ').slice(0, 2).join(' ')}`};
		}

		return next();
	},
});
// The person at the screen, scripted: the approval dialog allows `git push` and rejects the rest.
session.approvals.subscribe(() => {
	const shown = session.approvals.current;
	if (shown !== undefined) {
		session.approvals.answer(shown.reason?.endsWith('git push') ? 'allowed-once' : 'rejected');
	}
});
const agent = await createAgent({
	cwd: workspace,
	runtime: session.runtime,
	log: session.log,
	registry: session.registry,
	model: resolveModel({spec: 'demo-model', baseUrl: model.url, env: {}}),
	jobs: session.jobs,
});
for (const turn of turns) {
	const controller = new AbortController();
	const timer = turn.cancelAfterMs === undefined ? undefined : setTimeout(() => controller.abort(new Error('cancelled in the demo')), turn.cancelAfterMs);
	await agent.loop.runTurn(turn.prompt, {signal: controller.signal});
	clearTimeout(timer);
}

agent.dispose();
await session.close();
await model.close();
web.close();

// An interrupted call: the process died after recording it, and its step and turn closed without a result.
let text = await readFile(logPath, 'utf8');
const lines = text.trimEnd().split('\n');
const last = JSON.parse(lines.at(-1));
let seq = last.seq + 1;
const time = last.time + 1000;
const turn = (last.data.turn ?? 0) + 1;
const event = (type, data) => JSON.stringify({type, seq: seq++, time, data});
lines.push(
	event('turn/start', {turn}),
	event('user/message', {turn, message: {role: 'user', content: [{type: 'text', text: 'Build it again.'}]}}),
	event('step/start', {turn, step: 1}),
	event('tool/call', {turn, step: 1, callId: 'call-interrupted', name: 'bash', arguments: JSON.stringify({command: 'npm run build', description: 'Build before the crash'})}),
	event('step/end', {turn, step: 1}),
	event('turn/end', {turn, reason: {kind: 'interrupted'}}),
);
text = `${lines.join('\n')}\n`.replaceAll(workspace, stablePath).replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${stablePort}`);
await writeFile(out, text);
await rm(workspace, {recursive: true, force: true});
await rm(logFolder, {recursive: true, force: true});
console.log(`wrote ${new URL(out).pathname} (${lines.length} lines, ${text.length} bytes)`);
