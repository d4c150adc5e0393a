import {mkdir, readdir, readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {killLiveCommands, startShell} from '../../../src/builtin/bash/shell-process.js';
import type {ToolProgress} from '../../../src/tools/types.js';
import {bashRegistry, call, isAlive, makeWorkspace, pidCollector, sleepTreeCommand, textOf} from './bash-exec-helpers.js';

let workspace: {path: string; cleanup: () => Promise<void>};

beforeAll(async () => {
	workspace = await makeWorkspace();
	await mkdir(join(workspace.path, 'sub'));
	await writeFile(join(workspace.path, 'file.txt'), 'x');
});

afterAll(async () => {
	await workspace.cleanup();
});

describe('bash foreground execution', () => {
	it('returns the canonical value and text of a clean exit', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: 'echo ok', description: 'Say ok'});
		expect(result).toEqual({
			isError: false,
			value: {
				kind: 'foreground',
				exitCode: 0,
				signal: null,
				timedOut: false,
				aborted: false,
				timeoutMs: 120_000,
				stdout: {text: 'ok\n', truncated: false},
				stderr: {text: '', truncated: false},
			},
			content: [{type: 'text', text: 'ok\n'}],
		});
	});

	it('reports a non-zero exit as a success with the exit marker', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: 'echo FAIL; exit 1', description: 'Fail'});
		expect([result.isError, textOf(result)]).toEqual([false, 'FAIL\n[exit code: 1]']);
	});

	it('puts stderr after stdout in its own section, whatever the arrival order', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: 'echo warn >&2; sleep 0.05; echo ok; exit 3', description: 'Mixed'});
		expect(textOf(result)).toBe('ok\n[stderr]\nwarn\n[exit code: 3]');
	});

	it('says (no output) for a silent command', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		expect(textOf(await call(registry, 'bash', {command: 'true', description: 'Nothing'}))).toBe('(no output)');
		expect(textOf(await call(registry, 'bash', {command: 'false', description: 'Nothing'}))).toBe('(no output)\n[exit code: 1]');
	});

	it('reports a command killed by a signal', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: 'echo before; kill -9 $$', description: 'Die'});
		expect(result).toMatchObject({isError: false, value: {exitCode: null, signal: 'SIGKILL'}});
		expect(textOf(result)).toBe('before\n[killed by signal: SIGKILL]');
	});

	it('runs in the workspace, or in a workdir relative to it', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		expect(textOf(await call(registry, 'bash', {command: 'pwd', description: 'Where'}))).toBe(`${workspace.path}\n`);
		expect(textOf(await call(registry, 'bash', {command: 'pwd', description: 'Where', workdir: 'sub'}))).toBe(`${join(workspace.path, 'sub')}\n`);
		expect(textOf(await call(registry, 'bash', {command: 'pwd', description: 'Where', workdir: join(workspace.path, 'sub')}))).toBe(
			`${join(workspace.path, 'sub')}\n`,
		);
	});
});

describe('bash parameter validation', () => {
	it('rejects a missing description through the schema', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: 'echo hi'});
		expect(result).toEqual({
			isError: true,
			error: {message: 'invalid arguments: missing required property "description"', info: {name: 'ToolArgsError', code: 'INVALID_ARGS'}},
			content: [{type: 'text', text: 'Error: invalid arguments: missing required property "description"'}],
		});
	});

	it('rejects blank strings and out-of-range timeouts, all at once', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: '  ', description: '\n', timeoutMs: 600_001});
		expect(textOf(result)).toBe(
			'Error: invalid arguments: "command" must be a non-blank string; "description" must be a non-blank string; "timeoutMs" must be at most 600000',
		);
		expect(textOf(await call(registry, 'bash', {command: 'x', description: 'y', timeoutMs: -5}))).toBe(
			'Error: invalid arguments: "timeoutMs" must be greater than 0',
		);
	});

	it('rejects a workdir that does not exist or is a file', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		expect(textOf(await call(registry, 'bash', {command: 'pwd', description: 'x', workdir: 'nope'}))).toBe(
			`Error: workdir does not exist: ${join(workspace.path, 'nope')}`,
		);
		expect(textOf(await call(registry, 'bash', {command: 'pwd', description: 'x', workdir: 'file.txt'}))).toBe(
			`Error: workdir is not a directory: ${join(workspace.path, 'file.txt')}`,
		);
	});

	it('refuses run_in_background without a job runtime', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: 'sleep 1', description: 'x', run_in_background: true});
		expect(textOf(result)).toBe('Error: bash: run_in_background is not available in this session (no job runtime)');
	});
});

describe('bash stopping', () => {
	it('kills the whole process tree when the call is aborted, and the registry reports ABORTED with what the command printed', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const controller = new AbortController();
		const collector = pidCollector(3);
		const running = call(registry, 'bash', {command: sleepTreeCommand, description: 'Sleep tree'}, {
			signal: controller.signal,
			onProgress: collector.onProgress,
		});
		const pids = await collector.pids;
		expect(pids.every((pid) => isAlive(pid))).toBe(true);
		controller.abort();
		const result = await running;
		expect(result).toEqual({
			isError: true,
			error: {message: 'tool call aborted', info: {name: 'AbortError', code: 'ABORTED'}},
			content: [{type: 'text', text: 'Error: tool call aborted'}, {type: 'text', text: `${pids.join('\n')}\n[cancelled: stopped before it finished]`}],
		});
		expect(pids.filter((pid) => isAlive(pid))).toEqual([]);
	});

	it('kills the whole process tree on timeout and says so', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const collector = pidCollector(3);
		const result = await call(registry, 'bash', {command: sleepTreeCommand, description: 'Sleep tree', timeoutMs: 1500}, {onProgress: collector.onProgress});
		const pids = await collector.pids;
		expect(textOf(result)).toBe(`${pids.join('\n')}\n[timed out after 1500ms]\n[killed by signal: SIGTERM]`);
		expect(result).toMatchObject({isError: false, value: {timedOut: true, signal: 'SIGTERM', exitCode: null, timeoutMs: 1500}});
		expect(pids.filter((pid) => isAlive(pid))).toEqual([]);
	});

	it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
		const registry = bashRegistry({workspace: workspace.path, killGraceMs: 200});
		const result = await call(registry, 'bash', {command: "trap '' TERM; echo armed; while :; do sleep 0.05; done", description: 'Stubborn', timeoutMs: 1000});
		expect(textOf(result)).toBe('armed\n[timed out after 1000ms]\n[killed by signal: SIGKILL]');
	});
});

describe('bash output bounds', () => {
	it('caps a 10 MB stdout to a 64 000-byte tail with the truncation marker', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const result = await call(registry, 'bash', {command: "head -c 10000000 /dev/zero | tr '\\0' 'x'; echo; echo END", description: 'Flood'});
		const text = textOf(result);
		expect(result).toMatchObject({value: {stdout: {truncated: true}}});
		expect(text.startsWith('[output truncated; full output: (unavailable)]\n')).toBe(true);
		expect(text.endsWith('x\nEND\n')).toBe(true);
		expect(Buffer.byteLength(text)).toBe('[output truncated; full output: (unavailable)]\n'.length + 64_000);
	});

	it('keeps memory bounded while a command floods 200 MB', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const before = process.memoryUsage();
		let peak = 0;
		const result = await call(registry, 'bash', {command: 'yes | head -c 200000000', description: 'Flood'}, {
			onProgress() {
				const now = process.memoryUsage();
				peak = Math.max(peak, now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers);
			},
		});
		expect(Buffer.byteLength(textOf(result))).toBeLessThan(65_000);
		// Holding the output would cost at least 200 MB; the tails, chunks in flight and garbage stay far below.
		expect(peak).toBeLessThan(100_000_000);
	});

	it('spills a truncated stream to a file and names it', async () => {
		const spillDir = join(workspace.path, 'spill');
		const registry = bashRegistry({workspace: workspace.path, spillDir, maxOutputBytes: 1000});
		const result = await call(registry, 'bash', {command: 'seq 1 2000', description: 'Count'});
		const value = (result as unknown as {value: {stdout: {spillPath?: string; text: string}}}).value;
		expect(value.stdout.spillPath?.startsWith(spillDir)).toBe(true);
		const full = await readFile(value.stdout.spillPath!, 'utf8');
		expect(full).toBe(`${Array.from({length: 2000}, (_, i) => i + 1).join('\n')}\n`);
		expect(textOf(result)).toBe(`[output truncated; full output: ${value.stdout.spillPath}]\n${full.slice(-1000)}`);
	});

	it('names no spill file, and leaves none, when the stream outgrows the spill cap', async () => {
		const spillDir = join(workspace.path, 'spill-capped');
		const registry = bashRegistry({workspace: workspace.path, spillDir, maxOutputBytes: 100, spillMaxBytes: 1000});
		const result = await call(registry, 'bash', {command: 'seq 1 2000', description: 'Count'});
		expect(textOf(result).startsWith('[output truncated; full output: (unavailable)]\n')).toBe(true);
		expect(result).toMatchObject({value: {stdout: {truncated: true}}});
		expect('spillPath' in (result as unknown as {value: {stdout: object}}).value.stdout).toBe(false);
		expect(await readdir(spillDir)).toEqual([]);
	});

	it('keeps spill files private and within one budget for the tool: past it, a stream is not kept and leaves nothing', async () => {
		const spillDir = join(workspace.path, 'spill-budget');
		// `seq 1 2000` prints 8 893 bytes: the budget holds one such stream, not two.
		const registry = bashRegistry({workspace: workspace.path, spillDir, maxOutputBytes: 1000, spillTotalBytes: 12_000});
		const spillOf = (result: unknown) => (result as {value: {stdout: {spillPath?: string}}}).value.stdout.spillPath;
		const first = spillOf(await call(registry, 'bash', {command: 'seq 1 2000', description: 'Count'}));
		expect(first?.startsWith(spillDir)).toBe(true);
		expect((await stat(first!)).mode & 0o777).toBe(0o600);
		expect((await stat(spillDir)).mode & 0o777).toBe(0o700);
		const second = await call(registry, 'bash', {command: 'seq 1 2000', description: 'Count again'});
		expect(spillOf(second)).toBeUndefined();
		expect(textOf(second).startsWith('[output truncated; full output: (unavailable)]\n')).toBe(true);
		expect(await readdir(spillDir)).toEqual([first!.slice(spillDir.length + 1)]);
		// A small spill still fits what is left (the refused one gave its bytes back).
		expect(spillOf(await call(registry, 'bash', {command: 'seq 1 500', description: 'Count less'}))?.startsWith(spillDir)).toBe(true);
	});
});

describe('bash live output', () => {
	it('reports output chunks while the command is still running', async () => {
		const registry = bashRegistry({workspace: workspace.path});
		const controller = new AbortController();
		const updates: ToolProgress[] = [];
		let finished = false;
		let firstChunk!: () => void;
		const sawFirst = new Promise<void>((resolve) => {
			firstChunk = resolve;
		});
		const running = call(registry, 'bash', {command: 'echo first; echo second >&2; sleep 30', description: 'Talk then wait'}, {
			signal: controller.signal,
			onProgress(update) {
				updates.push(update);
				if (updates.some((u) => u.stream === 'stdout') && updates.some((u) => u.stream === 'stderr')) {
					firstChunk();
				}
			},
		});
		void running.then(() => {
			finished = true;
		});
		await sawFirst;
		expect(finished).toBe(false);
		expect(updates.filter((u) => u.stream === 'stdout').map((u) => u.text).join('')).toBe('first\n');
		expect(updates.filter((u) => u.stream === 'stderr').map((u) => u.text).join('')).toBe('second\n');
		controller.abort();
		expect((await running).isError).toBe(true);
	});
});

describe('bash processes at exit', () => {
	it('killLiveCommands (run when this process exits) kills every running command tree', async () => {
		let output = '';
		let sawPid!: () => void;
		const printed = new Promise<void>((resolve) => {
			sawPid = resolve;
		});
		const shell = startShell(
			'sleep 30 & echo $!; wait',
			workspace.path,
			{
				onStdout(chunk) {
					output += chunk.toString();
					if (output.includes('\n')) {
						sawPid();
					}
				},
				onStderr() {},
			},
			{killGraceMs: 500, drainGraceMs: 100},
		);
		await printed;
		const sleeper = Number(output.trim());
		expect(isAlive(sleeper)).toBe(true);
		// Synchronous: it repeats SIGKILL until a scan finds no live process of the command.
		killLiveCommands();
		expect(isAlive(sleeper)).toBe(false);
		expect(await shell.exited).toEqual({exitCode: null, signal: 'SIGKILL'});
	});
});
