#!/usr/bin/env node
// Reruns the hand check of docs/acp-mapping.md ("Real agents"): each real ACP agent of issue 15 runs
// `cardterm acp -p … --yolo -- AGENT…` against a scripted fake model on loopback, with a throwaway
// HOME, and the ACP frames (CARDTERM_ACP_TRACE), the printed transcript and the model requests are
// kept per agent. Not part of npm test: it installs the agents (into the peers' cache, outside the
// project) and takes minutes.
//   npm run build && node test/acp/real-agents.mjs [--out DIR] [AGENT…]
// The script, one step per tool result since the prompt: a shell call, a read of notes.txt, a write
// of new.txt, an edit of notes.txt, then an answer. A step whose kind of tool the agent does not
// offer is left out (Codex has no read tool: it reads with the shell).
import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:http';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {defaultCache, ensureNpmPeer} from '../../bench/peers/install-peer.mjs';
import {schemaShaped} from '../../bench/peers/schema-shaped.mjs';
import {pickShellTool, shellArguments} from '../../bench/peers/script-step.mjs';
import {readChat, writeChat} from '../../bench/peers/wire/chat-completions.mjs';
import {readGemini, writeGemini} from '../../bench/peers/wire/gemini.mjs';
import {readResponses, writeResponses} from '../../bench/peers/wire/responses.mjs';
import codexDriver from '../../bench/peers/drivers/codex.mjs';
import geminiDriver from '../../bench/peers/drivers/gemini.mjs';
import opencodeDriver from '../../bench/peers/drivers/opencode.mjs';
import piDriver from '../../bench/peers/drivers/pi.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const MODEL = 'fake-model';
const PROMPT = 'ACPCHECK: run the scripted steps, then answer.';
const NOTES = 'alpha line\nbeta line\n';

const firstTool = (tools, names) => names.map(name => tools.find(tool => tool.name === name)).find(Boolean);
const keyOf = (tool, names) => names.find(name => name in (tool.parameters?.properties ?? {}));

/** Arguments for `tool` from the schema: every required field filled, then `values` under the first key the schema has. */
function argumentsFor(tool, values) {
	const properties = tool.parameters?.properties ?? {};
	const args = {};
	for (const name of Array.isArray(tool.parameters?.required) ? tool.parameters.required : []) {
		args[name] = schemaShaped(properties[name] ?? {});
	}

	for (const [names, value] of values) {
		const key = keyOf(tool, names);
		if (key !== undefined) {
			args[key] = value;
		}
	}

	return args;
}

const pathKeys = ['absolute_path', 'file_path', 'filePath', 'path', 'filename'];

/** The scripted steps the tools allow, for a workspace. */
function stepsFor(tools, workspace) {
	const steps = [];
	const shell = pickShellTool(tools);
	if (shell !== undefined) {
		steps.push({what: 'shell', tool: shell.name, args: shellArguments(shell, 'echo acp-shell-ok', schemaShaped)});
	}

	const read = firstTool(tools, ['read_file', 'read', 'Read', 'view']);
	if (read !== undefined) {
		steps.push({what: 'read', tool: read.name, args: argumentsFor(read, [[pathKeys, join(workspace, 'notes.txt')]])});
	}

	const write = firstTool(tools, ['write_file', 'write', 'Write', 'create_file']);
	if (write !== undefined) {
		steps.push({what: 'write', tool: write.name, args: argumentsFor(write, [[pathKeys, join(workspace, 'new.txt')], [['content', 'text', 'file_text', 'contents'], 'created by the agent\n']])});
	}

	const edit = firstTool(tools, ['replace', 'edit', 'Edit', 'edit_file', 'str_replace']);
	if (edit !== undefined) {
		const properties = edit.parameters?.properties ?? {};
		const args = argumentsFor(edit, [[pathKeys, join(workspace, 'notes.txt')], [['old_string', 'oldString', 'old_text', 'oldText', 'old_str'], 'beta line'], [['new_string', 'newString', 'new_text', 'newText', 'new_str'], 'BETA LINE']]);
		if ('edits' in properties) {
			// pi's edit: a list of {oldText, newText}.
			args.edits = [{oldText: 'beta line', newText: 'BETA LINE'}];
		}

		if ('instruction' in properties) {
			args.instruction = 'Uppercase the beta line.';
		}

		steps.push({what: 'edit', tool: edit.name, args});
	}

	return steps;
}

/** The scripted model: the next step for the conversation a request carries (no server-side state). */
function startModel(workspace, requests) {
	let counter = 0;
	const server = createServer((request, response) => {
		const chunks = [];
		request.on('data', chunk => chunks.push(chunk));
		request.on('end', () => {
			const url = new URL(request.url ?? '/', 'http://127.0.0.1');
			if (request.method === 'GET') {
				response.writeHead(200, {'content-type': 'application/json'});
				response.end(JSON.stringify(url.pathname.includes('v1beta') ? {models: [{name: `models/${MODEL}`, supportedGenerationMethods: ['generateContent']}]} : {object: 'list', data: [{id: MODEL, object: 'model'}]}));
				return;
			}

			let body = {};
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
			} catch {
				// Not JSON: the body stays empty.
			}

			counter++;
			if (url.pathname.endsWith(':countTokens')) {
				response.writeHead(200, {'content-type': 'application/json'});
				response.end(JSON.stringify({totalTokens: 10}));
				return;
			}

			let read;
			let write;
			if (url.pathname.endsWith('/chat/completions')) {
				[read, write] = [readChat(body), writeChat];
			} else if (url.pathname.endsWith('/responses')) {
				[read, write] = [readResponses(body), writeResponses];
			} else if (/:(stream)?generateContent$/i.test(url.pathname)) {
				[read, write] = [readGemini(body, {streaming: /:streamGenerateContent$/i.test(url.pathname)}), writeGemini];
			} else {
				response.writeHead(404, {'content-type': 'application/json'});
				response.end(JSON.stringify({error: {message: `not served: ${url.pathname}`}}));
				return;
			}

			const id = `call_${counter}`;
			const at = read.turns.findLastIndex(turn => turn.role === 'user' && turn.text.includes('ACPCHECK'));
			let reply;
			if (read.side || at === -1) {
				reply = {kind: 'text', id, text: read.jsonSchema === undefined ? 'ACP check' : JSON.stringify(schemaShaped(read.jsonSchema))};
				requests.push({path: url.pathname, side: true});
			} else {
				const results = read.turns.slice(at + 1).filter(turn => turn.role === 'result').length;
				const steps = stepsFor(read.tools, workspace);
				const step = steps[results];
				reply = step === undefined ? {kind: 'text', id, text: `Done: ${steps.map(each => each.what).join(', ')}. ACPDONE`} : {kind: 'call', id, name: step.tool, args: step.args};
				requests.push({path: url.pathname, tools: read.tools.map(tool => tool.name), reply});
			}

			write(response, reply, {model: body.model ?? MODEL, stream: read.stream, includeUsage: read.includeUsage, usage: {input: 10, output: 5}});
		});
	});
	return new Promise(done => {
		server.listen(0, '127.0.0.1', () => {
			done({port: server.address().port, close: () => new Promise(closed => {
				server.closeAllConnections();
				server.close(() => closed());
			})});
		});
	});
}

const cache = defaultCache();

/** The agents of issue 15: how each installs, is configured (the peers' drivers where there is one) and speaks ACP. */
const agents = {
	gemini: {
		install: () => geminiDriver.install({cache}),
		configure: ({home, baseUrl, workspace}) => geminiDriver.configure({home, baseUrl, workFolders: [workspace]}),
		args: () => ['--acp', '-m', geminiDriver.model],
	},
	opencode: {
		install: () => opencodeDriver.install({cache}),
		configure: ({home, baseUrl}) => opencodeDriver.configure({home, baseUrl, model: MODEL}),
		args: () => ['acp'],
	},
	'codex-acp': {
		install: () => ensureNpmPeer({cache, folder: 'codex-acp', packageName: '@zed-industries/codex-acp', bin: 'codex-acp'}),
		configure: ({home, baseUrl, workspace}) => ({...codexDriver.configure({home, baseUrl, model: MODEL, workFolders: [workspace]}), CODEX_HOME: join(home, '.codex')}),
		args: () => [],
	},
	qwen: {
		install: () => ensureNpmPeer({cache, folder: 'qwen', packageName: '@qwen-code/qwen-code', bin: 'qwen'}),
		configure({home, baseUrl, workspace}) {
			mkdirSync(join(home, '.qwen'), {recursive: true});
			writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({
				security: {auth: {selectedType: 'openai'}, folderTrust: {enabled: false}},
				general: {disableAutoUpdate: true, disableUpdateNag: true},
				privacy: {usageStatisticsEnabled: false},
				telemetry: {enabled: false},
				model: {name: MODEL},
			}, null, 2));
			writeFileSync(join(home, '.qwen', 'trustedFolders.json'), JSON.stringify({[workspace]: 'TRUST_FOLDER'}));
			return {OPENAI_API_KEY: 'check', OPENAI_BASE_URL: `${baseUrl}/v1`, OPENAI_MODEL: MODEL};
		},
		args: () => ['--acp', '--auth-type', 'openai', '-m', MODEL],
	},
	kilo: {
		install: () => ensureNpmPeer({cache, folder: 'kilo', packageName: '@kilocode/cli', bin: 'kilo'}),
		configure({home, baseUrl}) {
			const config = {
				$schema: 'https://kilo.ai/config.json',
				provider: {fake: {npm: '@ai-sdk/openai-compatible', name: 'Fake', options: {baseURL: `${baseUrl}/v1`, apiKey: 'check'}, models: {[MODEL]: {name: MODEL}}}},
				model: `fake/${MODEL}`,
				small_model: `fake/${MODEL}`,
				autoupdate: false,
				share: 'disabled',
			};
			for (const folder of ['kilo', 'opencode']) {
				mkdirSync(join(home, '.config', folder), {recursive: true});
				writeFileSync(join(home, '.config', folder, folder === 'kilo' ? 'kilo.json' : 'opencode.json'), JSON.stringify(config, null, 2));
				writeFileSync(join(home, '.config', folder, 'config.json'), JSON.stringify(config, null, 2));
			}

			return {KILO_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_AUTOUPDATE: '1'};
		},
		args: () => ['acp'],
	},
	'pi-acp': {
		install() {
			// pi ≥ 1 (@earendil-works) needs Node ≥ 22.19; on an older Node the bench's pi (@mariozechner, 0.7x) is tried.
			const newNode = Number(process.versions.node.split('.')[0]) >= 22;
			const pi = newNode ? ensureNpmPeer({cache, folder: 'pi-earendil', packageName: '@earendil-works/pi-coding-agent', bin: 'pi'}) : piDriver.install({cache});
			const adapter = ensureNpmPeer({cache, folder: 'pi-acp', packageName: 'pi-acp', bin: 'pi-acp'});
			return {command: adapter.command, version: `${adapter.version} (pi ${pi.version})`, pi: pi.command[0]};
		},
		configure({home, baseUrl, installed}) {
			const env = piDriver.configure({home, baseUrl, model: MODEL});
			writeFileSync(join(home, '.pi', 'agent', 'settings.json'), JSON.stringify({defaultProvider: 'fake', defaultModel: MODEL, quietStartup: true}, null, 2));
			return {...env, PI_ACP_PI_COMMAND: installed.pi};
		},
		args: () => [],
	},
};

function run(command, args, {cwd, env, timeoutMs}) {
	return new Promise(done => {
		const child = spawn(command, args, {cwd, env, stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', chunk => {
			stdout += chunk;
		});
		child.stderr.on('data', chunk => {
			stderr += chunk;
		});
		const timer = setTimeout(() => {
			child.kill('SIGINT');
			setTimeout(() => child.kill('SIGKILL'), 5000).unref();
		}, timeoutMs);
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			done({code, signal, stdout, stderr});
		});
	});
}

/**
The trace as a test fixture: the frames the mapping sees (`session/update` params, permission
requests, the prompt's answer), the run's temporary folder named `/tmp/acp-check`, long lists cut.
*/
export function fixtureOf(tracePath, base) {
	if (!existsSync(tracePath)) {
		return '';
	}

	const lines = [];
	for (const line of readFileSync(tracePath, 'utf8').split('\n')) {
		if (line === '') {
			continue;
		}

		const {dir, line: frame} = JSON.parse(line);
		let message;
		try {
			// opencode titles paths relative to the root: the folder also appears without its leading slash.
			message = JSON.parse(frame.replaceAll(base, '/tmp/acp-check').replaceAll(base.slice(1), 'tmp/acp-check'));
		} catch {
			lines.push(JSON.stringify({dir, raw: frame.slice(0, 200)}));
			continue;
		}

		const update = message.params?.update;
		for (const [key, value] of Object.entries(update?._meta ?? {})) {
			// qwen-code sends its skills' details (half a megabyte) in `_meta`.
			const size = JSON.stringify(value).length;
			if (size > 2000) {
				update._meta[key] = `<${size} characters cut>`;
			}
		}

		if (update?.sessionUpdate === 'available_commands_update' && Array.isArray(update.availableCommands)) {
			update.availableCommands = update.availableCommands.slice(0, 2);
		}

		if (update?.sessionUpdate === 'config_option_update' || message.result?.configOptions !== undefined) {
			for (const option of update?.configOptions ?? message.result.configOptions) {
				if (Array.isArray(option.options)) {
					option.options = option.options.slice(0, 2);
				}
			}
		}

		if (message.result?.models?.availableModels !== undefined) {
			message.result.models.availableModels = message.result.models.availableModels.slice(0, 2);
		}

		lines.push(JSON.stringify({dir, ...message}));
	}

	return `${lines.join('\n')}\n`;
}

async function check(name, out) {
	const agent = agents[name];
	const folder = join(out, name);
	rmSync(folder, {recursive: true, force: true});
	mkdirSync(folder, {recursive: true});
	let installed;
	try {
		installed = agent.install();
	} catch (error) {
		writeFileSync(join(folder, 'result.json'), JSON.stringify({name, installed: false, error: error.message}, null, 2));
		return {name, installed: false, error: error.message};
	}

	const base = mkdtempSync(join(tmpdir(), `cardterm-acp-${name}-`));
	const home = join(base, 'home');
	const workspace = join(base, 'work');
	mkdirSync(home, {recursive: true});
	mkdirSync(workspace, {recursive: true});
	writeFileSync(join(workspace, 'notes.txt'), NOTES);
	const requests = [];
	const model = await startModel(workspace, requests);
	const baseUrl = `http://127.0.0.1:${model.port}`;
	const env = {
		PATH: process.env.PATH,
		HOME: home,
		XDG_CONFIG_HOME: join(home, '.config'),
		XDG_DATA_HOME: join(home, '.local', 'share'),
		XDG_CACHE_HOME: join(home, '.cache'),
		XDG_STATE_HOME: join(home, '.local', 'state'),
		TERM: 'xterm-256color',
		NO_COLOR: '1',
		CARDTERM_ACP_TRACE: join(folder, 'trace.jsonl'),
		...agent.configure({home, baseUrl, workspace, installed}),
	};
	const argv = [join(root, 'bin', 'cardterm'), 'acp', '-p', PROMPT, '--yolo', '--width', '100', '--no-color', '--session-dir', join(base, 'sessions'), '--', ...installed.command, ...agent.args()];
	const result = await run(process.execPath, argv, {cwd: workspace, env, timeoutMs: Number(process.env.CARDTERM_ACP_CHECK_TIMEOUT_MS ?? 240_000)});
	await model.close();
	const files = {notes: readFileSync(join(workspace, 'notes.txt'), 'utf8'), newFile: existsSync(join(workspace, 'new.txt')) ? readFileSync(join(workspace, 'new.txt'), 'utf8') : null};
	writeFileSync(join(folder, 'transcript.txt'), result.stdout);
	writeFileSync(join(folder, 'stderr.txt'), result.stderr);
	writeFileSync(join(folder, 'model-requests.json'), JSON.stringify(requests, null, 1));
	const summary = {name, version: installed.version, exit: result.code, signal: result.signal, files, answered: result.stdout.includes('ACPDONE'), steps: requests.filter(each => !each.side).map(each => each.reply.name ?? 'answer')};
	writeFileSync(join(folder, 'result.json'), JSON.stringify(summary, null, 2));
	writeFileSync(join(folder, 'fixture.jsonl'), fixtureOf(join(folder, 'trace.jsonl'), base));
	rmSync(base, {recursive: true, force: true});
	return summary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	await main();
}

async function main() {
	const {values, positionals} = parseArgs({options: {out: {type: 'string', default: join(tmpdir(), 'cardterm-acp-real')}}, allowPositionals: true});
	if (!existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))) {
		console.error('build first: npm run build');
		process.exit(2);
	}

	for (const name of positionals.length === 0 ? Object.keys(agents) : positionals) {
		if (agents[name] === undefined) {
			console.error(`unknown agent ${name} (${Object.keys(agents).join(', ')})`);
			process.exit(2);
		}
		console.log(JSON.stringify(await check(name, values.out)));
	}
}
