// The ACP figures of the peer bench's report (issue 34, "ACP"): a streamed chunk from the agent's pipe to
// the frame showing it (bench/acp-chunk-latency.mjs, against one frame) and a 1 000-update turn of Gemini
// CLI under `cardterm acp` against Gemini CLI's own TUI (acp-turn.mjs). Each runs as its own process
// against the build of `root`; a bench that fails is named in the report, not fatal.
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {join} from 'node:path';

/** The JSON lines a bench printed (other lines ignored). */
const jsonLines = text => text.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line));

const ms = value => (typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(1)} ms` : '–');

/** Runs `node script …args`; its JSON lines, or throws with its last words. */
function runBench(script, args, root) {
	const child = spawnSync(process.execPath, [script, ...args], {cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 1_800_000, stdio: ['ignore', 'pipe', 'pipe']});
	if (child.status !== 0) {
		throw new Error(`${script} exited ${child.status ?? child.signal}: ${(child.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`);
	}

	return jsonLines(child.stdout);
}

/** The report's lines (a Markdown table, then what failed). `root` is the cardterm checkout measured. */
export function acpFigures({root, cache, runs, note = () => {}}) {
	const rows = ['| ACP figure | cardterm | beside it | ratio | target |', '|---|---:|---:|---:|---|'];
	const failed = [];
	// The checkout's own bench reads its own dist/; ours stands in for a build that has none.
	const latencyScript = [join(root, 'bench', 'acp-chunk-latency.mjs'), join(import.meta.dirname, '..', 'acp-chunk-latency.mjs')].find(path => existsSync(path));
	try {
		note('ACP: a chunk from the agent to the screen');
		const [latency] = runBench(latencyScript, [], root);
		rows.push(`| ${latency.name}: median, p95 | ${ms(latency.median)}, p95 ${ms(latency.p95)} | floor ${ms(latency.floor)} | – | ${latency.target}: ${latency.met ? 'met' : '**not met**'}${latency.notShown > 0 ? ` (${latency.notShown} chunks never shown)` : ''} |`);
	} catch (error) {
		failed.push(`- acp-chunk-latency: ${error.message}`);
	}

	try {
		note('ACP: a 1 000-update turn, cardterm acp -- gemini --acp against gemini\'s TUI');
		const turn = runBench(join(import.meta.dirname, 'acp-turn.mjs'), ['--runs', String(runs), '--cache', cache], root).find(line => line.figure !== undefined);
		rows.push(`| ${turn.figure}; ${turn.updates} updates; Gemini CLI ${turn.gemini}; load ${turn.load1.join(' → ')} | ${ms(turn.cardtermAcpMs)} | Gemini CLI's TUI ${ms(turn.geminiTuiMs)} (the agent alone, no screen: ${ms(turn.agentAloneMs)}) | ${turn.ratio} | (reported; CPU in the turn: cardterm acp ${turn.cpu.cardtermAcpTreeMs} ms, of it cardterm ${turn.cpu.cardtermOwnMs}; Gemini's TUI ${turn.cpu.geminiTuiTreeMs}) |`);
	} catch (error) {
		failed.push(`- acp-turn: ${error.message}`);
	}

	return [...rows, ...(failed.length > 0 ? ['', 'ACP benches that did not run:', '', ...failed] : [])];
}
