// CPU an idle pager and an idle watcher use: `bin/cardterm replay LOG` and `bin/cardterm watch LOG`
// each run in their own tmux pane (a real terminal), left alone for a settling period, then their
// utime+stime (/proc/PID/stat) is read at the start and end of a measured window.
//   npm run build && node bench/idle-cpu.mjs [--seconds 30] [--settle 15] [--events 2000] [--running]
// Prints one JSON object per command on stdout: {name, cpuMs, seconds, percentOfCore}.
// The log is generated (bench/generate-log.mjs, seed 1): every card in it is settled, so an idle
// view has nothing to redraw. --running appends a call without a result: one running card, whose
// elapsed time ticks once a second. The settling period covers reading the log on a loaded
// machine. Needs tmux and Linux (/proc).
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, openSync, closeSync, readFileSync, readdirSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {writeLog} from './generate-log.mjs';

const {values} = parseArgs({options: {seconds: {type: 'string', default: '30'}, settle: {type: 'string', default: '15'}, events: {type: 'string', default: '2000'}, running: {type: 'boolean', default: false}}});
const seconds = Number(values.seconds);
const settle = Number(values.settle);
const repo = fileURLToPath(new URL('../', import.meta.url));
const socket = `cardterm-idle-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});
const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim());

/** utime + stime of `pid`, in ms. */
function cpuMs(pid) {
	// Fields after the command name (which may hold spaces) start at index 2 of the split remainder.
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 1000 / ticksPerSecond;
}

/** The node process running under the pane's shell. */
function nodeUnder(panePid) {
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) {
			continue;
		}

		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (parent === panePid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('cardterm')) {
				return Number(name);
			}
		} catch {
			// Gone meanwhile.
		}
	}

	return undefined;
}

const dir = mkdtempSync(join(tmpdir(), 'cardterm-idle-'));
const log = join(dir, 'session.jsonl');
const fd = openSync(log, 'w');
writeLog(fd, {events: Number(values.events), seed: 1});
if (values.running) {
	// seq: the generator writes seqs 0..events-1 after the header.
	const call = {type: 'tool/call', seq: Number(values.events), time: Date.now(), data: {turn: 1, step: 1, callId: 'call_running', name: 'bash', arguments: JSON.stringify({command: 'sleep 600', description: 'Still running'})}};
	writeSync(fd, `${JSON.stringify(call)}\n`);
}

closeSync(fd);

try {
	const suffix = values.running ? ', one running card' : '';
	for (const [name, command] of [[`idle pager (replay${suffix})`, 'replay'], [`idle watcher (watch${suffix})`, 'watch']]) {
		tmux('new-session', '-d', '-s', 'idle', '-x', '120', '-y', '40', `exec node ${join(repo, 'bin/cardterm')} ${command} ${log}`);
		const panePid = Number(tmux('display-message', '-p', '-t', 'idle', '#{pane_pid}').trim());
		// `exec`: the pane's process is node itself.
		const pid = nodeUnder(panePid) ?? panePid;
		await sleep(settle * 1000);
		const before = cpuMs(pid);
		await sleep(seconds * 1000);
		const after = cpuMs(pid);
		const used = after - before;
		process.stdout.write(`${JSON.stringify({name, cpuMs: used, seconds, percentOfCore: Math.round(used / (seconds * 10) * 100) / 100})}\n`);
		tmux('kill-session', '-t', 'idle');
	}
} finally {
	// The last kill-session usually ended the server already.
	spawnSync('tmux', ['-L', socket, 'kill-server'], {stdio: 'ignore'});

	rmSync(dir, {recursive: true, force: true});
}
