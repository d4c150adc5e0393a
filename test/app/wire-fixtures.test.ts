/**
The wire-fixture matrix (issue 26): every recorded provider stream in `../shared/wire-fixtures/`
is replayed by the strict fake provider to the real `bin/cardterm -p`, in its own wire (OpenAI
Chat Completions, Anthropic Messages, Gemini), with a workspace holding the files the recorded calls
read; a step after the calls is answered "done", so the request that carries the calls' results is
checked as the provider checks it (reasoning sent back, one content of N responses, signatures).
Then `replay --json` of the log cardterm wrote must show the stream's text, reasoning, calls and
usage, as the stream itself says them (`wire-expectations.ts`), not as cardterm or the SDK read it.
*/
import {execFile} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startProviderServer, WIRE_FIXTURES, type ProviderServer} from '../fixtures/wire/provider-server.mjs';
import {anthropicExpectation, chatExpectation, geminiExpectation, type ExpectedStream} from './wire-expectations.js';
import {buildDist, cardtermCommand} from './e2e-helpers.js';

const run = promisify(execFile);
const present = existsSync(WIRE_FIXTURES);
const fixtures = present ? ['openai', 'anthropic', 'google'].flatMap(dir => readdirSync(join(WIRE_FIXTURES, dir)).sort().map(file => `${dir}/${file}`)) : [];

type Setup = {readonly model: string; readonly baseUrl: (root: string) => string; readonly env: Record<string, string>; readonly expected: ExpectedStream};

/** How cardterm is pointed at a fixture's wire: the provider (by the fixture's folder and maker), its base URL and key. */
function setupOf(fixture: string): Setup {
	const text = readFileSync(join(WIRE_FIXTURES, fixture), 'utf8');
	const [dir] = fixture.split('/');
	const name = basename(fixture);
	if (dir === 'anthropic') {
		const expected = anthropicExpectation(text);
		return {model: `anthropic:${expected.model}`, baseUrl: root => `${root}/v1`, env: {ANTHROPIC_API_KEY: 'k'}, expected};
	}

	if (dir === 'google') {
		const expected = geminiExpectation(text);
		return {model: `google:${expected.model}`, baseUrl: root => `${root}/v1beta`, env: {GEMINI_API_KEY: 'k'}, expected};
	}

	const expected = chatExpectation(text);
	const model = expected.model === '' ? 'gpt-5-nano' : expected.model;
	if (name.startsWith('deepseek-')) {
		return {model: `deepseek:${model}`, baseUrl: root => `${root}/v1`, env: {DEEPSEEK_API_KEY: 'k'}, expected};
	}

	// OpenAI's own streams (and Azure's) go through the OpenAI package; the rest through the OpenAI-compatible one.
	const openai = /^(openai-|azure-|gpt-)/.test(name);
	return {model: openai ? `openai:${model}` : model, baseUrl: root => `${root}/v1`, env: {OPENAI_API_KEY: 'k'}, expected};
}

type Entry = {entry: string; turn?: number | null; step?: number | null; text?: string; reasoning?: string; name?: string; outcome?: string; usage?: {inputTokens: number; outputTokens: number} | null; interrupted?: boolean};

describe.skipIf(!present)('every recorded provider stream through cardterm -p and replay --json (skipped without ../shared/wire-fixtures)', () => {
	let root = '';
	beforeAll(() => {
		buildDist();
		root = mkdtempSync(join(tmpdir(), 'cardterm-wire-'));
	}, 300_000);
	afterAll(() => {
		rmSync(root, {recursive: true, force: true});
	});

	it('holds all 49 recorded streams', () => {
		expect(fixtures).toHaveLength(49);
	});

	it.concurrent.each(fixtures)('%s', async fixture => {
		const setup = setupOf(fixture);
		const {expected} = setup;
		const workspace = mkdtempSync(join(root, 'ws-'));
		for (const [file, text] of Object.entries({'hello.txt': 'hello world\n', A: 'alpha\n', B: 'beta\n', C: 'gamma\n', 'A.txt': 'a\n', 'B.txt': 'b\n'})) {
			writeFileSync(join(workspace, file), text);
		}

		const sessions = join(workspace, '.sessions');
		let server: ProviderServer | undefined;
		try {
			server = await startProviderServer({script: (_request, index) => index === 0 ? {fixture} : {text: 'done'}});
			const command = cardtermCommand({...setup.env, XDG_CONFIG_HOME: join(workspace, '.config')}, '-p', 'Read hello.txt', '--model', setup.model, '--base-url', setup.baseUrl(server.url), '--yolo', '--json', '--session-dir', sessions);
			const outcome = await run(command[0]!, command.slice(1), {cwd: workspace, timeout: 60_000}).then(result => ({code: 0, ...result}), (error: {code: number; stdout: string; stderr: string}) => error);
			expect(server.refusals.map(refusal => JSON.stringify(refusal.error)), 'the provider refused a request').toEqual([]);

			const [id] = readdirSync(sessions);
			const log = join(sessions, id!, 'session.jsonl');
			const replayCommand = cardtermCommand({}, 'replay', log, '--json');
			const replay = await run(replayCommand[0]!, replayCommand.slice(1), {cwd: workspace});
			const entries = replay.stdout.trimEnd().split('\n').map(line => JSON.parse(line) as Entry);
			// -p prints what replay prints.
			expect(outcome.stdout).toBe(replay.stdout);
			const events = readFileSync(log, 'utf8').trimEnd().split('\n').slice(1).map(line => JSON.parse(line) as {type: string; data: any});
			const answers = entries.filter(entry => entry.entry === 'assistant');
			const turn = entries.find(entry => entry.entry === 'turn')!;

			if (expected.broken !== undefined) {
				// The provider's client refuses the stream: the attempt is retried with a notice that names why, what
				// streamed before stays marked cut, and the next attempt (the server's plain answer) completes the turn.
				const retries = events.filter(event => event.type === 'llm/retry');
				expect(retries).toHaveLength(1);
				expect(retries[0]!.data.reason).toMatch(/message_start/);
				expect(answers.slice(0, -1).every(answer => answer.interrupted === true)).toBe(true);
				expect(answers.at(-1)!.text).toBe('done');
				expect(turn.outcome).toBe('completed');
				return;
			}

			// The first step is the recorded stream: its text and reasoning as the person reads them.
			const first = answers.find(answer => answer.step === 1) ?? {text: '', reasoning: ''};
			expect(first.text).toBe(expected.text);
			expect(first.reasoning).toBe(expected.reasoning);
			// Its calls, in order, with their arguments; each ran (a card) — and the provider's own tools are cards of what it did.
			const calls = events.filter(event => event.type === 'tool/call');
			expect(calls.filter(call => call.data.providerExecuted !== true).map(call => ({name: call.data.name, args: JSON.parse(call.data.arguments || '{}')}))).toEqual(expected.calls);
			expect(calls.filter(call => call.data.providerExecuted === true).map(call => call.data.name)).toEqual(expected.providerTools.map(name => `provider_${name}`));
			expect(entries.filter(entry => entry.entry === 'card').map(card => card.name)).toEqual(calls.map(call => call.data.name));
			// Its usage as the provider counted it; the turn adds the follow-up step's (10 in, 5 out) when there was one.
			const stepUsage = events.find(event => event.type === 'assistant/message')!.data.usage;
			expect({inputTokens: stepUsage.inputTokens, outputTokens: stepUsage.outputTokens}).toEqual(expected.usage);
			const followUp = expected.calls.length > 0;
			expect(server.requests).toHaveLength(followUp ? 2 : 1);
			const turnUsage = {inputTokens: expected.usage.inputTokens + (followUp ? 10 : 0), outputTokens: expected.usage.outputTokens + (followUp ? 5 : 0)};
			expect(turn.usage === null ? null : {inputTokens: turn.usage!.inputTokens, outputTokens: turn.usage!.outputTokens}).toEqual(turnUsage.inputTokens + turnUsage.outputTokens === 0 ? null : turnUsage);

			if (followUp) {
				expect(answers.at(-1)!.text).toBe('done');
			}
		} finally {
			await server?.close();
		}
	}, 120_000);
});
