// Regenerates examples/demo-session.jsonl, the session `cardterm demo` replays.
//   npm run build && node examples/make-demo.mjs
// It runs the real reference tools in a temporary workspace (a tiny TypeScript project), against a
// local web page and a fake SearXNG endpoint, so that the log shows every card kind and state. The
// temporary path and port are rewritten to stable ones so the committed log does not change by run.
import {createServer} from 'node:http';
import {mkdtemp, mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {defineTool} from 'cardterm';
import {openSession} from '../dist/src/host/open-session.js';

const stablePath = '/home/demo/project';
const stablePort = 43117;
const out = new URL('demo-session.jsonl', import.meta.url);

const server = createServer((request, response) => {
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
await new Promise(done => server.listen(0, '127.0.0.1', done));
const port = server.address().port;
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
const signal = () => new AbortController().signal;
const run = (name, args, options = {}) => session.runtime.runCall(name, args, {signal: options.signal ?? signal()});
const sh = (command, description, extra = {}) => run('bash', {command, description, ...extra});

await run('read', {file_path: 'src/config.ts'});
await run('grep', {pattern: 'DEBUG', include: '*.ts'});
await run('glob', {pattern: 'src/*.ts'});
await run('grep', {pattern: 'TODO'});
await run('glob', {pattern: '**/*.py'});
await run('edit', {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'});
await run('edit', {file_path: 'src/app.ts', old_string: 'DEBUG', new_string: 'RELEASE', replace_all: true});
await run('edit', {file_path: 'src/config.ts', old_string: 'VERBOSE', new_string: 'QUIET'});
await run('write', {file_path: 'docs/NOTES.md', content: '# Notes\n\n- DEBUG is off by default\n- 日本語のメモ 🚀\n'});
await run('write', {file_path: 'README.md', content: '# demo\n\nA tiny project for the cardterm demo, now documented.\n'});
await run('read', {file_path: 'src/app.ts', offset: 2, limit: 3});
await run('read', {file_path: 'missing.txt'});
await sh("printf '\\033[32m✓\\033[0m 4 passed\\n\\033[31m✗\\033[0m 1 failed\\n'; printf 'FAIL src/config.test.ts > reads level\\n' >&2; exit 1", 'Run the test suite');
await sh('ls src | head -3', 'List the first source files');
await sh('for i in 1 2 3; do printf "downloading %d%%\\r" $((i * 33)); done; echo done', 'Show a progress bar');
await sh('sleep 5', 'Wait longer than allowed', {timeoutMs: 300});
const controller = new AbortController();
setTimeout(() => controller.abort(new Error('cancelled in the demo')), 300);
await run('bash', {command: 'sleep 30', description: 'Cancelled while running'}, {signal: controller.signal});
await sh('rm -rf build', 'Remove the build folder');
await sh('git push origin main 2>&1 || echo "(no remote in the demo)"', 'Push the branch');
await sh('git reset --hard', 'Throw away local changes');
await run('web_search', {queries: ['vitest environment option']});
await run('web_fetch', {url: `${base}/menu.html`});
await run('web_fetch', {url: `${base}/missing.html`});
await run('todo_write', {todos: [{content: 'Turn DEBUG off', status: 'completed'}, {content: 'Fix the failing test', status: 'in_progress'}, {content: 'Write release notes', status: 'pending'}]});
await sh('sleep 60', 'Start a long background task', {run_in_background: true});
await run('job_list', {});
await run('job_kill', {job_id: 'bash-1'});
await run('run_code', {code: "const a = await tools.read({file_path: 'src/log.ts'});\nconst b = await tools.grep({pattern: 'config'});\nconsole.log(`${a.totalLines} lines, ${b.matches.length} matches`);\nreturn {lines: a.totalLines};", description: 'Read and search from a program'});
await run('word_count', {text: 'every tool call becomes a card'});
await run('deploy', {target: 'production'});
await session.close();
server.close();

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
