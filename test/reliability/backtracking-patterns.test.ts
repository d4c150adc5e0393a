/**
Promise 2 (issue 11, items 5 and 6): no pattern makes cardterm backtrack. A grep card replayed from
a log highlights its matches with the log's pattern, and the grep tool without ripgrep matches
with the model's: both run the linear-time engine, so patterns that take a backtracking engine
exponential time (`^x|(a+)+$` on `aaa…!` doubles per character) finish at once. The commands run in
a child process killed after CHILD_TIMEOUT_MS, so a hang fails the test instead of freezing it; they
need dist/ (npm test builds it first).
*/
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {builtEntry} from '../app/e2e-helpers.js';

/** Generous: each command takes well under a second; a backtracking one takes longer than the universe. */
const CHILD_TIMEOUT_MS = 10_000;

/**
Patterns a backtracking engine takes exponential time on, a line that makes it do so, and which
lines of a file holding that line and then the line without its last character match (as ripgrep answers).
*/
const CATASTROPHIC = [
	{pattern: '^x|(a+)+$', line: `${'a'.repeat(40)}!`, matchedLines: [2]},
	{pattern: '(a|aa)+$', line: `${'a'.repeat(60)}!`, matchedLines: [2]},
	{pattern: '(x+x+)+y', line: 'x'.repeat(60), matchedLines: []},
	{pattern: '(\\w+\\s?)+$', line: `${'word '.repeat(12)}!`, matchedLines: [2]},
];

const bin = fileURLToPath(new URL('../../bin/cardterm', import.meta.url));
const built = existsSync(builtEntry);
const dir = mkdtempSync(join(tmpdir(), 'cardterm-backtrack-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

/** `cardterm ARGS` in a child process without ripgrep on PATH; a kill on timeout reads as a hang. */
function cardterm(args: readonly string[]): {code: number | null; out: string; err: string} {
	const child = spawnSync(process.execPath, [bin, ...args], {encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, killSignal: 'SIGKILL', env: {...process.env, PATH: '', NO_COLOR: '1'}});
	if (child.signal !== null) {
		throw new Error(`cardterm ${args.join(' ')} did not finish within ${CHILD_TIMEOUT_MS} ms (killed by ${child.signal})`);
	}

	return {code: child.status, out: child.stdout, err: child.stderr};
}

/** A log of one grep card (well under 1 KB) whose match line and pattern are `line` and `pattern`. */
function grepLog(pattern: string, line: string): string {
	const header = {type: 'session', version: 0, id: 's-backtrack', createdAt: 1_790_000_000_000, cwd: '/w', delegationDepth: 0};
	const call = {type: 'tool/call', seq: 0, time: 1_790_000_000_001, data: {turn: 1, step: 1, callId: 'c1', name: 'grep', arguments: JSON.stringify({pattern})}};
	const result = {type: 'tool/result', seq: 1, time: 1_790_000_000_002, data: {
		message: {id: 'r1', role: 'user', source: {kind: 'tool', callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', content: [{type: 'text', text: 'Found 1 match'}], isError: false}]},
		meta: {shape: 'matches', files: [{path: 'a.txt', matches: [{lineNumber: 1, line}]}], truncated: false, total: 1},
	}, sourceEventSeqs: [0]};
	return [header, call, result].map(event => `${JSON.stringify(event)}\n`).join('');
}

describe.skipIf(!built)('backtracking patterns (needs dist/: npm run build)', () => {
	it.each(CATASTROPHIC)('a logged grep card with pattern $pattern replays in --print and --json', ({pattern, line}) => {
		const log = join(dir, 'grep.jsonl');
		const text = grepLog(pattern, line);
		expect(Buffer.byteLength(text)).toBeLessThan(1024);
		writeFileSync(log, text);
		const printed = cardterm(['replay', log, '--print', '--width', '100']);
		expect(printed).toMatchObject({code: 0, err: ''});
		expect(printed.out).toContain(`1: ${line}`);
		const json = cardterm(['replay', log, '--json']);
		expect(json).toMatchObject({code: 0, err: ''});
		expect(JSON.parse(json.out)).toMatchObject({name: 'grep', status: 'ok', result: {card: 'search', total: 1}});
	});

	it.each(CATASTROPHIC)('the grep tool without ripgrep returns for pattern $pattern', ({pattern, line, matchedLines}) => {
		const workspace = mkdtempSync(join(dir, 'ws-'));
		writeFileSync(join(workspace, 'a.txt'), `${line}\n${line.slice(0, -1)}\n`);
		const called = cardterm(['call', 'grep', JSON.stringify({pattern}), '--cwd', workspace, '--log', `${workspace}.jsonl`, '--json']);
		expect(called).toMatchObject({code: 0, err: ''});
		const card = JSON.parse(called.out) as {status: string; result: {files: Array<{path: string; matches: Array<{lineNumber: number}>}>}};
		expect(card.status).toBe('ok');
		expect(card.result.files.flatMap(file => file.matches.map(match => `${file.path}:${match.lineNumber}`))).toEqual(matchedLines.map(number => `a.txt:${number}`));
	});
});
