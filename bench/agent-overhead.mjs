// cardterm's own overhead per model tool call (issue 14): a scripted session of N steps, one `read`
// call each, against the fake model server (test/fixtures/fake-model-server.mjs, in a child process:
// bench/lib/read-steps-server.mjs), timed from the prompt to the turn's end; the server's own time is
// subtracted. Also this process's CPU time per call, which other work on the machine inflates far
// less than wall time. The floor, measured in the same process: the same N calls run directly
// through the session (`runCall`), without a model.
//   npm run build && node bench/agent-overhead.mjs [--calls N] (or a bare N; default 200)
// Prints one JSON line: {calls, agentMs, serverMs, overheadPerCallMs, cpuPerCallMs, directPerCallMs, directCpuPerCallMs, ratio, cpuRatio, maxRssMb}.
// Profile it with `node --cpu-prof bench/agent-overhead.mjs --calls 2000` (only cardterm's frames: the
// server is another process).
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {createAgent} from '../dist/src/agent/create-agent.js';
import {resolveModel} from '../dist/src/agent/model-client.js';
import {openSession} from '../dist/src/host/open-session.js';
import {startReadStepsServer} from './lib/read-steps-server.mjs';

const {values, positionals} = parseArgs({options: {calls: {type: 'string'}}, allowPositionals: true});
const calls = Number(values.calls ?? positionals[0] ?? 200);
if (!Number.isInteger(calls) || calls < 1) {
	throw new Error(`--calls needs a whole number of calls, got ${values.calls ?? positionals[0]}`);
}


async function workspace() {
	const dir = await mkdtemp(join(tmpdir(), 'cardterm-agent-bench-'));
	await writeFile(join(dir, 'notes.txt'), 'alpha\nbeta\ngamma\n'.repeat(20));
	return dir;
}

const cpuMs = () => {
	const {user, system} = process.cpuUsage();
	return (user + system) / 1000;
};

/** N steps with one read each, then an answer; returns wall, CPU and server ms. */
async function agentRun(count) {
	const dir = await workspace();
	const server = await startReadStepsServer(count);
	const session = await openSession({cwd: dir, logPath: join(dir, 'session.jsonl')});
	const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
	const agent = await createAgent({cwd: dir, runtime: session.runtime, log: session.log, registry: session.registry, model, maxSteps: count + 1});
	const started = performance.now();
	const cpuStarted = cpuMs();
	const outcome = await agent.loop.runTurn('Read the notes again and again.', {signal: new AbortController().signal});
	const wall = performance.now() - started;
	const cpu = cpuMs() - cpuStarted;
	if (outcome.reason.kind !== 'completed') {
		throw new Error(`the turn ended ${JSON.stringify(outcome.reason)}`);
	}

	const serverMs = await server.serverMs();
	agent.dispose();
	await session.close();
	await server.close();
	await rm(dir, {recursive: true, force: true});
	return {wall, cpu, serverMs};
}

/** The same calls without a model. */
async function directRun(count) {
	const dir = await workspace();
	const session = await openSession({cwd: dir, logPath: join(dir, 'session.jsonl')});
	const signal = new AbortController().signal;
	const started = performance.now();
	const cpuStarted = cpuMs();
	for (let index = 0; index < count; index++) {
		await session.runtime.runCall('read', {file_path: 'notes.txt', limit: 5}, {signal});
	}

	const wall = performance.now() - started;
	const cpu = cpuMs() - cpuStarted;
	await session.close();
	await rm(dir, {recursive: true, force: true});
	return {wall, cpu};
}

// Warm up the modules, the SDK and the JIT on a short session first.
await agentRun(10);
await directRun(10);
const direct = await directRun(calls);
const agent = await agentRun(calls);
const overhead = (agent.wall - agent.serverMs) / calls;
const directPerCall = direct.wall / calls;
const cpuPerCall = agent.cpu / calls;
const directCpuPerCall = direct.cpu / calls;
process.stdout.write(`${JSON.stringify({calls, agentMs: agent.wall, serverMs: agent.serverMs, overheadPerCallMs: overhead, cpuPerCallMs: cpuPerCall, directPerCallMs: directPerCall, directCpuPerCallMs: directCpuPerCall, ratio: overhead / directPerCall, cpuRatio: cpuPerCall / directCpuPerCall, maxRssMb: process.resourceUsage().maxRSS / 1024})}\n`);
