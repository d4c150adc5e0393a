/**
An agent session against the fake model server: a temporary workspace, a session with its log, the
model resolved through `--base-url`, and helpers to read back what the log says.
*/
import {existsSync, readFileSync} from 'node:fs';
import {mkdtemp, rm, writeFile, mkdir} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {expect} from 'vitest';
import {loadInstructions} from '../../src/host/instruction-files.js';
import {createAgent, type CreateAgentOptions, type CreatedAgent} from '../../src/agent/create-agent.js';
import {resolveModel} from '../../src/agent/model-client.js';
import type {ModelClient} from '../../src/agent/model-types.js';
import type {RetryPolicy} from '../../src/agent/retry-policy.js';
import {openSession, type OpenedSession, type OpenSessionOptions} from '../../src/host/open-session.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import type {TranscriptEntry} from '../../src/presentation/entry.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {startFakeModelServer, type FakeAnswer, type FakeModelServer, type FakeRequest} from '../fixtures/fake-model-server.mjs';

/** Retries without waiting: the jitter is pinned and the delays are a few ms. */
export const quickRetries: RetryPolicy = {maxRetries: 2, baseDelayMs: 1, maxDelayMs: 4, random: () => 0};

export type AgentHarness = {
	readonly server: FakeModelServer;
	readonly session: OpenedSession;
	readonly agent: CreatedAgent;
	readonly workspace: string;
	readonly logPath: string;
	/** Every event the session emitted, in order. */
	readonly events: SessionEvent[];
	/** Run one turn. */
	turn(prompt: string, signal?: AbortSignal): ReturnType<CreatedAgent['loop']['runTurn']>;
	/** Close everything; returns the live entries (a copy) and the entries a replay of the log folds to. */
	finish(): Promise<{live: TranscriptEntry[]; replay: TranscriptEntry[]; replayEvents: SessionEvent[]}>;
};

export async function agentHarness(options: {
	readonly script: readonly FakeAnswer[] | ((request: FakeRequest['body'], index: number) => FakeAnswer);
	readonly files?: Record<string, string>;
	readonly session?: Partial<OpenSessionOptions>;
	readonly retry?: RetryPolicy;
	readonly maxSteps?: number;
	/** The model, given the fake server's URL (default: an OpenAI-compatible one through `--base-url`). */
	readonly model?: (url: string) => ModelClient;
	/** The agent's other options (stall timeout, long waits, the context-overflow hook). */
	readonly agent?: Pick<CreateAgentOptions, 'stallTimeoutMs' | 'longWaits' | 'onContextOverflow' | 'context' | 'history'>;
}): Promise<AgentHarness> {
	const server = await startFakeModelServer({script: options.script, lifetimeMs: 60_000});
	const workspace = await mkdtemp(join(tmpdir(), 'cardterm-agent-'));
	const logDir = await mkdtemp(join(tmpdir(), 'cardterm-agent-log-'));
	const logPath = join(logDir, 'session.jsonl');
	for (const [name, text] of Object.entries(options.files ?? {})) {
		await mkdir(dirname(join(workspace, name)), {recursive: true});
		await writeFile(join(workspace, name), text);
	}

	const session = await openSession({cwd: workspace, logPath, ...options.session});
	const events: SessionEvent[] = [];
	session.log.listen(event => events.push(event));
	const model = options.model?.(server.url) ?? resolveModel({spec: 'fake-model', baseUrl: server.url, env: {OPENAI_API_KEY: 'test-key'}});
	const agent = await createAgent({
		cwd: workspace,
		runtime: session.runtime,
		log: session.log,
		registry: session.registry,
		model,
		jobs: session.jobs,
		// The workspace's instruction files as a session loads them; no user file (the config folder is inside the workspace and empty).
		instructions: await loadInstructions(workspace, {XDG_CONFIG_HOME: join(workspace, '.no-config')}),
		retry: options.retry ?? quickRetries,
		...(options.maxSteps === undefined ? {} : {maxSteps: options.maxSteps}),
		...options.agent,
	});
	return {
		server,
		session,
		agent,
		workspace,
		logPath,
		events,
		turn: async (prompt, signal = new AbortController().signal) => agent.loop.runTurn(prompt, {signal}),
		async finish() {
			const live = [...session.fold.entries];
			agent.dispose();
			await session.close();
			await server.close();
			const log = await openSessionLog(logPath);
			const replay = new SessionFold(referencePresenters(workspace));
			const replayEvents: SessionEvent[] = [];
			for await (const event of log.events) {
				replay.apply(event);
				replayEvents.push(event);
			}

			expect(log.diagnostics).toEqual([]);
			await rm(workspace, {recursive: true, force: true});
			await rm(logDir, {recursive: true, force: true});
			return {live, replay: [...replay.entries], replayEvents};
		},
	};
}

/** An Anthropic Messages model against the fake server (its `/messages` route replays Anthropic streams). */
export const anthropicAt = (url: string): ModelClient => resolveModel({spec: 'anthropic:claude-fable-5', baseUrl: url, env: {ANTHROPIC_API_KEY: 'test-key'}});

/** A Gemini model against the fake server (its `:streamGenerateContent` route replays Gemini streams). */
export const geminiAt = (url: string): ModelClient => resolveModel({spec: 'google:gemini-2.5-flash', baseUrl: url, env: {GEMINI_API_KEY: 'test-key'}});

/** A recorded stream of `../shared/wire-fixtures/` (one JSON document per line), or undefined when the folder is absent. */
export function wireFixture(path: string): unknown[] | undefined {
	const file = join(SHARED_FIXTURES, path);
	if (!existsSync(file)) {
		return undefined;
	}

	return readFileSync(file, 'utf8').split('\n').filter(line => line.trim() !== '').map(line => JSON.parse(line) as unknown);
}

/** Where the recorded provider streams are (reference material beside the project, never committed into it). */
export const SHARED_FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'wire-fixtures');
/** Why a test that replays them is skipped. */
export const NO_FIXTURES = `the recorded provider streams are not at ${SHARED_FIXTURES} (../shared/wire-fixtures beside the checkout)`;

/** The events of `types`, in order, as `type` or `type:detail` strings a test can read. */
export function eventTrail(events: readonly SessionEvent[], types: readonly string[] = ['turn/start', 'step/start', 'user/message', 'assistant/message', 'tool/call', 'tool/result', 'llm/retry', 'todo/write', 'approval/asked', 'approval/decided', 'step/end', 'turn/end']): string[] {
	const trail: string[] = [];
	for (const event of events) {
		if (!types.includes(event.type)) {
			continue;
		}

		const data = event.data as Record<string, any>;
		switch (event.type) {
			case 'tool/call': {
				trail.push(`call ${data.name}`);
				break;
			}

			case 'tool/result': {
				const block = data.message.content[0];
				trail.push(`result ${block.toolCallId}${block.isError ? ` error${data.error === undefined ? '' : ` ${data.error.code}`}` : ''}`);
				break;
			}

			case 'turn/end': {
				trail.push(`turn/end ${data.reason.kind}`);
				break;
			}

			case 'step/start': {
				trail.push(`step ${data.step}`);
				break;
			}

			case 'user/message': {
				trail.push(`user(${data.source.kind}) ${JSON.stringify(data.content[0]?.text ?? '')}`);
				break;
			}

			case 'assistant/message': {
				trail.push(`assistant${data.interrupted ? ' interrupted' : ''}`);
				break;
			}

			default: {
				if (event.type !== 'step/end' && event.type !== 'turn/start') {
					trail.push(event.type);
				}
			}
		}
	}

	return trail;
}

/** The tool-role messages of a request the fake server received: `[tool_call_id, content]`. */
export function toolMessages(request: FakeRequest): Array<[string, string]> {
	return request.body.messages.filter(message => message.role === 'tool').map(message => [message.tool_call_id ?? '', String(message.content)]);
}
