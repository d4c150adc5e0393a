// The model's window (issue 17): a 300-turn session against the fake model server
// (test/fixtures/fake-model-server.mjs), each turn a `read` of a 5–8 KB file and an answer.
//   npm run build && node --expose-gc bench/context-window.mjs [--turns N] (default 300)
// Two runs of the same script: with the window's budgets (a 16k window: results bounded, compaction
// at the window less the reserve) and without them (the fake server's window unbounded, as before
// issue 17). Prints one JSON line:
//   tokensPerStep{With,Without} and their ratio (what the provider counted per request: the JSON of
//   the messages and tools ÷ 4, as the fake server reports it), maxRequestTokens{With,Without},
//   compactions, compactionMs (mean wall time from compaction/start to compaction/end; the fake
//   server answers a summary at once, so this is cardterm's own time), and heapMb at every 50th turn of the
//   run with budgets (after a GC: flat across compactions).
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {contextOptions} from '../dist/src/agent/context-settings.js';
import {createAgent} from '../dist/src/agent/create-agent.js';
import {resolveModel} from '../dist/src/agent/model-client.js';
import {openSession} from '../dist/src/host/open-session.js';
import {startWindowedModelServer} from './lib/windowed-model-server.mjs';

const {values, positionals} = parseArgs({options: {turns: {type: 'string'}}, allowPositionals: true});
const turns = Number(values.turns ?? positionals[0] ?? 300);
if (!Number.isInteger(turns) || turns < 1) {
	throw new Error(`--turns needs a whole number, got ${values.turns ?? positionals[0]}`);
}

const WINDOW = 16_384;

async function session(withBudgets) {
	const dir = await mkdtemp(join(tmpdir(), 'cardterm-context-bench-'));
	for (let k = 0; k < 7; k++) {
		await writeFile(join(dir, `data-${k}.txt`), Array.from({length: 500 + k * 50}, (_, line) => `row ${line} of file ${k}`).join('\n'));
	}

	const server = await startWindowedModelServer(withBudgets ? WINDOW : 0);
	// Written entries leave memory, as in a live session with a log (open-native-session.ts): what grows is then the agent's.
	const opened = await openSession({cwd: dir, logPath: join(dir, 'session.jsonl'), releaseWritten: () => true});
	const compactions = [];
	let open;
	opened.log.listen((event) => {
		if (event.type === 'compaction/start') {
			open = {started: performance.now(), summary: event.data.trigger};
		} else if (event.type === 'compaction/end' && open !== undefined) {
			compactions.push(performance.now() - open.started);
			open = undefined;
		}
	});
	const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {OPENAI_API_KEY: 'bench'}});
	const agent = await createAgent({cwd: dir, runtime: opened.runtime, log: opened.log, registry: opened.registry, model, ...(withBudgets ? {context: contextOptions({tokens: WINDOW, source: 'bench'})} : {})});
	const heapMb = [];
	for (let turn = 1; turn <= turns; turn++) {
		const outcome = await agent.loop.runTurn(`count (${turn})`, {signal: new AbortController().signal});
		if (outcome.reason.kind !== 'completed') {
			throw new Error(`turn ${turn} ended ${JSON.stringify(outcome.reason)}`);
		}

		// The screen writes each settled entry to the scrollback, and the fold lets it go (live-session.ts).
		for (const entry of opened.fold.entries) {
			opened.fold.written(entry);
		}

		if (turn % 50 === 0) {
			globalThis.gc?.();
			heapMb.push(Math.round(process.memoryUsage().heapUsed / 1e5) / 10);
		}
	}

	const stats = await server.stats();
	agent.dispose();
	await opened.close();
	await server.close();
	await rm(dir, {recursive: true, force: true});
	if (stats.over > 0) {
		throw new Error(`${stats.over} requests went over the ${WINDOW}-token window`);
	}

	return {sent: stats.sent, compactions, heapMb};
}

const round = (value) => Math.round(value * 100) / 100;
const mean = (list) => list.length === 0 ? 0 : list.reduce((sum, value) => sum + value, 0) / list.length;
const without = await session(false);
const withBudgets = await session(true);
process.stdout.write(`${JSON.stringify({
	turns,
	tokensPerStepWith: Math.round(mean(withBudgets.sent)),
	tokensPerStepWithout: Math.round(mean(without.sent)),
	ratio: round(mean(withBudgets.sent) / mean(without.sent)),
	maxRequestTokensWith: Math.max(...withBudgets.sent),
	maxRequestTokensWithout: Math.max(...without.sent),
	compactions: withBudgets.compactions.length,
	compactionMs: round(mean(withBudgets.compactions)),
	heapMb: withBudgets.heapMb,
	gc: globalThis.gc !== undefined,
})}\n`);
