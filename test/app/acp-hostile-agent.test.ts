/**
A hostile or broken ACP agent cannot flood cardterm (attacker items 9 and 11 of issue 16), through
the real `bin/cardterm acp -p` and the scripted agent's hostile turns (test/acp/fake-agent.mjs):
terminals are capped in count and in output kept, in the agent's terms (a JSON-RPC error naming the
limit, `truncated`); an agent that stops reading its stdin while asking for megabytes does not make
cardterm hold the answers (peak RSS, read in the child when it exits); an agent that never answers
`initialize` fails the start naming it and the step, within the bound. The commands the agent runs
in cardterm's terminals do not get the provider keys, and what the agent says of them is redacted
from the log and the frame trace (both 0600). Needs a built dist/ (rebuilt when older than the sources).
*/
import {execFile} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {FAKE_AGENT} from '../acp/acp-harness.js';
import {buildDist, cardterm} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
}, 300_000);

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'cardterm-acp-hostile-'));
	writeFileSync(join(folder, 'max-rss.cjs'), 'process.on("exit", () => require("node:fs").writeFileSync(process.env.CARDTERM_RSS_FILE, String(process.resourceUsage().maxRSS)));\n');
});

afterEach(() => {
	rmSync(folder, {recursive: true, force: true});
});

type Run = {code: number; stdout: string; stderr: string; rssMb: number; ms: number};

/** `cardterm acp [FLAGS] -p PROMPT -- node fake-agent AGENT_FLAGS`, its peak RSS read when it exits. */
async function acp(prompt: string, options: {flags?: readonly string[]; agentFlags?: readonly string[]; env?: Record<string, string>} = {}): Promise<Run> {
	const rssFile = join(folder, 'rss.txt');
	const argv = ['--require', join(folder, 'max-rss.cjs'), cardterm, 'acp', '--session-dir', join(folder, 'sessions'), ...(options.flags ?? []), '-p', prompt, '--', process.execPath, FAKE_AGENT, ...(options.agentFlags ?? [])];
	const started = Date.now();
	const result = await new Promise<{code: number; stdout: string; stderr: string}>(resolve => {
		execFile(process.execPath, argv, {cwd: folder, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20, env: {...process.env, NO_COLOR: '1', CARDTERM_RSS_FILE: rssFile, ...options.env}}, (error, stdout, stderr) => {
			resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stdout, stderr});
		});
	});
	return {...result, rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024, ms: Date.now() - started};
}

type Entry = {entry: string; text?: string; summary?: string};

/** The entries `--json` printed. */
const entries = (stdout: string): Entry[] => stdout.trim().split('\n').map(line => JSON.parse(line) as Entry);
const answer = (stdout: string): string | undefined => entries(stdout).find(entry => entry.entry === 'assistant')?.text;
const notices = (stdout: string): string[] => entries(stdout).filter(entry => entry.entry === 'notice').map(entry => entry.summary ?? '');

const logOf = (): string => {
	const sessions = join(folder, 'sessions');
	const [id] = readdirSync(sessions);
	return join(sessions, id!, 'session.jsonl');
};

describe('an ACP agent\'s terminals are bounded', () => {
	it('in count: past 64 not released, terminal/create is refused with an error naming the limit, and the person is told once', async () => {
		const result = await acp('terminals 300', {flags: ['--json']});
		expect(result.code).toBe(0);
		const refusal = 'cardterm runs at most 64 terminals at once and 64 are not released: release one (terminal/release) before creating another';
		expect(answer(result.stdout)).toBe(`created 64; refused: -32600 Invalid request: ${refusal}`);
		expect(notices(result.stdout)).toEqual([`refused the agent a terminal: ${refusal} (further refusals are not shown)`]);
	}, 120_000);

	it('in output kept: 64 MiB for all terminals together, each given what room is left, the rest refused; cardterm\'s memory stays bounded', async () => {
		const baseline = await acp('hello');
		expect(baseline.code).toBe(0);
		// Twenty terminals each asking to keep 16 MiB (and printing 32 MiB): 320 MiB if each got its ask.
		const result = await acp('flood 20 16777216', {flags: ['--json']});
		expect(result.code).toBe(0);
		expect(answer(result.stdout)).toBe('kept: 4× 16777216 truncated, 16× refused -32600');
		expect(notices(result.stdout)).toEqual(['refused the agent a terminal: the 4 terminals not released keep 64 MiB of output, all of the 64 MiB cardterm keeps for terminals: release one (terminal/release) before creating another (further refusals are not shown)']);
		expect(result.rssMb - baseline.rssMb).toBeLessThan(400);
		console.log(`flood: peak RSS ${result.rssMb.toFixed(0)} MB, a plain turn ${baseline.rssMb.toFixed(0)} MB`);
	}, 120_000);

	it('with back-pressure: an agent that stops reading while it asks for 4 MiB of output 150 times does not make cardterm hold the answers', async () => {
		const baseline = await acp('hello');
		const result = await acp('unread 150 4194304 3000', {flags: ['--json']});
		expect(result.code).toBe(0);
		expect(answer(result.stdout)).toBe('asked 150 times without reading');
		// Held at once, the 150 answers are 600 MiB of strings.
		expect(result.rssMb - baseline.rssMb).toBeLessThan(200);
		console.log(`unread: peak RSS ${result.rssMb.toFixed(0)} MB, a plain turn ${baseline.rssMb.toFixed(0)} MB`);
	}, 120_000);
});

describe('an ACP agent that never answers initialize', () => {
	it('fails the start after --init-timeout, naming the agent and the step, having said what it waits for; the agent is stopped', async () => {
		const marker = `--id=never-${process.pid}-${Date.now()}`;
		const result = await acp('hello', {flags: ['--init-timeout', '3'], agentFlags: ['--hang-initialize', marker]});
		expect(result.code).toBe(1);
		expect(result.stdout).toBe('');
		const agent = `${process.execPath} ${FAKE_AGENT} --hang-initialize ${marker}`;
		expect(result.stderr).toContain(`cardterm: waiting for ${agent} to answer initialize (gives up after 3 s); Ctrl+C stops it\n`);
		expect(result.stderr).toContain(`cardterm: ${agent} did not answer initialize within 3 s: is it an ACP agent speaking on its stdio? (a slow one: --init-timeout SECONDS)\n`);
		const left = readdirSync('/proc').filter(name => /^\d+$/.test(name)).filter(pid => {
			try {
				return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
			} catch {
				return false;
			}
		});
		expect(left).toEqual([]);
	}, 60_000);

	it('--init-timeout takes a positive number of seconds', async () => {
		const result = await acp('hello', {flags: ['--init-timeout', '0']});
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('acp: --init-timeout must be a positive integer, got 0');
	}, 60_000);
});

describe('an ACP agent and the keys', () => {
	it('its terminals run without the provider keys; what it says of them is redacted from the log and the trace, both 0600', async () => {
		const key = 'sk-acp-0123456789abcdefSECRET';
		const trace = join(folder, 'trace.jsonl');
		const result = await acp('secrets', {env: {OPENAI_API_KEY: key, CARDTERM_ACP_TRACE: trace}});
		expect(result.code).toBe(0);
		// The agent itself has the key (it is the person's program); the command it ran in cardterm's terminal did not.
		const printed = result.stdout + result.stderr;
		expect(printed).toContain('withheld');
		expect(printed).toContain('My key is [REDACTED:OPENAI_API_KEY].');
		const log = readFileSync(logOf(), 'utf8');
		expect(log).toContain('My key is [REDACTED:OPENAI_API_KEY].');
		for (const text of [result.stdout, result.stderr, log, readFileSync(trace, 'utf8')]) {
			expect(text).not.toContain(key);
		}

		expect(statSync(trace).mode & 0o777).toBe(0o600);
		expect(statSync(logOf()).mode & 0o777).toBe(0o600);
	}, 60_000);
});
