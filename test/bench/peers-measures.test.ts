import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';

type Result = Record<string, unknown> & {peer: string; calls: number};
const folder = join(import.meta.dirname, '../../bench/peers');
const load = async <T>(name: string): Promise<T> => import(pathToFileURL(join(folder, name)).href) as Promise<T>;
const {countClearScreens, countMarkedFrames, stripEscapes} = await load<{countClearScreens: (text: string) => number; countMarkedFrames: (text: string) => number; stripEscapes: (text: string) => string}>('terminal-bytes.mjs');
const {unionLength} = await load<{unionLength: (intervals: Array<[number, number]>, from?: number, to?: number) => number}>('intervals.mjs');
const {schemaShaped} = await load<{schemaShaped: (schema: unknown) => unknown}>('schema-shaped.mjs');
const {historyShown} = await load<{historyShown: (text: string, calls: number) => number}>('run-session.mjs');
const {pickShellTool, shellArguments, nextStep} = await load<{
	pickShellTool: (tools: Array<{name: string; parameters?: unknown}>) => {name: string} | undefined;
	shellArguments: (tool: {name: string; parameters?: unknown}, command: string, shaped: (schema: unknown) => unknown) => Record<string, unknown>;
	nextStep: (calls: number, results: number, batch?: number) => {kind: string; index?: number; count?: number; text?: string};
}>('script-step.mjs');
const {requestTokens} = await load<{requestTokens: (entries: Array<Record<string, unknown>>) => Record<string, number | undefined>}>('request-tokens.mjs');
const {anthropicPromptCache} = await load<{anthropicPromptCache: () => {read: (body: unknown, bodyBytes: number) => number}}>('request-size.mjs');
const {resultsTable} = await load<{resultsTable: (input: {results: Result[]; peers: string[]; sizes: number[]; unavailable: Map<string, string>}) => string[]}>('results-table.mjs');

describe('terminal bytes', () => {
	it('counts erase-display, erase-scrollback and full resets, and nothing else that looks close', () => {
		expect(countClearScreens('a\u001B[2Jb\u001B[3J\u001Bc\u001B[H\u001B[2J')).toBe(4);
		expect(countClearScreens('\u001B[J\u001B[0J\u001B[1J\u001B[K\u001B[2K\u001B[?1049h ec 2J')).toBe(0);
	});

	it('counts the frames a program marks with synchronized output (mode 2026 set), not its end marks or other modes', () => {
		expect(countMarkedFrames('\u001B[?2026ha\u001B[?2026l\u001B[?2026hb\u001B[?2026l')).toBe(2);
		expect(countMarkedFrames('\u001B[?2026l\u001B[?25h\u001B[?1049h\u001B[2026h')).toBe(0);
	});

	it('strips CSI, OSC and two-byte escapes, so a sequence\'s final letter is not printed text', () => {
		expect(stripEscapes('\u001B[38;5;2mz\u001B[0m \u001B]0;title z\u0007\u001B=\u001B[?25h')).toBe('z ');
		expect(stripEscapes('\u001B[2 q\u001B[1z')).toBe('');
	});
});

describe('server time', () => {
	it('is the union of overlapping requests, clipped to the session', () => {
		expect(unionLength([[0, 10], [5, 15], [20, 30]])).toBe(25);
		expect(unionLength([[20, 30], [0, 10], [2, 3]], 5, 25)).toBe(10);
		expect(unionLength([])).toBe(0);
	});
});

describe('schema-shaped side answers', () => {
	it('fills required fields with the first enum value, the first union member, minimums and empty arrays', () => {
		expect(schemaShaped({type: 'object', properties: {a: {type: 'string', enum: ['x', 'y']}, b: {anyOf: [{type: 'boolean'}, {type: 'string'}]}, c: {type: 'array', items: {type: 'number'}}, d: {type: 'integer', minimum: 2}, e: {type: 'string'}}, required: ['a', 'b', 'c', 'd']})).toEqual({a: 'x', b: false, c: [], d: 2});
		expect(schemaShaped({type: 'string', minLength: 5})).toBe('ooooo');
		expect(schemaShaped({type: ['null', 'number']})).toBe(0);
	});
});

describe('the scripted step', () => {
	it('calls until the count of results reaches the calls asked for, then answers', () => {
		expect(nextStep(3, 0)).toEqual({kind: 'call', index: 1, count: 1});
		expect(nextStep(3, 2)).toEqual({kind: 'call', index: 3, count: 1});
		expect(nextStep(3, 3).kind).toBe('answer');
		// A batch: as many calls a step as asked, the last step what is left.
		expect(nextStep(250, 0, 100)).toEqual({kind: 'call', index: 1, count: 100});
		expect(nextStep(250, 200, 100)).toEqual({kind: 'call', index: 201, count: 50});
		expect(nextStep(250, 250, 100).kind).toBe('answer');
	});

	it('picks a known shell tool by name before any other, and shapes the command as the schema types it', () => {
		const tools = [{name: 'read'}, {name: 'exec_command', parameters: {type: 'object', properties: {cmd: {type: 'string'}, yield_time_ms: {type: 'number'}}, required: ['cmd']}}, {name: 'shell', parameters: {type: 'object', properties: {command: {type: 'array'}}, required: ['command']}}];
		const shell = pickShellTool(tools);
		expect(shell?.name).toBe('shell');
		expect(shellArguments(tools[2], 'echo line-1', schemaShaped)).toEqual({command: ['bash', '-lc', 'echo line-1']});
		expect(shellArguments(tools[1], 'echo line-1', schemaShaped)).toEqual({cmd: 'echo line-1'});
		expect(pickShellTool([{name: 'read'}, {name: 'run_terminal_command'}])?.name).toBe('run_terminal_command');
		expect(pickShellTool([{name: 'read'}])).toBeUndefined();
	});
});

describe('tokens sent', () => {
	it('takes the fixed part from the first step, counts side requests in the input, and cache reads only where the wire declared them', () => {
		const chat = requestTokens([
			{kind: 'side', bytes: 400, fixedBytes: 0},
			{kind: 'call', bytes: 4000, fixedBytes: 3000},
			{kind: 'answer', bytes: 4400, fixedBytes: 3000},
		]);
		expect(chat).toEqual({fixedTokens: 750, inputTokens: 2200, cachedTokens: undefined, uncachedTokens: 2200, lastRequestTokens: 1100, requestBytes: 8800});
		const anthropic = requestTokens([{kind: 'call', bytes: 8000, fixedBytes: 6000, cachedBytes: 0}, {kind: 'answer', bytes: 8400, fixedBytes: 6000, cachedBytes: 7900}]);
		expect([anthropic.cachedTokens, anthropic.uncachedTokens]).toEqual([1975, 2125]);
		expect(requestTokens([{kind: 'side', bytes: 10}, {kind: 'refused'}])).toEqual({});
	});
});

describe('Anthropic\'s prompt cache as the bench counts it', () => {
	it('serves, from the second request on, the blocks up to an earlier mark, counted as sent without their marks, never more than the body', () => {
		const cache = anthropicPromptCache();
		const mark = {cache_control: {type: 'ephemeral'}};
		const tool = {name: 'Bash', input_schema: {type: 'object'}};
		const system = {type: 'text', text: 'rules '.repeat(1000)};
		const results = Array.from({length: 50}, (_, index) => ({type: 'tool_result', tool_use_id: `t${index}`, content: `line-${index}`}));
		const first = {model: 'm', max_tokens: 9, tools: [tool], system: [{...system, ...mark}], messages: [{role: 'user', content: [...results.slice(0, -1), {...results.at(-1), ...mark}]}]};
		const second = {...first, messages: [first.messages[0], {role: 'assistant', content: 'ok'}, {role: 'user', content: 'next'}]};
		const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
		expect(cache.read(first, size(first))).toBe(0);
		const prefix = size(tool) + size(system) + results.reduce((sum, block) => sum + size(block), 0);
		expect(cache.read(second, size(second))).toBe(prefix);
		expect(cache.read(second, 100)).toBe(100);
		// A changed block early in the prefix: only the part before it is served.
		expect(cache.read({...second, system: [{type: 'text', text: 'other'}]}, size(second))).toBe(0);
	});
});

describe('history shown', () => {
	it('counts each of line-1 … line-N once and ignores lines past N and longer words', () => {
		expect(historyShown('$ echo line-1\nline-1\nline-3\nline-30\nline-2x\nline-0', 20)).toBe(2);
	});
});

describe('the results table', () => {
	const results: Result[] = [
		{peer: 'a', calls: 20, sessionMs: 600, wallPerCallMs: 30, resumeMs: 1000, resumeHistoryShown: 20, echoMs: 12, echoFloorMs: 6},
		{peer: 'b', calls: 20, sessionMs: 300, wallPerCallMs: 15, resumeMs: 500, resumeHistoryShown: 5, echoMs: 10, echoFloorMs: 6},
		{peer: 'cardterm', calls: 20, sessionMs: 120, wallPerCallMs: 6, resumeMs: 400, resumeHistoryShown: 20, echoMs: 9, echoFloorMs: 6},
	];
	const row = (lines: string[], name: string) => lines.find(line => line.startsWith(`| ${name} |`));

	it('divides cardterm\'s figure by the best peer\'s, and for resume time only among peers that showed all of it', () => {
		const lines = resultsTable({results, peers: ['a', 'b'], sizes: [20], unavailable: new Map()});
		expect(row(lines, 'wall time per call (ms)')).toBe('| wall time per call (ms) | 20 | 30.0 | 15.0 | 6.0 | 0.40 (best b) |');
		expect(row(lines, 'resume: time to the last answer (ms)')).toBe('| resume: time to the last answer (ms) | 20 | 1000 | 500 | 400 | 0.40 (best a) |');
		expect(row(lines, 'resume: calls of the history shown')).toBe('| resume: calls of the history shown | 20 | 20 | 5 | 20 | 1.00 (best a) |');
		expect(row(lines, 'keystroke echo after the session (ms, median of 10)')).toContain('| 10.0 (floor 6.0) |');
	});

	it('gives a session that stopped early no figure of its size but its launch, and a resume showing less than all of it no ratio', () => {
		const stopped: Result[] = [...results.slice(0, 2), {peer: 'cardterm', calls: 20, callsServed: 8, launchMs: 300, sessionBytes: 10, resumeMs: 100, resumeHistoryShown: 0}, {peer: 'a', calls: 20, launchMs: 500}];
		const lines = resultsTable({results: stopped, peers: ['a', 'b'], sizes: [20], unavailable: new Map()});
		expect(row(lines, 'bytes written in the session')).toBe('| bytes written in the session | 20 | – | – | stopped at 8 | n/a |');
		expect(row(lines, 'resume: time to the last answer (ms)')).toBe('| resume: time to the last answer (ms) | 20 | 1000 | 500 | stopped at 8 | n/a |');
		const shortResume: Result[] = [...results.slice(0, 2), {...results[2]!, resumeHistoryShown: 0}];
		expect(row(resultsTable({results: shortResume, peers: ['a', 'b'], sizes: [20], unavailable: new Map()}), 'resume: time to the last answer (ms)')).toBe('| resume: time to the last answer (ms) | 20 | 1000 | 500 | 400 | n/a (shows 0 of 20) |');
	});

	it('marks a skipped peer and an unavailable cardterm instead of inventing figures', () => {
		const lines = resultsTable({results: results.filter(result => result.peer !== 'cardterm'), peers: ['a', 'b', 'c'], sizes: [20], unavailable: new Map([['c', 'npm failed'], ['cardterm', 'not available in this build']])});
		expect(row(lines, 'wall time per call (ms)')).toBe('| wall time per call (ms) | 20 | 30.0 | 15.0 | skipped | n/a | n/a |');
	});
});

describe('process tree PSS', () => {
	type Tree = {childrenOf: (pid: number) => number[]; processTree: (root: number) => number[]; treePssKb: (root: number, options?: {withoutRoot?: boolean}) => number; pssKb: (pid: number) => number};
	it('finds a child of this process in its tree and sums its PSS without the root when asked', async () => {
		const {childrenOf, processTree, treePssKb, pssKb} = await load<Tree>('process-tree.mjs');
		const {spawn} = await import('node:child_process');
		const child = spawn('sleep', ['30']);
		try {
			await new Promise(resolve => {
				child.once('spawn', resolve);
			});
			const pid = child.pid ?? -1;
			expect(processTree(process.pid)).toContain(pid);
			expect(childrenOf(process.pid)).toContain(pid);
			expect(childrenOf(pid)).toEqual([]);
			expect(processTree(pid)).toEqual([pid]);
			expect(pssKb(pid)).toBeGreaterThan(0);
			expect(treePssKb(pid, {withoutRoot: true})).toBe(0);
			expect(treePssKb(pid)).toBe(pssKb(pid));
			expect(processTree(2 ** 22 + 7)).toEqual([]);
		} finally {
			child.kill();
		}
	});
});
