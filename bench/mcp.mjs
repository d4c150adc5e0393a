// MCP figures (issue 18), against dist/ (npm run build first):
//   node --expose-gc bench/mcp.mjs [--calls N] [--runs N]
// 1. start-up: openSession with 5 stdio servers vs none, to its return (the first prompt can be
//    typed then: servers connect in the background), and to all 5 ready;
// 2. per call: an MCP tool (the test server's `echo`, over stdio) beside a native tool of the same
//    work (an echo registered in the same session), N calls each, interleaved;
// 3. memory: the heap with one server of 10 000 tools registered, beside the same session without it.
// Prints one JSON object per figure ({name, median, p95, unit, floor, ratio, runs}), the floor the
// figure it is compared with, measured in the same run.
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {fileURLToPath} from 'node:url';
import {readMcpServers} from '../dist/src/config/mcp-servers.js';
import {openSession} from '../dist/src/host/open-session.js';
import {defineTool} from '../dist/src/tools/define-tool.js';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {calls: {type: 'string', default: '300'}, runs: {type: 'string', default: '7'}}});
const calls = Number(values.calls);
const runs = Number(values.runs);
const server = fileURLToPath(new URL('../test/host/fixtures/hostile-mcp-server.mjs', import.meta.url));
const emit = value => {
	process.stdout.write(`${JSON.stringify(value)}\n`);
};

const servers = (count, flags = []) => readMcpServers(Object.fromEntries(Array.from({length: count}, (_, index) => [`s${index}`, {command: process.execPath, args: [server, ...flags], allow: true}])), 'bench', false).entries;
const nativeEcho = defineTool({
	name: 'native_echo',
	description: 'echo',
	parameters: {text: {type: 'string'}},
	output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
	execute: async ({text}) => `echo ${text}`,
});

async function opened(dir, count, flags) {
	return openSession({cwd: dir, extraTools: [nativeEcho], ...(count === 0 ? {} : {mcp: {servers: servers(count, flags), env: process.env, ask: false}})});
}

const dir = await mkdtemp(join(tmpdir(), 'cardterm-mcp-bench-'));
try {
	// 1. Start-up.
	const withServers = [];
	const without = [];
	const allReady = [];
	// The last session's programs end in the background: each measure starts after a quiet moment.
	const quiet = async () => new Promise(resolve => {
		setTimeout(resolve, 300);
	});
	for (let run = 0; run <= runs; run++) {
		await quiet();
		let started = performance.now();
		const bare = await opened(dir, 0);
		const bareMs = performance.now() - started;
		await bare.close();
		await quiet();
		started = performance.now();
		const session = await opened(dir, 5);
		const openMs = performance.now() - started;
		await session.mcp.settled();
		const readyMs = performance.now() - started;
		if (session.mcp.status().some(each => each.state !== 'ready')) {
			throw new Error(`a server did not start: ${JSON.stringify(session.mcp.status())}`);
		}

		await session.close();
		if (run > 0) {
			without.push(bareMs);
			withServers.push(openMs);
			allReady.push(readyMs);
		}
	}

	emit(figure('start-up: openSession with 5 stdio MCP servers (prompt ready)', withServers, {floor: without}));
	emit(figure('start-up: all 5 MCP servers ready', allReady, {floor: without}));

	// 2. Per call.
	const session = await opened(dir, 1);
	await session.mcp.settled();
	const mcpMs = [];
	const nativeMs = [];
	const signal = new AbortController().signal;
	for (let index = 0; index < calls; index++) {
		let started = performance.now();
		const viaMcp = await session.runtime.runCall('mcp__s0__echo', {text: 'x'}, {signal});
		mcpMs.push(performance.now() - started);
		started = performance.now();
		const native = await session.runtime.runCall('native_echo', {text: 'x'}, {signal});
		nativeMs.push(performance.now() - started);
		if (viaMcp.isError || native.isError) {
			throw new Error('a call failed');
		}
	}

	await session.close();
	emit(figure('per call: MCP echo over stdio', mcpMs.slice(10), {floor: nativeMs.slice(10)}));

	// 3. Memory with 10 000 tools.
	const heap = async count => {
		const each = await opened(dir, count, ['--tools=10000']);
		await each.mcp?.settled();
		globalThis.gc?.();
		const used = process.memoryUsage().heapUsed / 1024 / 1024;
		const tools = each.toolNames().size;
		await each.close();
		globalThis.gc?.();
		return {used, tools};
	};

	const base = await heap(0);
	const large = await heap(1);
	emit({...figure('heap with 10 000 MCP tools registered', [large.used], {unit: 'MB', floor: [base.used]}), tools: large.tools, gc: typeof globalThis.gc === 'function'});
} finally {
	await rm(dir, {recursive: true, force: true});
}
