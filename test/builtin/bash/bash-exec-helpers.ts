/** Helpers for tests that run real commands through the registry. */
import {readFileSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {bashTool, type BashToolOptions} from '../../../src/builtin/bash.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {Agent, ToolExecutionResult, ToolProgress} from '../../../src/tools/types.js';

export async function makeWorkspace(): Promise<{path: string; cleanup: () => Promise<void>}> {
	const path = await mkdtemp(join(tmpdir(), 'cardterm-bash-'));
	return {path, cleanup: async () => rm(path, {recursive: true, force: true})};
}

/** A registry holding a bash tool (and whatever else the test registers). */
export function bashRegistry(options: BashToolOptions): ToolRegistry {
	const registry = new ToolRegistry();
	registry.register(bashTool({killGraceMs: 500, drainGraceMs: 100, ...options}));
	return registry;
}

let callCounter = 0;

export type CallOptions = {
	readonly signal?: AbortSignal;
	readonly onProgress?: (update: ToolProgress) => void;
	readonly agent?: Agent;
};

export async function call(registry: ToolRegistry, name: string, args: unknown, options: CallOptions = {}): Promise<ToolExecutionResult> {
	callCounter++;
	return registry.execute({
		callId: `call-${callCounter}`,
		name,
		arguments: args,
		signal: options.signal ?? new AbortController().signal,
		...(options.onProgress === undefined ? {} : {onProgress: options.onProgress}),
		...(options.agent === undefined ? {} : {agent: options.agent}),
	});
}

export function textOf(result: ToolExecutionResult): string {
	const [block] = result.content;
	if (block?.type !== 'text') {
		throw new Error(`expected one text block, got ${JSON.stringify(result.content)}`);
	}

	return block.text;
}

/** Whether a pid is a live process (a zombie awaiting its reaper counts as gone). */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}

	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
		return state !== 'Z' && state !== 'X';
	} catch {
		return false;
	}
}

/** Resolves once the collected stdout progress holds `count` pid lines. */
export function pidCollector(count: number): {onProgress: (update: ToolProgress) => void; pids: Promise<number[]>} {
	let stdout = '';
	let resolve!: (pids: number[]) => void;
	const pids = new Promise<number[]>((done) => {
		resolve = done;
	});
	return {
		onProgress(update) {
			if (update.stream !== 'stdout') {
				return;
			}

			stdout += update.text;
			const found = stdout.split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
			if (found.length >= count) {
				resolve(found);
			}
		},
		pids,
	};
}

/** A command that starts a tree (a sleep, and a shell with its own sleep) and prints their three pids. */
export const sleepTreeCommand = `sleep 30 & echo $!; sh -c 'sleep 30 & echo $!; wait' & echo $!; wait`;
