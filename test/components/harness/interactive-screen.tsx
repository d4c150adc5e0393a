/**
@module The real interactive app (InteractiveApp over the live session core, with the native driver,
over a real session with the reference tools) rendered by Ink into a FakeTty, in a fixed directory
with a frozen clock, so screens are byte-for-byte repeatable.
*/
import {mkdir, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {render} from 'ink';
import {InteractiveApp} from '../../../components/InteractiveApp.js';
import type {AskRule} from '../../../src/config/approval-rules.js';
import {LiveSession, sessionFeeds, type LiveSessionOptions} from '../../../src/live/live-session.js';
import {nativeDriver} from '../../../src/live/native-driver.js';
import {openSession, type OpenedSession} from '../../../src/host/open-session.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import {Approvals} from '../../../src/host/approvals.js';
import {agentAskRules, SessionMode, type SessionModeName} from '../../../src/host/session-mode.js';
import {createAgent, type CreatedAgent} from '../../../src/agent/create-agent.js';
import {resolveModel} from '../../../src/agent/model-client.js';
import type {ModelClient} from '../../../src/agent/model-types.js';
import type {RetryPolicy} from '../../../src/agent/retry-policy.js';
import {modelTurns} from '../../../src/host/agent-turns.js';
import {startFakeModelServer, type FakeAnswer, type FakeModelServer} from '../../fixtures/fake-model-server.mjs';
import type {AttentionOptions} from '../../../components/attention.js';
import type {PromptCommand} from '../../../src/live/commands/prompt-command.js';
import {FakeStdin, FakeTty} from './fake-terminal.js';

/** A model for the session: the fake model server answering `script`, retried by `retry`, a silent stream cut after `stallTimeoutMs`. */
export type ScreenAgent = {readonly script: readonly FakeAnswer[]; readonly retry?: RetryPolicy; readonly stallTimeoutMs?: number};

/** The server address the status line names for the fake model server (its real port varies). */
export const SCREEN_MODEL_ENDPOINT = 'http://127.0.0.1:8000/v1';

/** The frozen instant every screen test shows. */
export const FROZEN_NOW = Date.UTC(2026, 0, 15, 9, 30, 0);

export type InteractiveScreen = {
	readonly tty: FakeTty;
	readonly stdin: FakeStdin;
	readonly controller: LiveSession;
	/** The session under the screen: its fold holds the cards as the log records them. */
	readonly session: OpenedSession;
	readonly cwd: string;
	/** The fake model server, when the session has an agent. */
	readonly server?: FakeModelServer;
	/** Type a line and press Enter, then wait until the screen shows `until` (or settles). */
	type(line: string, until?: string): Promise<void>;
	/** Send raw key bytes and settle. */
	press(bytes: string): Promise<void>;
	/** Unmount the screen as Ink does on exit, leaving the session to `close`. */
	unmount(): Promise<void>;
	close(): Promise<void>;
};

/** Start the app at `columns`×`rows` in a fresh fixed directory named after the case. */
export async function startInteractive(name: string, options: {columns?: number; rows?: number; ask?: readonly AskRule[]; files?: Record<string, string>; motion?: boolean; now?: () => number; agent?: ScreenAgent; attention?: AttentionOptions; commands?: readonly PromptCommand[]; clipboardImage?: LiveSessionOptions['clipboardImage']; mode?: SessionModeName; logPath?: string; onExport?: (model: LiveSession) => (() => Promise<string>) | undefined} = {}): Promise<InteractiveScreen> {
	const cwd = join('/tmp', `cardterm-screen-${name}`);
	await rm(cwd, {recursive: true, force: true});
	await mkdir(cwd, {recursive: true});
	for (const [path, text] of Object.entries(options.files ?? {})) {
		// a handful of fixture files
		await writeFile(join(cwd, path), text);
	}

	const now = options.now ?? ((): number => FROZEN_NOW);
	const rules = options.ask ?? [];
	const approvals = new Approvals();
	// With `mode`, the agent's rules are the mode's of the moment (as an interactive session's with a model).
	const mode = options.mode === undefined ? undefined : new SessionMode(options.mode);
	const session = await openSession({
		cwd,
		id: `screen-${name}`,
		now,
		approvals,
		...(options.logPath === undefined ? {} : {logPath: options.logPath}),
		...(mode === undefined ? (rules.length === 0 ? {} : {rules}) : {mode, rules: () => [...rules, ...agentAskRules(mode.current)]}),
	});
	const entries: string[] = [];
	let server: FakeModelServer | undefined;
	let created: CreatedAgent | undefined;
	if (options.agent !== undefined) {
		server = await startFakeModelServer({script: options.agent.script, lifetimeMs: 60_000});
		const resolved = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
		// The status line names the server; a fixed address stands in for the fake server's port, as
		// the clock is frozen: screens stay byte-for-byte repeatable.
		const model: ModelClient = {provider: resolved.provider, model: resolved.model, endpoint: SCREEN_MODEL_ENDPOINT, stream: request => resolved.stream(request)};
		created = await createAgent({cwd, runtime: session.runtime, log: session.log, registry: session.registry, model, jobs: session.jobs, now, images: attachment => session.attachments.bytes(attachment), ...(options.agent.retry === undefined ? {} : {retry: options.agent.retry}), ...(options.agent.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: options.agent.stallTimeoutMs})});
	}

	const controller = new LiveSession({
		cwd,
		...sessionFeeds(session),
		driver: nativeDriver({
			session,
			cwd,
			...(created === undefined ? {} : {agent: modelTurns(created.loop, '--model', () => {
				throw new Error('no other model in a screen test');
			})}),
			shutdown: async () => {
				created?.dispose();
				await session.close();
			},
		}),
		history: {entries, add: line => entries.push(line)},
		...(options.commands === undefined ? {} : {commands: options.commands}),
		...(options.clipboardImage === undefined ? {} : {clipboardImage: options.clipboardImage}),
	});

	const onExport = options.onExport?.(controller);
	const tty = new FakeTty(options.columns ?? 80, options.rows ?? 24);
	const stdin = new FakeStdin();
	const frameListeners = new Set<() => void>();
	const instance = render(
		<InteractiveApp
			model={controller}
			theme={colorTheme}
			color
			hyperlinks={false}
			motion={options.motion ?? false}
			now={now}
			{...(options.attention === undefined ? {} : {attention: options.attention})}
			{...(onExport === undefined ? {} : {onExport})}
			onFrame={listener => {
				frameListeners.add(listener);
				return () => frameListeners.delete(listener);
			}}
		/>,
		{
			stdout: tty as unknown as NodeJS.WriteStream,
			stdin: stdin as unknown as NodeJS.ReadStream,
			stderr: tty as unknown as NodeJS.WriteStream,
			exitOnCtrlC: false,
			patchConsole: false,
			onRender() {
				for (const listener of [...frameListeners]) {
					listener();
				}
			},
		},
	);
	// Asked for at once: an app that exits on its own before `close` (a session closing) still settles it.
	const exited = instance.waitUntilExit().catch(() => undefined);
	await tty.settle();
	const settled = controller;
	return {
		tty,
		stdin,
		controller: settled,
		session,
		cwd,
		...(server === undefined ? {} : {server}),
		async type(line, until) {
			stdin.send(`${line}\r`);
			await (until === undefined ? tty.settle() : tty.waitForText(until));
		},
		async press(bytes) {
			stdin.send(bytes);
			await tty.settle();
		},
		async unmount() {
			instance.unmount();
			await exited;
		},
		async close() {
			await settled.close();
			instance.unmount();
			await exited;
			await server?.close();
			await rm(cwd, {recursive: true, force: true});
		},
	};
}
