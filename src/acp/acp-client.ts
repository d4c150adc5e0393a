/**
@module cardterm as an ACP client: it starts the agent (`agent-process.ts`), speaks ACP over its stdio
with the SDK's client side, serves the client methods it advertises (files and terminals inside the
workspace, permission requests through `approve`), and records everything as events
(`acp-events.ts`). What it advertises is exactly what it serves: `fs.readTextFile`,
`fs.writeTextFile` and `terminal`.
*/
import type {ImageAttachment} from '../tools/content.js';
import {isJsonObject} from '../json/is-plain-record.js';
import {basename} from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import {plainPrompt, type UserPrompt} from '../session/events/user-prompt.js';
import {acpPromptBlocks} from './acp-prompt.js';
import {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import {spawnAgent, type AgentExit, type AgentProcess} from './agent-process.js';
import {AcpEvents, type EventSink} from './acp-events.js';
import {AcpFiles} from './acp-files.js';
import {AcpTerminals} from './acp-terminals.js';
import {OutgoingRequests, readFrames} from './frame-reader.js';
import type {FrameTrace} from './frame-trace.js';
import {writeFrames} from './frame-writer.js';
import {IncomingRequests} from './incoming-requests.js';

const {methods, RequestError} = acp;

/** A permission option as the agent offered it. */
export type PermissionChoice = {readonly optionId: string; readonly name: string; readonly kind: string};

/** What the approval dialog is asked: the call's title and the agent's options. */
export type PermissionQuestion = {readonly approvalId: string; readonly callId: string; readonly title: string; readonly options: readonly PermissionChoice[]; readonly signal: AbortSignal};

/** The person's answer: the chosen option's id, or undefined (the request was cancelled). */
export type ApproveCallback = (question: PermissionQuestion) => Promise<string | undefined>;

/** An authentication method the agent offers. */
export type AuthChoice = {readonly id: string; readonly name: string; readonly description?: string};

export type AcpClientOptions = {
	readonly command: string;
	readonly args: readonly string[];
	/** The workspace: the agent's cwd, `session/new`'s cwd, and the reach of fs and terminals. */
	readonly cwd: string;
	readonly log: EventSink;
	readonly approve: ApproveCallback;
	/** The agent asks to authenticate: choose one of its methods (undefined: do not). Default: none. */
	readonly authenticate?: (choices: readonly AuthChoice[]) => Promise<string | undefined>;
	/** The agent's environment (default: this process's, provider keys included: the agent is the person's program). */
	readonly env?: NodeJS.ProcessEnv;
	/** The environment of the commands the agent runs in cardterm's terminals (default: this process's). */
	readonly commandEnv?: NodeJS.ProcessEnv;
	/** How long a cancelled prompt may go unanswered before the turn is ended here. */
	readonly cancelGraceMs?: number;
	readonly clientVersion?: string;
	/** Every frame in and out, for checking what an agent sends (`CARDTERM_ACP_TRACE`); closed with the client. */
	readonly trace?: FrameTrace;
	/** How long the agent may take to answer `initialize` before the start fails (default `INIT_TIMEOUT_MS`). */
	readonly initTimeoutMs?: number;
	/** A start step (`initialize`, `session/new`, …) has waited `WAITING_NOTICE_MS` for the agent: say what cardterm waits for. */
	readonly onWaiting?: (message: string) => void;
	/**
	The person's MCP servers, handed to the agent in `session/new` and `session/load` so it has the
	tools it has when run alone: stdio ones always, HTTP and SSE ones when its \`mcpCapabilities\`
	say it takes them (the others are named in a notice).
	*/
	readonly mcpServers?: readonly acp.McpServer[];
};

/** What the agent said about itself at `initialize`. */
/** What the agent said about itself at `initialize`; `images`: its prompt capabilities take image blocks (`promptCapabilities.image`). */
export type AgentFacts = {readonly name: string; readonly canLoad: boolean; readonly sessionId: string;
	/** The agent takes embedded resources in a prompt (`promptCapabilities.embeddedContext`); else `@` references go as links. */
	readonly embeddedContext: boolean;
	readonly images?: boolean;
	readonly modes?: {readonly current: string; readonly available: readonly string[]}};

/** An image of the person's prompt: its reference in the log, and its bytes for the agent. */
export type PromptImage = {readonly attachment: ImageAttachment; readonly data: Uint8Array};

/** How a prompt turn ended, for a caller (exit code of `-p`). */
export type PromptOutcome = {readonly stopReason: string} | {readonly error: string};

/** Raised when the agent refuses to start a session; its message says why. */
export class AcpStartError extends Error {
	override readonly name = 'AcpStartError';
}

const DEFAULT_CANCEL_GRACE_MS = 3000;
/** How long `initialize` may go unanswered: the handshake an agent answers once it runs (`npx` fetching the agent on its first run included). */
export const INIT_TIMEOUT_MS = 60_000;
/** How long a start step waits before `onWaiting` says what for (so a slow start is no blank screen). */
export const WAITING_NOTICE_MS = 2000;

/** Waits for a settled promise at most `ms` (the agent's exit after its stdout closed). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const result = await Promise.race([promise, new Promise<undefined>(resolve => {
		timer = setTimeout(() => {
			resolve(undefined);
		}, ms);
	})]);
	clearTimeout(timer);
	return result;
}

/** How the agent ended, in a line. */
export function describeExit(exit: AgentExit): string {
	if (exit.error !== undefined) {
		return `the agent could not be started: ${exit.error.message}`;
	}

	return exit.signal === null ? `the agent exited with code ${exit.exitCode ?? 'unknown'}` : `the agent was killed by ${exit.signal}`;
}

export class AcpClient {
	readonly events: AcpEvents;
	readonly #options: AcpClientOptions;
	readonly #agent: AgentProcess;
	readonly #terminals: AcpTerminals;
	readonly #connection: acp.ClientConnection;
	readonly #incoming = new IncomingRequests();
	#facts: AgentFacts | undefined;
	#exit: AgentExit | undefined;
	/** Set while a prompt runs: how to end it here when the agent does not answer a cancel. */
	#running: {readonly abort: AbortController; cancelTimer?: ReturnType<typeof setTimeout>} | undefined;
	/** Notes from cardterm for the agent (what `/undo` took back), sent before the person's next prompt. */
	readonly #notes: string[] = [];
	/** What a file write or a terminal's command waits for before it starts (the turn's snapshot for `/undo`). */
	#beforeChange: (() => Promise<void>) | undefined;
	/** Permission questions waiting for the person; a cancel answers them `cancelled`. */
	readonly #asking = new Set<AbortController>();
	#closed = false;

	private constructor(options: AcpClientOptions) {
		this.#options = options;
		const guard = new WorkspaceGuard({workspace: options.cwd});
		this.#terminals = new AcpTerminals(guard, {
			onOutput: (terminalId, text) => {
				this.events.terminalOutput(terminalId, text);
			},
			onRefused: message => {
				this.#refusedTerminal(message);
			},
			...(options.commandEnv === undefined ? {} : {env: options.commandEnv}),
		});
		this.events = new AcpEvents(options.log, {
			terminalOutput: terminalId => this.#terminals.snapshot(terminalId),
			onMessageCut: () => {
				this.cancel();
			},
		});
		const files = new AcpFiles(guard, this.events);
		this.#agent = spawnAgent(options.command, options.args, {cwd: options.cwd, ...(options.env === undefined ? {} : {env: options.env})});
		const app = acp.client({name: 'cardterm'})
			.onRequest(methods.client.session.requestPermission, async ({params, signal}) => this.#permission(params, signal))
			// Answers that may be megabytes are built one at a time, each once the agent took the one before.
			.onRequest(methods.client.fs.readTextFile, async ({params, requestId}) => this.#incoming.large(requestId, async () => files.readTextFile(params)))
			.onRequest(methods.client.fs.writeTextFile, async ({params, signal}) => {
				await this.#beforeChange?.();
				return files.writeTextFile(params, signal);
			})
			.onRequest(methods.client.terminal.create, async ({params}) => {
				await this.#beforeChange?.();
				return this.#terminals.create(params);
			})
			.onRequest(methods.client.terminal.output, async ({params, requestId}) => this.#incoming.large(requestId, () => this.#terminals.output(params.terminalId)))
			.onRequest(methods.client.terminal.waitForExit, async ({params}) => this.#terminals.waitForExit(params.terminalId))
			.onRequest(methods.client.terminal.kill, ({params}) => this.#terminals.kill(params.terminalId))
			.onRequest(methods.client.terminal.release, ({params}) => this.#terminals.release(params.terminalId));
		// `session/update` goes from the reader to the mapping; everything else through the SDK.
		const {trace} = options;
		const requests = new OutgoingRequests(trace === undefined ? undefined : line => {
			trace.frame('out', line);
		});
		const readable = readFrames(this.#agent.output, {
			requests,
			incoming: this.#incoming,
			...(trace === undefined ? {} : {onLine: (line: string) => {
				trace.frame('in', line);
			}}),
			onMalformed: frame => {
				this.events.notice(`skipped a frame from the agent that is ${frame.reason}: ${frame.preview}`);
			},
			onUpdate: params => {
				this.events.update(isJsonObject(params) ? params.update : undefined);
			},
		});
		const writable = writeFrames(this.#agent.input, message => {
			if (!('method' in message) && 'id' in message) {
				this.#incoming.answered(message.id);
			}
		});
		this.#connection = app.connect({writable: requests.watch(writable), readable});
		void this.#agent.exited.then(exit => {
			this.#exit = exit;
			// Nothing it asked will be taken any more.
			this.#incoming.close();
		});
	}

	/** Start the agent, `initialize`, authenticate if it asks, and open (or load) a session. */
	static async start(options: AcpClientOptions & {readonly resume?: string; readonly signal?: AbortSignal}): Promise<AcpClient> {
		const client = new AcpClient(options);
		// Ctrl+C while the agent starts (pi-acp's session/new can hang): its tree is stopped, the start fails with its exit.
		const stop = (): void => {
			void client.kill();
		};

		options.signal?.addEventListener('abort', stop, {once: true});
		try {
			if (options.signal?.aborted === true) {
				throw new AcpStartError('cancelled before the agent started');
			}

			await client.#start(options.resume);
		} catch (error) {
			await client.close();
			throw error;
		} finally {
			options.signal?.removeEventListener('abort', stop);
		}

		return client;
	}

	get facts(): AgentFacts {
		if (this.#facts === undefined) {
			throw new Error('AcpClient: not started');
		}

		return this.#facts;
	}

	/** The agent's process id (undefined when it could not be started). */
	get pid(): number | undefined {
		return this.#agent.pid;
	}

	/** Resolves when the agent's process has exited. */
	get exited(): Promise<AgentExit> {
		return this.#agent.exited;
	}

	/** The agent's stderr, last bytes. */
	stderrTail(): string {
		return this.#agent.stderrTail();
	}

	async #start(resume: string | undefined): Promise<void> {
		const init = await this.#startStep(this.#connection.agent.request(methods.agent.initialize, {
			protocolVersion: acp.PROTOCOL_VERSION,
			clientCapabilities: {fs: {readTextFile: true, writeTextFile: true}, terminal: true, session: {compaction: {}}},
			clientInfo: {name: 'cardterm', version: this.#options.clientVersion ?? '0'},
		}), 'initialize', this.#options.initTimeoutMs ?? INIT_TIMEOUT_MS);
		const name = init.agentInfo?.name ?? this.#options.command;
		this.events.named(name);
		const canLoad = init.agentCapabilities?.loadSession === true;
		const mcpServers = agentMcpServers(this.#options.mcpServers ?? [], init.agentCapabilities?.mcpCapabilities ?? undefined);
		if (mcpServers.skipped.length > 0) {
			this.events.notice(`MCP servers not given to ${name}: ${mcpServers.skipped.join('; ')}`);
		}

		const auth: AuthChoice[] = (init.authMethods ?? []).map(method => ({id: method.id, name: method.name, ...(typeof method.description === 'string' ? {description: method.description} : {})}));
		const open = async (): Promise<{sessionId: string; modes?: acp.SessionModeState | null}> => {
			if (resume === undefined) {
				return this.#startStep(this.#connection.agent.request(methods.agent.session.new, {cwd: this.#options.cwd, mcpServers: mcpServers.passed}), 'session/new');
			}

			if (!canLoad) {
				throw new AcpStartError(`${name} cannot load a session (it does not advertise loadSession)`);
			}

			const loaded = await this.#startStep(this.#connection.agent.request(methods.agent.session.load, {sessionId: resume, cwd: this.#options.cwd, mcpServers: mcpServers.passed}), 'session/load');
			this.events.endHistory();
			return {sessionId: resume, modes: loaded?.modes ?? null};
		};

		let session: {sessionId: string; modes?: acp.SessionModeState | null};
		try {
			session = await open();
		} catch (error) {
			if (!(error instanceof RequestError) || error.code !== -32_000) {
				throw error;
			}

			session = await this.#authenticate(name, auth, open);
		}

		const modes = session.modes ?? undefined;
		const embeddedContext = init.agentCapabilities?.promptCapabilities?.embeddedContext === true;
		const images = init.agentCapabilities?.promptCapabilities?.image === true;
		this.#facts = {name, canLoad, sessionId: session.sessionId, embeddedContext, ...(images ? {images} : {}), ...(modes === undefined ? {} : {modes: {current: modes.currentModeId, available: modes.availableModes.map(mode => mode.id)}})};
		// The command's file name only (its arguments may hold secrets): `--resume` without an id finds the session by it.
		this.#options.log.emit({type: 'acp/session', data: {agent: name, sessionId: session.sessionId, canLoad, command: basename(this.#options.command), ...(modes === undefined ? {} : {modeId: modes.currentModeId})}, ignorable: true});
	}

	async #authenticate<T>(name: string, choices: readonly AuthChoice[], open: () => Promise<T>): Promise<T> {
		const wanted = choices.length === 0 ? 'but offers no method' : `with one of: ${choices.map(choice => `${choice.name} (${choice.id})${choice.description === undefined ? '' : ` — ${choice.description}`}`).join('; ')}`;
		this.events.notice(`${name} asks to authenticate ${wanted}`);
		const methodId = choices.length === 0 ? undefined : await this.#options.authenticate?.(choices);
		if (methodId === undefined) {
			throw new AcpStartError(`${name} asks to authenticate ${wanted}`);
		}

		await this.#untilExit(this.#connection.agent.request(methods.agent.authenticate, {methodId}), 'authenticate');
		return open();
	}

	/** Hold each `fs/write_text_file` and `terminal/create` until `wait` resolves (the workspace's snapshot before they change it). */
	waitBeforeChanges(wait: () => Promise<void>): void {
		this.#beforeChange = wait;
	}

	/**
	Tell the agent `text` with the person's next prompt: ACP has no message of the client's own, so the
	note travels as a text block before the prompt, marked as cardterm's and not the person's request.
	*/
	note(text: string): void {
		this.#notes.push(`<system-reminder>\nA note from cardterm, not a message from the person: it is not a new request.\n\n${text.replace(/<(\/?)(system-reminder)/gi, '&lt;$1$2')}\n</system-reminder>`);
	}

	/**
	Switch the agent to one of the modes it announced (`session/set_mode`); recorded once it agreed.
	Rejects with the agent's error, or when it announced no such mode.
	*/
	async setMode(modeId: string, by: 'key' | 'command'): Promise<void> {
		const {sessionId, modes} = this.facts;
		if (modes === undefined || !modes.available.includes(modeId)) {
			throw new Error(modes === undefined ? 'the agent announced no modes' : `the agent has no mode "${modeId}" (its modes: ${modes.available.join(', ')})`);
		}

		await this.#untilExit(this.#connection.agent.request(methods.agent.session.setMode, {sessionId, modeId}), 'session/set_mode');
		this.events.mode(modeId, by);
	}

	/**
	One prompt turn: the person's message (with what its `@` references attached) and images, what the
	agent streams, and how it ended. Never rejects for the agent's failures; rejects, recording nothing,
	when the agent takes no images (`promptCapabilities.image` is not true: ACP says a client must not
	send it image blocks then).
	*/
	async prompt(message: string | UserPrompt, images: readonly PromptImage[] = []): Promise<PromptOutcome> {
		if (this.#running !== undefined) {
			throw new Error('AcpClient: a prompt is already running');
		}

		const {sessionId, embeddedContext, name} = this.facts;
		if (images.length > 0 && this.facts.images !== true) {
			throw new Error(`${name} takes no images (its promptCapabilities.image is not true): the message was not sent; send it without the image`);
		}

		const {blocks, sent} = acpPromptBlocks(typeof message === 'string' ? plainPrompt(message) : message, embeddedContext);
		this.events.startTurn(sent, images.map(image => image.attachment));
		const abort = new AbortController();
		this.#running = {abort};
		let outcome: PromptOutcome;
		try {
			if (this.#exit !== undefined) {
				throw new Error(describeExit(this.#exit));
			}

			const words = blocks.length === 1 && sent.text === '' && images.length > 0 ? [] : blocks;
			const prompt: acp.ContentBlock[] = [
				...this.#notes.splice(0).map(note => ({type: 'text' as const, text: note})),
				...words,
				...images.map(image => ({type: 'image' as const, mimeType: image.attachment.mediaType, data: Buffer.from(image.data).toString('base64')})),
			];
			const response = await this.#untilExit(this.#connection.agent.request(methods.agent.session.prompt, {sessionId, prompt}, {cancellationSignal: abort.signal, stopWaitingOnCancel: true}), 'session/prompt');
			outcome = {stopReason: response.stopReason};
		} catch (error) {
			outcome = abort.signal.aborted ? {stopReason: 'cancelled'} : {error: error instanceof Error ? error.message : String(error)};
			if (abort.signal.aborted) {
				this.events.notice('the agent did not answer the cancel in time; the turn was ended here');
			}
		} finally {
			clearTimeout(this.#running.cancelTimer);
			this.#running = undefined;
		}

		this.events.endTurn(outcome);
		return outcome;
	}

	/** Esc / Ctrl+C: ask the agent to stop (`session/cancel`); a turn it does not end in time is ended here. */
	cancel(): void {
		const running = this.#running;
		for (const asking of this.#asking) {
			asking.abort();
		}

		if (running === undefined || running.cancelTimer !== undefined || this.#facts === undefined) {
			return;
		}

		void this.#connection.agent.notify(methods.agent.session.cancel, {sessionId: this.#facts.sessionId}).catch(() => {});
		running.cancelTimer = setTimeout(() => {
			running.abort.abort();
		}, this.#options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS);
	}

	/** The second Ctrl+C: stop the agent's whole process tree now (a running prompt then fails with the agent's exit). */
	async kill(): Promise<void> {
		await this.#agent.kill(0);
	}

	/** End the session: commands in terminals stop, the connection closes, the agent's tree is stopped. */
	async close(): Promise<void> {
		if (this.#closed) {
			return;
		}

		this.#closed = true;
		for (const asking of this.#asking) {
			asking.abort();
		}

		await this.#terminals.dispose();
		this.#connection.close();
		this.#incoming.close();
		await this.#agent.kill();
		await this.#agent.exited;
		await this.#options.trace?.close();
	}

	/**
	A request of the start, said to be awaited after `WAITING_NOTICE_MS`, and failed after `limitMs`
	(when given) naming the agent's command and the step. Steps after `initialize` are not bounded:
	an agent may start its tools' servers in `session/new`, and Ctrl+C stops a start that hangs.
	*/
	async #startStep<T>(request: Promise<T>, method: string, limitMs?: number): Promise<T> {
		const agent = [this.#options.command, ...this.#options.args].join(' ');
		const waiting = setTimeout(() => {
			this.#options.onWaiting?.(`waiting for ${agent} to answer ${method}${limitMs === undefined ? '' : ` (gives up after ${limitMs / 1000} s)`}; Ctrl+C stops it`);
		}, WAITING_NOTICE_MS);
		let limit: ReturnType<typeof setTimeout> | undefined;
		const late = new Promise<never>((_resolve, reject) => {
			if (limitMs !== undefined) {
				limit = setTimeout(() => {
					reject(new AcpStartError(`${agent} did not answer ${method} within ${limitMs / 1000} s: is it an ACP agent speaking on its stdio? (a slow one: --init-timeout SECONDS)`));
				}, limitMs);
			}
		});
		try {
			return await Promise.race([this.#untilExit(request, method), late]);
		} finally {
			clearTimeout(waiting);
			clearTimeout(limit);
		}
	}

	/** A request to the agent, rejected with the agent's exit (stderr tail included) when it dies first. */
	async #untilExit<T>(request: Promise<T>, method: string): Promise<T> {
		const died = this.#agent.exited.then(exit => ({exit}));
		const result = await Promise.race([request.then(value => ({value}), (error: unknown) => ({error})), died]);
		if ('value' in result) {
			return result.value;
		}

		// A closed connection usually means the agent is going: wait for its exit to say how.
		const exit = 'exit' in result ? result.exit : await within(this.#agent.exited, 500);
		if (exit === undefined) {
			throw (result as {error: unknown}).error;
		}

		this.#reportExit(exit);
		throw new Error(`${describeExit(exit)} during ${method}`);
	}

	#exitReported = false;
	#refusalShown = false;

	/** A refused terminal as a notice, the first of a session only (an agent may insist a thousand times). */
	#refusedTerminal(message: string): void {
		if (!this.#refusalShown) {
			this.#refusalShown = true;
			this.events.notice(`refused the agent a terminal: ${message} (further refusals are not shown)`);
		}
	}

	/** The agent's exit as a notice: how it ended and the tail of its stderr. */
	#reportExit(exit: AgentExit): void {
		if (this.#exitReported || this.#closed) {
			return;
		}

		this.#exitReported = true;
		const tail = this.#agent.stderrTail().trimEnd();
		this.events.notice(tail === '' ? describeExit(exit) : `${describeExit(exit)}; its stderr ended with:\n${tail}`);
	}

	async #permission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
		const options: PermissionChoice[] = params.options.map(option => ({optionId: option.optionId, name: option.name, kind: option.kind}));
		const approvalId = this.events.askPermission(params.toolCall, options);
		const asking = new AbortController();
		const stop = (): void => {
			asking.abort();
		};

		signal.addEventListener('abort', stop, {once: true});
		this.#asking.add(asking);
		let chosen: string | undefined;
		try {
			chosen = asking.signal.aborted ? undefined : await this.#options.approve({
				approvalId,
				callId: params.toolCall.toolCallId,
				title: params.toolCall.title ?? 'tool call',
				options,
				signal: asking.signal,
			});
		} catch {
			chosen = undefined;
		} finally {
			signal.removeEventListener('abort', stop);
			this.#asking.delete(asking);
		}

		const option = asking.signal.aborted ? undefined : options.find(each => each.optionId === chosen);
		this.events.decidePermission(approvalId, option?.kind);
		return option === undefined ? {outcome: {outcome: 'cancelled'}} : {outcome: {outcome: 'selected', optionId: option.optionId}};
	}
}

/** The option `--yolo` (and a yes-to-all answer) picks: allow once, else allow always. */
export function allowOption(options: readonly PermissionChoice[]): PermissionChoice | undefined {
	return options.find(option => option.kind === 'allow_once') ?? options.find(option => option.kind === 'allow_always');
}

/** The option a non-interactive run without `--yolo` picks: reject once, else reject always. */
export function rejectOption(options: readonly PermissionChoice[]): PermissionChoice | undefined {
	return options.find(option => option.kind === 'reject_once') ?? options.find(option => option.kind === 'reject_always');
}

/** The servers the agent takes (stdio always; http and sse as its capabilities say), and why the others are not passed. */
export function agentMcpServers(servers: readonly acp.McpServer[], capabilities: acp.McpCapabilities | undefined): {readonly passed: acp.McpServer[]; readonly skipped: string[]} {
	const passed: acp.McpServer[] = [];
	const skipped: string[] = [];
	for (const server of servers) {
		const type = 'type' in server ? server.type : 'stdio';
		if (type === 'stdio' || (type === 'http' && capabilities?.http === true) || (type === 'sse' && capabilities?.sse === true)) {
			passed.push(server);
		} else {
			skipped.push(`${server.name} (the agent does not take ${type} servers)`);
		}
	}

	return {passed, skipped};
}
