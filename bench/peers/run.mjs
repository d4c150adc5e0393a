// The peer benchmark of issues 16 and 34 (`npm run bench:peers`): Claude Code, pi, Codex, opencode and
// Gemini CLI beside cardterm, on the same scripted session against a local fake model server, in a 120×40 tmux window.
//   node bench/peers/run.mjs [--sizes 20,200,2000] [--peers claude-code,pi,codex,opencode,gemini-cli,cardterm]
//                            [--markdown bench/peers/RESULTS.md] [--cache DIR] [--refresh] [--keep] [--acp-runs 5]
// Prints one JSON line per peer and size, then the table; writes the table as Markdown with the date,
// the machine and the versions. A peer that fails to install or start is reported and skipped.
// Then the ACP figures (issue 34, "ACP"): a chunk from the agent to the screen (bench/acp-chunk-latency.mjs)
// and a 1 000-update turn of Gemini CLI under `cardterm acp` against its own TUI (acp-turn.mjs);
// `--acp-runs 0` leaves them out.
// CARDTERM_PEERS_BUILD=/path/to/checkout measures that checkout's build for cardterm's row.
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {cpus, loadavg, totalmem} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {acpFigures} from './acp-figures.mjs';
import cardterm, {cardtermRoot} from './drivers/cardterm.mjs';
import claudeCode from './drivers/claude-code.mjs';
import codex from './drivers/codex.mjs';
import gemini from './drivers/gemini.mjs';
import opencode from './drivers/opencode.mjs';
import pi from './drivers/pi.mjs';
import {defaultCache} from './install-peer.mjs';
import {startModelServer} from './model-server-process.mjs';
import {resultsTable} from './results-table.mjs';
import {runSession} from './run-session.mjs';
import {columns, rows, TmuxServer} from './tmux-pane.mjs';

const drivers = [claudeCode, pi, codex, opencode, gemini, cardterm];
const {values} = parseArgs({options: {
	sizes: {type: 'string', default: '20,200,2000'},
	peers: {type: 'string', default: drivers.map(driver => driver.name).join(',')},
	markdown: {type: 'string', default: join(import.meta.dirname, 'RESULTS.md')},
	cache: {type: 'string', default: defaultCache()},
	refresh: {type: 'boolean', default: false},
	keep: {type: 'boolean', default: false},
	'max-session-s': {type: 'string'},
	'acp-runs': {type: 'string', default: '5'},
}});
const sizes = values.sizes.split(',').map(Number);
const wanted = new Set(values.peers.split(','));
const chosen = drivers.filter(driver => wanted.has(driver.name));
const note = text => process.stderr.write(`bench:peers: ${text}\n`);
// A session gets a minute plus 10 s a call (opencode took 4 s a call on a loaded 2-core machine), unless told otherwise.
const maxSessionMs = calls => (values['max-session-s'] === undefined ? 60_000 + calls * 10_000 : Number(values['max-session-s']) * 1000);

const startedAt = new Date();
const loadBefore = loadavg();
const runFolder = join(values.cache, 'runs', startedAt.toISOString().replaceAll(':', '-'));
mkdirSync(runFolder, {recursive: true});
mkdirSync(join(runFolder, 'side-requests'));
const server = await startModelServer({logFile: join(runFolder, 'server.log'), dumpFolder: join(runFolder, 'side-requests')});
const tmux = new TmuxServer(runFolder);
const results = [];
const unavailable = new Map();
const versions = new Map();

const cleanUp = () => {
	tmux.close();
	server.stop();
};

process.on('SIGINT', () => {
	cleanUp();
	process.exit(130);
});

// Every peer is installed and launched once first; then the sizes run one after another with every peer
// at each size in turn, so a change in the machine's load falls on all columns of a size alike.
const ready = [];
try {
	for (const driver of chosen) {
		let installed;
		try {
			note(`installing ${driver.name}`);
			installed = driver.install({cache: values.cache, refresh: values.refresh});
		} catch (error) {
			unavailable.set(driver.name, error.message);
			note(`${driver.name} skipped: ${error.message}`);
			continue;
		}

		versions.set(driver.name, installed.version);
		const peer = {...driver, command: installed.command};
		const folder = join(runFolder, driver.name);
		const home = join(folder, 'home');
		const workFolders = ['warmup', ...sizes.map(calls => `work-${calls}`)].map(name => join(folder, name));
		for (const work of workFolders) {
			mkdirSync(work, {recursive: true});
		}

		mkdirSync(home, {recursive: true});
		const model = driver.model ?? 'fake-model';
		const environment = {
			PATH: process.env.PATH ?? '/usr/bin:/bin',
			HOME: home,
			TERM: 'xterm-256color',
			LANG: 'C.UTF-8',
			...driver.configure({home, baseUrl: server.baseUrl, model, workFolders}),
		};
		const setup = {tmux, server, environment, model, baseUrl: server.baseUrl, maxSessionMs};

		// A first launch, not measured: first-run work (a database migration, a provider package) is not launch → prompt.
		try {
			note(`${driver.name}: warm-up launch`);
			await runWarmup(peer, {...setup, cwd: workFolders[0]});
		} catch (error) {
			unavailable.set(driver.name, `did not start: ${error.message.split('\n')[0]}`);
			note(`${driver.name} skipped: ${error.message}`);
			continue;
		}

		ready.push({peer, setup, workFolders});
	}

	for (const [index, calls] of sizes.entries()) {
		for (const {peer, setup, workFolders} of ready) {
			note(`${peer.name}: ${calls} calls`);
			try {
				const result = await runSession(peer, calls, {...setup, cwd: workFolders[index + 1]});
				results.push(result);
				process.stdout.write(`${JSON.stringify(result)}\n`);
			} catch (error) {
				results.push({peer: peer.name, calls, notes: [`failed: ${error.message.split('\n')[0]}`]});
				note(`${peer.name} ${calls}: ${error.message}`);
			}
		}
	}
} finally {
	cleanUp();
}

/** Launches `peer`, waits for its prompt and quits it. */
async function runWarmup(peer, setup) {
	const pane = setup.tmux.open(`${peer.name}-warmup`, [...peer.command, ...peer.launchArgs(setup)], {environment: setup.environment, cwd: setup.cwd, then: 'true'});
	pane.go();
	try {
		await pane.waitFor(`${peer.name}'s prompt`, () => peer.ready.test(pane.screen()), {timeoutMs: 300_000, everyMs: 100});
		for (const sequence of peer.quitKeys) {
			for (const key of sequence) {
				pane.keys(key);
				// keys as typed
				await new Promise(resolve => {
					setTimeout(resolve, 300);
				});
			}

			try {
				// waiting for the exit
				await pane.waitFor('the exit', () => pane.dead(), {timeoutMs: 5000, everyMs: 100});
				break;
			} catch {
				// Next sequence.
			}
		}
	} finally {
		pane.close();
	}
}

if (!wanted.has('cardterm')) {
	unavailable.set('cardterm', 'not selected (--peers)');
}

const peerNames = chosen.filter(driver => driver.name !== 'cardterm').map(driver => driver.name);
const table = resultsTable({results, peers: peerNames, sizes, unavailable});
process.stdout.write(`\n${table.join('\n')}\n`);

const acp = Number(values['acp-runs']) > 0 ? acpFigures({root: cardtermRoot(), cache: values.cache, runs: Number(values['acp-runs']), note}) : [];
if (acp.length > 0) {
	process.stdout.write(`\n${acp.join('\n')}\n`);
}

const tmuxVersion = execFileSync('tmux', ['-V'], {encoding: 'utf8'}).trim();
const notes = results.flatMap(result => result.notes.map(text => `- ${result.peer}, ${result.calls} calls: ${text}`));
const title = '# cardterm beside its peers';
const markdown = [
	`## Run of ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${chosen.map(driver => driver.name).join(', ')}`,
	'',
	`Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:peers -- --sizes ${values.sizes}\` (bench/peers/, issues 16 and 34).`,
	'',
	`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${tmuxVersion}, ${columns}×${rows}.`,
	`Load average (1 min, \`uptime\`) ${loadBefore[0].toFixed(1)} before, ${loadavg()[0].toFixed(1)} after: other work shared the machine, so compare columns within this run only. The run took ${Math.round((Date.now() - startedAt.getTime()) / 60_000)} min.`,
	'',
	`Versions: ${chosen.map(driver => `${driver.name} ${versions.get(driver.name) ?? '(not run)'}`).join(', ')}.`,
	'',
	...table,
	'',
	'How each figure is taken: wall time from Enter to the final answer on the terminal, ÷ calls; overhead subtracts the',
	'time the fake server spent on requests (union of arrival → response end); bytes are what the program wrote to the',
	'pane (tmux pipe-pane); clear-screens count `\\e[2J`, `\\e[3J` and `\\ec`; PSS is summed over the process tree every',
	'250 ms, peak kept; echo is typing `z` until a printed `z` comes back (escapes stripped), median of 10, with the same',
	'method against plain bash in the same pane as the floor; launch → prompt is from the start to the prompt on screen',
	'after a warm-up launch; resume starts the saved session and waits for its last answer; "history shown" counts the',
	'distinct `line-i` the pane shows (screen and scrollback) after the resume. Tokens are estimated from the request',
	'bodies the fake server received in the session (bytes ÷ 4, one estimator for every agent; side requests count):',
	'the fixed part is the first step\'s system prompt + tool schemas; cache reads follow the client\'s `cache_control`',
	'marks on Anthropic\'s wire (OpenAI\'s automatic prefix cache is undeclared, so none is counted there).',
	'',
	...(acp.length > 0 ? ['ACP (`node bench/acp-chunk-latency.mjs`, `node bench/peers/acp-turn.mjs`):', '', ...acp, ''] : []),
	...(unavailable.size > 0 ? ['Not measured:', '', ...[...unavailable].map(([name, reason]) => `- ${name}: ${reason}`), ''] : []),
	...(notes.length > 0 ? ['Notes:', '', ...notes, ''] : []),
];
// The newest run goes on top; earlier runs (and what was written about them) stay below it.
const earlier = existsSync(values.markdown) ? readFileSync(values.markdown, 'utf8').replace(title, '').replace(/^\n+/, '') : '';
writeFileSync(values.markdown, `${title}\n\n${markdown.join('\n')}\n${earlier === '' ? '' : `\n${earlier}`}`);
note(`wrote ${values.markdown}`);
if (!values.keep) {
	rmSync(runFolder, {recursive: true, force: true});
}
