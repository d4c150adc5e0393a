/**
@module Every process a command started, also those that left its process group (`setsid`,
`setpgid`, a double fork), and how to stop them all.

A command's shell leads a process group, and its environment carries a marker,
`CARDTERM_CALL_ID=<unique>`, that every descendant inherits whatever group or session it moves to.
On Linux a scan of /proc finds the command's processes: its group, every process whose environment
holds the marker (read only for processes started after the shell), their descendants by parent
chain (which also catches a child that cleared its environment while its parent is still one of
ours), and every process seen as ours before (pid and start time) that still lives. Stopping repeats
scan-and-signal until a scan finds none, so a process forking while it is killed is caught in the
next round. A scan within a few ms of the shell's start (the common end of a quick command) reads
only the pids allocated since the shell's own, which is most of its cost on a busy machine.
Without /proc (macOS, BSD) only the process group is signalled and waited for.

What still escapes: a process that clears its environment (`env -i`) *and* is reparented before a
scan sees it (a double fork through a process that exits at once).
*/
import {randomBytes} from 'node:crypto';
import {closeSync, openSync, readdirSync, readSync} from 'node:fs';

/** The marker variable: a comma-separated chain (a cardterm running inside a command adds its own). */
export const CALL_MARKER_VARIABLE = 'CARDTERM_CALL_ID';

let counter = 0;

/** A marker unique to one command of this process. */
export function newCallMarker(): string {
	counter += 1;
	return `${process.pid}.${counter}.${randomBytes(4).toString('hex')}`;
}

/** `env` with `marker` appended to the marker chain, first (a scan reads only the start of a huge environment). */
export function markedEnvironment(marker: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const {[CALL_MARKER_VARIABLE]: outer, ...rest} = env;
	return {[CALL_MARKER_VARIABLE]: outer === undefined || outer === '' ? marker : `${outer},${marker}`, ...rest};
}

type ProcessEntry = {readonly ppid: number; readonly pgid: number; readonly live: boolean; readonly start: string};

/** Which pids a scan reads: all, or those allocated in a cyclic range `[from, to]` (pid_max wraps). */
export type PidRange = {readonly from: number; readonly to: number} | undefined;

export function pidInRange(pid: number, range: PidRange): boolean {
	if (range === undefined) {
		return true;
	}

	return range.from <= range.to ? pid >= range.from && pid <= range.to : pid >= range.from || pid <= range.to;
}

/** Every process in /proc by pid (only those in `range`); `undefined` without /proc. */
function processTable(range?: PidRange): Map<number, ProcessEntry> | undefined {
	let names: string[];
	try {
		names = readdirSync('/proc');
	} catch {
		return undefined;
	}

	const table = new Map<number, ProcessEntry>();
	for (const name of names) {
		if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) {
			continue;
		}

		const pid = Number(name);
		const entry = pidInRange(pid, range) ? readEntry(pid) : undefined;
		if (entry !== undefined) {
			table.set(pid, entry);
		}
	}

	return table;
}

/** One buffer for every /proc read: a scan reads hundreds of small files (readFileSync is several times slower here). */
const buffer = Buffer.alloc(64 * 1024);

/** The first 64 KiB of a /proc file (a stat line is far shorter; the marker comes first in an environment). */
function readProcFile(path: string, encoding: BufferEncoding): string {
	const fd = openSync(path, 'r');
	try {
		return buffer.toString(encoding, 0, readSync(fd, buffer, 0, buffer.length, 0));
	} finally {
		closeSync(fd);
	}
}

function readEntry(pid: number): ProcessEntry | undefined {
	try {
		const stat = readProcFile(`/proc/${pid}/stat`, 'latin1');
		// Fields after the parenthesised command name: state (3), ppid (4), pgrp (5), … starttime (22).
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return {ppid: Number(fields[1]), pgid: Number(fields[2]), live: fields[0] !== 'Z' && fields[0] !== 'X', start: fields[19] ?? ''};
	} catch {
		// Ended while we looked.
		return undefined;
	}
}

/** Start times compare as numbers (clock ticks since boot). */
function startedAtOrAfter(start: string, since: string): boolean {
	return since === '' || Number(start) >= Number(since);
}

function hasMarker(pid: number, marker: string): boolean {
	let environ: string;
	try {
		environ = readProcFile(`/proc/${pid}/environ`, 'latin1');
	} catch {
		// Another user's process, or gone.
		return false;
	}

	const prefix = `${CALL_MARKER_VARIABLE}=`;
	for (const variable of environ.split('\0')) {
		if (variable.startsWith(prefix)) {
			return variable.slice(prefix.length).split(',').includes(marker);
		}
	}

	return false;
}

/** The pid the kernel allocated last in this pid namespace; `undefined` where it cannot be read. */
function lastAllocatedPid(): number | undefined {
	try {
		const last = Number.parseInt(readProcFile('/proc/sys/kernel/ns_last_pid', 'latin1'), 10);
		return Number.isSafeInteger(last) ? last : undefined;
	} catch {
		return undefined;
	}
}

/**
How long after the shell started a scan may read only the pids allocated since (from the shell's pid
to the kernel's last one): pids are handed out in order, wrapping at pid_max (≥ 32 768, and ≥ 1 024
per CPU), so within this window no fork rate can wrap past the shell's pid and hide a process of
ours below it. Later scans read every pid.
*/
const RECENT_SCAN_MS = 25;

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

async function sleep(ms: number): Promise<void> {
	await new Promise(resolve => {
		setTimeout(resolve, ms);
	});
}

/** Upper bound of SIGKILL rounds (a fork bomb cannot keep a stop going forever). */
const MAX_KILL_ROUNDS = 500;
const POLL_MS = 10;

/** The processes of one command, led by the shell `leader` and marked with `marker`. */
export class CommandProcesses {
	readonly leader: number;
	readonly marker: string;
	/** Pids seen as ours, with their start time (a reused pid has another). */
	readonly #known = new Map<number, string>();
	readonly #leaderStart: string;
	readonly #spawnedAt = performance.now();
	readonly #recentScanMs: number;
	#stopping: Promise<void> | undefined;

	/** `recentScanMs`: the window of scans reading only recent pids (tests widen it). */
	constructor(leader: number, marker: string, recentScanMs = RECENT_SCAN_MS) {
		this.leader = leader;
		this.marker = marker;
		this.#recentScanMs = recentScanMs;
		this.#leaderStart = readEntry(leader)?.start ?? '';
	}

	/** The live processes of the command now (the group leader alone, as a stand-in, without /proc). */
	find(): number[] {
		const table = processTable(this.#recentPids());
		if (table === undefined) {
			return groupExists(this.leader) ? [this.leader] : [];
		}

		const ours = new Set<number>();
		for (const [pid, entry] of table) {
			if (!entry.live || pid === process.pid) {
				continue;
			}

			if (entry.pgid === this.leader || this.#known.get(pid) === entry.start || (startedAtOrAfter(entry.start, this.#leaderStart) && hasMarker(pid, this.marker))) {
				ours.add(pid);
			}
		}

		// Descendants of ours by parent chain, until nothing is added.
		for (let added = true; added;) {
			added = false;
			for (const [pid, entry] of table) {
				if (entry.live && !ours.has(pid) && ours.has(entry.ppid) && pid !== process.pid) {
					ours.add(pid);
					added = true;
				}
			}
		}

		for (const pid of ours) {
			this.#known.set(pid, table.get(pid)!.start);
		}

		return [...ours];
	}

	/** The pids allocated since the shell, while that range is sure to hold all of ours; else all. */
	#recentPids(): PidRange {
		if (performance.now() - this.#spawnedAt > this.#recentScanMs) {
			return undefined;
		}

		const last = lastAllocatedPid();
		return last === undefined ? undefined : {from: this.leader, to: last};
	}

	/** Signals the group and every process `find` returns; returns how many were found. */
	signal(signal: NodeJS.Signals): number {
		const found = this.find();
		signalPid(-this.leader, signal);
		for (const pid of found) {
			signalPid(pid, signal);
		}

		return found.length;
	}

	/**
	Stops every process of the command: SIGTERM, up to `graceMs` for them to go, then SIGKILL rounds
	until a scan finds none. Resolves once none is left. Idempotent (later calls join the first).
	*/
	async stop(graceMs: number): Promise<void> {
		this.#stopping ??= this.#stop(graceMs);
		return this.#stopping;
	}

	/** SIGKILL rounds until none is left, synchronously (for a process `exit` handler). */
	killSync(): void {
		for (let round = 0; round < MAX_KILL_ROUNDS && this.signal('SIGKILL') > 0; round++) {
			sleepSync(2);
		}
	}

	async #stop(graceMs: number): Promise<void> {
		const deadline = Date.now() + graceMs;
		if (this.signal('SIGTERM') === 0) {
			// Nothing was left: the common end of a command that finished cleanly, at the cost of one scan.
			return;
		}

		while (Date.now() < deadline && this.find().length > 0) {
			// eslint-disable-next-line no-await-in-loop -- polling until the processes are gone
			await sleep(POLL_MS);
		}

		for (let round = 0; round < MAX_KILL_ROUNDS && this.signal('SIGKILL') > 0; round++) {
			// eslint-disable-next-line no-await-in-loop -- polling until the processes are gone
			await sleep(POLL_MS);
		}
	}
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(pid, signal);
	} catch {
		// ESRCH: already gone.
	}
}

function groupExists(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
