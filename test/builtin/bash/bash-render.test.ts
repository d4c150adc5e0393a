import {afterEach, describe, expect, it, vi} from 'vitest';
import {bashTool} from '../../../src/builtin/bash.js';
import type {BashForegroundValue} from '../../../src/builtin/bash/bash-schema.js';
import {ProgressCoalescer} from '../../../src/builtin/bash/progress-coalescer.js';
import {renderBashText} from '../../../src/builtin/bash/render-text.js';
import {TailBuffer} from '../../../src/builtin/bash/tail-buffer.js';
import {splitCompleteUtf8} from '../../../src/builtin/bash/utf8.js';
import {JobRuntime} from '../../../src/jobs/job-runtime.js';
import type {ToolProgress} from '../../../src/tools/types.js';

const tool = bashTool({workspace: '/home/u/proj'});

function foreground(overrides: Partial<BashForegroundValue>): BashForegroundValue {
	return {
		kind: 'foreground',
		exitCode: 0,
		signal: null,
		timedOut: false,
		aborted: false,
		timeoutMs: 120_000,
		stdout: {text: '', truncated: false},
		stderr: {text: '', truncated: false},
		...overrides,
	};
}

function text(value: string) {
	return {content: [{type: 'text' as const, text: value}], isError: false};
}

afterEach(() => {
	vi.useRealTimers();
});

describe('bash model-facing text', () => {
	it('renders the spec example: stdout then the exit marker', () => {
		const value = foreground({exitCode: 1, stdout: {text: 'FAIL src/a.test.ts\n', truncated: false}});
		expect(renderBashText(value)).toBe('FAIL src/a.test.ts\n[exit code: 1]');
	});

	it('puts stderr after a [stderr] line and adds no marker for a clean exit', () => {
		expect(renderBashText(foreground({stdout: {text: 'ok\n', truncated: false}, stderr: {text: 'warn\n', truncated: false}}))).toBe('ok\n[stderr]\nwarn\n');
		expect(renderBashText(foreground({stdout: {text: 'ok', truncated: false}, stderr: {text: 'warn', truncated: false}}))).toBe('ok\n[stderr]\nwarn');
		expect(renderBashText(foreground({stderr: {text: 'only err\n', truncated: false}}))).toBe('[stderr]\nonly err\n');
	});

	it('says (no output) for an empty run', () => {
		expect(renderBashText(foreground({}))).toBe('(no output)');
		expect(renderBashText(foreground({exitCode: 1}))).toBe('(no output)\n[exit code: 1]');
	});

	it('ends a cancelled run with the cancel marker in place of the signal the cancel sent', () => {
		const value = foreground({exitCode: null, signal: 'SIGTERM', aborted: true, stdout: {text: 'step 1\n', truncated: false}});
		expect(renderBashText(value)).toBe('step 1\n[cancelled: stopped before it finished]');
		expect(renderBashText(foreground({exitCode: null, signal: 'SIGTERM', aborted: true}))).toBe('(no output)\n[cancelled: stopped before it finished]');
	});

	it('orders the timeout marker before the signal marker', () => {
		const value = foreground({exitCode: null, signal: 'SIGTERM', timedOut: true, stdout: {text: '…\n', truncated: false}});
		expect(renderBashText(value)).toBe('…\n[timed out after 120000ms]\n[killed by signal: SIGTERM]');
	});

	it('marks a truncated stream before its tail, naming the spill file or (unavailable)', () => {
		const value = foreground({
			stdout: {text: 'tail\n', truncated: true},
			stderr: {text: 'err tail', truncated: true, spillPath: '/s/err.log'},
		});
		expect(renderBashText(value)).toBe(
			'[output truncated; full output: (unavailable)]\ntail\n[stderr]\n[output truncated; full output: /s/err.log]\nerr tail',
		);
	});

	it('renders a background handle', () => {
		expect(renderBashText({kind: 'background', jobId: 'bash-1'})).toBe('started background job bash-1');
	});
});

describe('bash presenters', () => {
	it('presents the §E2.1 foreground example', () => {
		const args = {command: 'npm test', description: 'Run the test suite', workdir: 'packages/core'};
		expect(tool.presentCall?.(args)).toEqual({card: 'terminal', title: 'npm test', description: 'Run the test suite', cwd: 'packages/core'});
		expect(tool.presentResult?.(args, text('FAIL src/a.test.ts\n[exit code: 1]'))).toEqual({card: 'terminal', output: 'FAIL src/a.test.ts', exitCode: 1});
	});

	it('omits cwd without workdir', () => {
		expect(tool.presentCall?.({command: 'ls', description: 'List files'})).toEqual({card: 'terminal', title: 'ls', description: 'List files'});
	});

	it('presents the §E2.1 other outputs', () => {
		const args = {command: 'x', description: 'y'};
		expect(tool.presentResult?.(args, text('ok\n[stderr]\nwarn\n'))).toEqual({card: 'terminal', output: 'ok\n[stderr]\nwarn\n', exitCode: 0});
		expect(tool.presentResult?.(args, text('…\n[timed out after 120000ms]\n[killed by signal: SIGTERM]'))).toEqual({
			card: 'terminal',
			output: '…\n[timed out after 120000ms]',
			signal: 'SIGTERM',
		});
		expect(tool.presentResult?.(args, text('(no output)'))).toEqual({card: 'terminal', output: '(no output)', exitCode: 0});
	});

	it('matches the exit marker only at the very end', () => {
		const args = {command: 'x', description: 'y'};
		expect(tool.presentResult?.(args, text('a\n[exit code: 2]\nmore'))).toEqual({card: 'terminal', output: 'a\n[exit code: 2]\nmore', exitCode: 0});
	});

	it('presents the §E2.2 background example', () => {
		const args = {command: 'npm run dev', description: 'Start the dev server', run_in_background: true};
		expect(tool.presentCall?.(args)).toEqual({
			card: 'generic',
			title: 'npm run dev',
			kind: 'execute',
			rawInput: 'npm run dev',
			content: [{type: 'text', text: 'Start the dev server'}],
		});
		expect(tool.presentResult?.(args, text('started background job bash-1'))).toEqual({
			card: 'generic',
			content: [{type: 'text', text: '```console\nstarted background job bash-1\n```'}],
		});
	});

	it('presents a command cancelled while it ran as a terminal view of what it printed, with no exit', () => {
		const args = {command: 'npm test', description: 'Run the tests'};
		const cancelled = {content: [{type: 'text' as const, text: 'Error: tool call aborted'}, {type: 'text' as const, text: 'PASS a\n[cancelled: stopped before it finished]'}], isError: true};
		// The marker is stripped as an exit marker is: the card says it was cancelled.
		expect(tool.presentResult?.(args, cancelled)).toEqual({card: 'terminal', output: 'PASS a'});
		// Only the registry's cancellation line introduces a command's own text; any other pair of blocks is declined.
		expect(tool.presentResult?.(args, {...cancelled, content: [{type: 'text' as const, text: 'Error: something else'}, cancelled.content[1]!]})).toBeUndefined();
		expect(tool.presentResult?.({...args, run_in_background: true}, cancelled)).toBeUndefined();
	});

	it('fences an error as console, trimming trailing newlines', () => {
		const result = {content: [{type: 'text' as const, text: 'Error: tool call aborted\n\n'}], isError: true};
		expect(tool.presentResult?.({command: 'x', description: 'y'}, result)).toEqual({
			card: 'generic',
			content: [{type: 'text', text: '```console\nError: tool call aborted\n```'}],
		});
	});

	it('declines anything but exactly one text block, and invalid arguments', () => {
		const args = {command: 'x', description: 'y'};
		expect(tool.presentResult?.(args, {content: [], isError: false})).toBeUndefined();
		expect(tool.presentResult?.(args, {content: [{type: 'text', text: 'a'}, {type: 'text', text: 'b'}], isError: false})).toBeUndefined();
		expect(tool.presentCall?.({command: 'x'})).toBeUndefined();
		expect(tool.presentResult?.({description: 'y'}, text('ok'))).toBeUndefined();
	});
});

describe('bash parameters', () => {
	it('advertises run_in_background only with a job runtime', () => {
		expect(Object.keys(bashTool({workspace: '/w'}).parameters.properties as object)).toEqual(['command', 'description', 'timeoutMs', 'workdir']);
		const withJobs = bashTool({workspace: '/w', jobs: new JobRuntime()});
		expect(Object.keys(withJobs.parameters.properties as object)).toEqual(['command', 'description', 'timeoutMs', 'workdir', 'run_in_background']);
		expect(withJobs.parameters.required).toEqual(['command', 'description']);
	});
});

describe('TailBuffer', () => {
	it('keeps exactly the last bytes across wrap-around, with a bounded store', () => {
		const tail = new TailBuffer(5);
		tail.push(Buffer.from('abc'));
		expect([tail.text(), tail.truncated]).toEqual(['abc', false]);
		tail.push(Buffer.from('defg'));
		expect([tail.text(), tail.truncated, tail.totalBytes, tail.length]).toEqual(['cdefg', true, 7, 5]);
		tail.push(Buffer.from('0123456789'));
		expect(tail.text()).toBe('56789');
	});

	it('drops a character cut off at the start of a truncated tail', () => {
		const tail = new TailBuffer(4);
		tail.push(Buffer.from('xé€')); // x, é (2 bytes), € (3 bytes): 6 bytes
		expect(tail.text()).toBe('€');
	});
});

describe('splitCompleteUtf8', () => {
	it('holds back an incomplete final character', () => {
		const euro = Buffer.from('€');
		const {complete, rest} = splitCompleteUtf8(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)]));
		expect([complete.toString(), [...rest]]).toEqual(['a', [...euro.subarray(0, 2)]]);
		expect(splitCompleteUtf8(Buffer.from('a€')).rest.length).toBe(0);
	});
});

describe('ProgressCoalescer', () => {
	it('coalesces chunks per stream into one update per interval, and flushes on close', () => {
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		const updates: ToolProgress[] = [];
		const live = new ProgressCoalescer((update) => updates.push(update), {intervalMs: 50, maxBytesPerFlush: 1000});
		live.push('stdout', Buffer.from('a'));
		live.push('stderr', Buffer.from('e'));
		live.push('stdout', Buffer.from('b'));
		expect(updates).toEqual([]);
		vi.advanceTimersByTime(50);
		expect(updates).toEqual([
			{kind: 'output', stream: 'stdout', text: 'ab'},
			{kind: 'output', stream: 'stderr', text: 'e'},
		]);
		const euro = Buffer.from('€');
		live.push('stdout', euro.subarray(0, 1));
		vi.advanceTimersByTime(50);
		live.push('stdout', euro.subarray(1));
		live.close();
		live.push('stdout', Buffer.from('late'));
		vi.advanceTimersByTime(50);
		expect(updates.slice(2)).toEqual([{kind: 'output', stream: 'stdout', text: '€'}]);
	});

	it('bounds one flush to the tail of what arrived', () => {
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		const updates: ToolProgress[] = [];
		const live = new ProgressCoalescer((update) => updates.push(update), {intervalMs: 50, maxBytesPerFlush: 4});
		live.push('stdout', Buffer.from('0123456789'));
		vi.advanceTimersByTime(50);
		expect(updates).toEqual([{kind: 'output', stream: 'stdout', text: '6789'}]);
	});
});
