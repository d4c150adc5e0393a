// A 1 000-update ACP turn (issue 34, "ACP"): Gemini CLI as an ACP agent under cardterm
// (`cardterm acp -- gemini --acp`) against Gemini CLI in its own TUI, both in a 120×40 tmux window against
// the peer bench's fake model server, which answers one prompt with a text streamed in N chunks (Gemini
// CLI sends one `agent_message_chunk` update per chunk).
//   npm run build && node bench/peers/acp-turn.mjs [--chunks 1000] [--runs 5] [--cache DIR]
// Each run launches a fresh window, waits for the prompt, types the prompt and times Enter → the answer's
// last word (the done marker) among the bytes written to the pane; runs alternate between the two, after one
// warm-up of each (not counted). After each pair, the floor: the same turn of `gemini --acp` driven by a
// client that only reads its frames (acp-bare-client.mjs), prompt → result. Before the runs one `cardterm acp -p` with CARDTERM_ACP_TRACE counts the
// updates the agent sent, so the turn is known to be N updates. Prints one JSON line per run, the load
// (`uptime`) before and after, and the ratio of the medians.
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {summarize} from '../lib/stats.mjs';
import {timeBareTurn} from './acp-bare-client.mjs';
import cardterm from './drivers/cardterm.mjs';
import gemini from './drivers/gemini.mjs';
import {defaultCache} from './install-peer.mjs';
import {cpuMs, processTree} from './process-tree.mjs';
import {startModelServer} from './model-server-process.mjs';
import {doneMarker, streamPrompt} from './script-step.mjs';
import {TmuxServer} from './tmux-pane.mjs';

const {values} = parseArgs({options: {
	chunks: {type: 'string', default: '1000'},
	runs: {type: 'string', default: '5'},
	cache: {type: 'string', default: defaultCache()},
}});
const chunks = Number(values.chunks);
const runs = Number(values.runs);
const note = text => process.stderr.write(`acp-turn: ${text}\n`);
const uptime = () => execFileSync('uptime', {encoding: 'utf8'}).trim();
const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});

const loadBefore = uptime();
const load1Before = loadavg()[0];
const folder = mkdtempSync(join(tmpdir(), 'cardterm-acp-turn-'));
const home = join(folder, 'home');
const work = join(folder, 'work');
mkdirSync(home);
mkdirSync(work);
const server = await startModelServer({logFile: join(folder, 'server.log')});
const tmux = new TmuxServer(folder);
const model = gemini.model;
const environment = {
	PATH: process.env.PATH ?? '/usr/bin:/bin',
	HOME: home,
	TERM: 'xterm-256color',
	LANG: 'C.UTF-8',
	...gemini.configure({home, baseUrl: server.baseUrl, workFolders: [work]}),
};
const {command: geminiCommand, version: geminiVersion} = gemini.install({cache: values.cache});
const cardtermInstall = cardterm.install();
// The agent under cardterm: Gemini CLI's ACP mode with the same model; cardterm answers permissions (none are asked).
const agentArgs = [...geminiCommand, '--acp', '-m', model];
const contenders = [
	{name: 'cardterm acp -- gemini --acp', argv: [...cardtermInstall.command, 'acp', '--yolo', '--session-dir', join(folder, 'sessions'), '--', ...agentArgs], ready: cardterm.ready, quitKeys: cardterm.quitKeys},
	{name: 'gemini (its own TUI)', argv: [...geminiCommand, ...gemini.launchArgs({model})], ready: gemini.ready, quitKeys: gemini.quitKeys},
];

/** The updates of one `cardterm acp -p` turn, counted from the ACP trace: {updates, messageChunks}. */
function countUpdates() {
	const trace = join(folder, 'trace.jsonl');
	execFileSync(cardtermInstall.command[0], [...cardtermInstall.command.slice(1), 'acp', '--yolo', '--session-dir', join(folder, 'sessions'), '-p', streamPrompt(chunks), '--', ...agentArgs], {cwd: work, env: {...environment, CARDTERM_ACP_TRACE: trace}, stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000});
	// Each trace line is {dir, ms, line}, `line` the frame's JSON text.
	const updates = readFileSync(trace, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line)).filter(entry => entry.dir === 'in').map(entry => JSON.parse(entry.line)).filter(frame => frame.method === 'session/update');
	return {updates: updates.length, messageChunks: updates.filter(frame => frame.params.update.sessionUpdate === 'agent_message_chunk').length};
}

/** CPU ms used so far by each process under the pane's shell, keyed by pid, with whether it is cardterm's own. */
function cpuOfTree(shell) {
	const command = pid => {
		try {
			return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
		} catch {
			return '';
		}
	};

	return new Map(processTree(shell).filter(pid => pid !== shell).map(pid => [pid, {ms: cpuMs(pid), cardterm: command(pid).includes('bin/cardterm')}]));
}

/** CPU ms spent between two readings of `cpuOfTree`: {total, cardterm} (a process that exited in between is not counted). */
function cpuSpent(before, after) {
	let total = 0;
	let cardtermOwn = 0;
	for (const [pid, {ms, cardterm: own}] of after) {
		const spent = ms - (before.get(pid)?.ms ?? 0);
		total += spent;
		cardtermOwn += own ? spent : 0;
	}

	return {total, cardterm: cardtermOwn};
}

/** Launches `contender` in a fresh window, times Enter → the done marker printed; quits it. */
async function runOnce(contender, index) {
	const pane = tmux.open(`run-${index}`, contender.argv, {environment, cwd: work});
	pane.go();
	try {
		await pane.waitFor(`${contender.name}'s prompt`, () => contender.ready.test(pane.screen()), {timeoutMs: 120_000, everyMs: 50});
		await pane.typePrompt(streamPrompt(chunks));
		const from = pane.byteCount();
		const shell = pane.shellPid();
		const cpuBefore = cpuOfTree(shell);
		const enterAt = performance.now();
		pane.keys('Enter');
		const doneAt = await pane.waitForPrinted(doneMarker(chunks), from, {timeoutMs: 300_000});
		const cpu = cpuSpent(cpuBefore, cpuOfTree(shell));
		await pane.settle(300, 5000);
		const requests = server.requests(performance.timeOrigin + enterAt, performance.timeOrigin + doneAt).filter(entry => entry.kind === 'answer');
		const streamed = requests.at(-1);
		return {
			contender: contender.name,
			turnMs: doneAt - enterAt,
			// The server's share: from Enter to the streamed answer's last byte sent.
			serverDoneMs: streamed === undefined ? null : streamed.end - (performance.timeOrigin + enterAt),
			bytesWritten: pane.byteCount() - from,
			// Frames drawn in the turn, where the program marks them (synchronized output, as Ink does).
			frames: pane.bytesFrom(from).split('\u001B[?2026h').length - 1,
			// CPU of every process of the window in the turn (10 ms ticks), and of it cardterm's own process.
			cpuMs: cpu.total,
			cardtermCpuMs: cpu.cardterm,
		};
	} finally {
		for (const sequence of contender.quitKeys) {
			for (const key of sequence) {
				pane.keys(key);
				// keys as typed
				await sleep(200);
			}

			try {
				await pane.waitFor('the exit', () => pane.dead(), {timeoutMs: 5000, everyMs: 100});
				break;
			} catch {
				// Next sequence.
			}
		}

		pane.close();
	}
}

const results = [];
try {
	const counted = countUpdates();
	note(`one turn: ${counted.updates} session/update frames, ${counted.messageChunks} agent_message_chunk (${chunks} chunks asked)`);
	let index = 0;
	for (const contender of contenders) {
		note(`${contender.name}: warm-up`);
		await runOnce(contender, index++);
	}

	const bare = 'gemini --acp alone (a client that only reads its frames)';
	for (let round = 0; round < runs; round++) {
		// Alternate which goes first, so a change in load falls on both alike.
		const order = round % 2 === 0 ? contenders : [...contenders].reverse();
		for (const contender of order) {
			const result = await runOnce(contender, index++);
			results.push(result);
			process.stdout.write(`${JSON.stringify(result)}\n`);
		}

		const alone = {contender: bare, ...await timeBareTurn({argv: agentArgs, cwd: work, env: environment, prompt: streamPrompt(chunks)})};
		results.push(alone);
		process.stdout.write(`${JSON.stringify(alone)}\n`);
	}

	const median = name => summarize(results.filter(result => result.contender === name).map(result => result.turnMs)).median;
	const [ours, theirs] = contenders.map(contender => median(contender.name));
	const floor = median(bare);
	const medianOf = (name, key) => summarize(results.filter(result => result.contender === name).map(result => result[key])).median;
	const cpu = {cardtermAcpTreeMs: medianOf(contenders[0].name, 'cpuMs'), cardtermOwnMs: medianOf(contenders[0].name, 'cardtermCpuMs'), geminiTuiTreeMs: medianOf(contenders[1].name, 'cpuMs')};
	process.stdout.write(`${JSON.stringify({figure: `${chunks}-update ACP turn, Enter → last word on screen (median of ${runs})`, cardtermAcpMs: ours, geminiTuiMs: theirs, ratio: Number((ours / theirs).toFixed(2)), agentAloneMs: floor, cpu, updates: counted.updates, gemini: geminiVersion, cardterm: cardtermInstall.version, load1: [Number(load1Before.toFixed(1)), Number(loadavg()[0].toFixed(1))]})}\n`);
	process.stdout.write(`cardterm acp ÷ gemini TUI: ${(ours / theirs).toFixed(2)} (${Math.round(ours)} ms ÷ ${Math.round(theirs)} ms, ${counted.updates} updates); the agent alone ${Math.round(floor)} ms (cardterm acp ${(ours / floor).toFixed(2)}×, gemini TUI ${(theirs / floor).toFixed(2)}× of it); CPU in the turn (median): cardterm acp ${cpu.cardtermAcpTreeMs} ms (cardterm's own ${cpu.cardtermOwnMs}), gemini TUI ${cpu.geminiTuiTreeMs} ms\n`);
} finally {
	tmux.close();
	server.stop();
	process.stdout.write(`load before: ${loadBefore}\nload after:  ${uptime()}\n`);
	rmSync(folder, {recursive: true, force: true});
}
