// The memory of a program and everything it started: PSS summed over its process tree, so shared pages
// are split between the processes that share them instead of counted once per process (as RSS is).
import {readdirSync, readFileSync} from 'node:fs';

/** Parent pid of every process, from /proc/<pid>/stat (the field after the parenthesised name). */
function parents() {
	const map = new Map();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) {
			continue;
		}

		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			map.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
		} catch {
			// The process ended while we looked.
		}
	}

	return map;
}

/** The processes whose parent is `pid`. */
export function childrenOf(pid) {
	return [...parents()].filter(([, parent]) => parent === pid).map(([child]) => child);
}

/** `root` and every process whose parent chain leads to it. */
export function processTree(root) {
	const parentOf = parents();
	const children = new Map();
	for (const [pid, parent] of parentOf) {
		if (!children.has(parent)) {
			children.set(parent, []);
		}

		children.get(parent).push(pid);
	}

	const tree = [];
	const queue = parentOf.has(root) ? [root] : [];
	while (queue.length > 0) {
		const pid = queue.pop();
		tree.push(pid);
		for (const child of children.get(pid) ?? []) {
			queue.push(child);
		}
	}

	return tree;
}

/** The `Pss:` line of `/proc/<pid>/smaps_rollup`, in kB (0 when the process is gone). */
export function pssKb(pid) {
	try {
		const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
		return match === null ? 0 : Number(match[1]);
	} catch {
		return 0;
	}
}

/** Sum of PSS over the tree of `root`, in kB; with `withoutRoot`, over its descendants only. */
export const treePssKb = (root, {withoutRoot = false} = {}) => processTree(root).filter(pid => !withoutRoot || pid !== root).reduce((sum, pid) => sum + pssKb(pid), 0);

/**
Samples the PSS of everything a pane's shell runs (its descendants, not the shell) every `everyMs`
until stopped; `stop()` returns the peak in kB. Summing the shell's whole subtree, rather than one
program's, still counts a process the program started and left behind under the shell.
*/
export function samplePeakPss(shellPid, everyMs = 250) {
	let peak = 0;
	const sample = () => {
		peak = Math.max(peak, treePssKb(shellPid, {withoutRoot: true}));
	};

	sample();
	const timer = setInterval(sample, everyMs);
	return {
		peekKb: () => peak,
		// No last sample: after the program quits, the pane's shell may already run the floor's bash.
		stop() {
			clearInterval(timer);
			return peak;
		},
	};
}

/** CPU time (user + system, ms; the kernel counts in 10 ms ticks) `pid` has used; 0 when it is gone. */
export function cpuMs(pid) {
	try {
		// Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return 0;
	}
}
