/**
@module The client's `terminal/*` methods: a command the agent asks for runs as a bash command does
(`shell-process.ts`: its own process group, every process it started stopped when it ends or is
killed, the environment commands get), its cwd is held to the workspace, and its output is kept as
a tail of at most `outputByteLimit` bytes (ACP truncates from the beginning, at a character
boundary; `truncated` says so).

What an agent can make cardterm hold is bounded: at most `MAX_TERMINALS` terminals not released
(each is a process tree to stop), and `TOTAL_OUTPUT_BYTES` of output kept by all of them together,
the released ones a card may still show included (those go first when room is needed). A terminal
gets the limit it asks for, or what room is left; with less than `MIN_OUTPUT_BYTES` left, or past
the count, `terminal/create` is refused with an error naming the limit and saying to release one.
A terminal's process is read for as long as it runs, whoever asks for its output: ACP keeps the
tail, and an agent waiting for the exit of a command that prints more than its limit must get it.
*/
import {RequestError} from '@agentclientprotocol/sdk';
import {startShell, type ShellExit, type ShellProcess} from '../builtin/bash/shell-process.js';
import {TailBuffer} from '../builtin/bash/tail-buffer.js';
import {FsError} from '../builtin/workspace/fs-error.js';
import type {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import type {AcpTerminalOutput} from './tool-call-state.js';

/** Output kept per terminal when the agent names no limit. */
const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** Largest limit an agent may ask for (it is memory this process holds). */
export const MAX_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;
/** Terminals an agent may hold at once (created and not released). */
export const MAX_TERMINALS = 64;
/** Output all terminals keep together, released ones a card may still show included. */
export const TOTAL_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Least a terminal keeps: with less room left, it is refused. */
export const MIN_OUTPUT_BYTES = 64 * 1024;

/** Released terminals whose output a card may still ask for. */
const RELEASED_KEPT = 16;

const TIMING = {killGraceMs: 2000, drainGraceMs: 200};

type Terminal = {
	readonly shell: ShellProcess;
	readonly buffer: TailBuffer;
	exit: ShellExit | undefined;
	readonly exited: Promise<ShellExit>;
};

/** A request's `{name, value}` environment as shell assignments, for names a shell accepts. */
function envPrefix(env: ReadonlyArray<{readonly name: string; readonly value: string}>): string {
	const parts: string[] = [];
	for (const {name, value} of env) {
		if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
			throw RequestError.invalidParams(undefined, `environment variable name ${JSON.stringify(name)} is not one a shell accepts`);
		}

		parts.push(`${name}=${shellQuote(value)}`);
	}

	return parts.length === 0 ? '' : `${parts.join(' ')} `;
}

/** One shell word holding `text` exactly. */
function shellQuote(text: string): string {
	return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll('\'', '\'\\\'\'')}'`;
}

/** The exit status in ACP's shape. */
function exitStatus(exit: ShellExit): {exitCode: number | null; signal: string | null} {
	return {exitCode: exit.exitCode, signal: exit.signal};
}

const MIB = 1024 * 1024;

/** What the terminals tell their owner. */
export type AcpTerminalsOptions = {
	/** Output a terminal printed, as it arrives. */
	readonly onOutput?: (terminalId: string, text: string) => void;
	/** A `terminal/create` was refused (a limit was reached); the message is what the agent was told. */
	readonly onRefused?: (message: string) => void;
	/** The environment of the commands (default: this process's). */
	readonly env?: NodeJS.ProcessEnv;
};

export class AcpTerminals {
	readonly #guard: WorkspaceGuard;
	readonly #terminals = new Map<string, Terminal>();
	/** Released terminals, kept for a card that settles after the release (the last few only). */
	readonly #released = new Map<string, Terminal>();
	readonly #options: AcpTerminalsOptions;
	/** Bytes the buffers of `#terminals` and `#released` hold at most. */
	#held = 0;
	#next = 0;

	constructor(guard: WorkspaceGuard, options: AcpTerminalsOptions = {}) {
		this.#guard = guard;
		this.#options = options;
	}

	async create(request: {readonly command: string; readonly args?: readonly string[] | null; readonly env?: ReadonlyArray<{readonly name: string; readonly value: string}> | null; readonly cwd?: string | null; readonly outputByteLimit?: number | null}): Promise<{terminalId: string}> {
		let cwd: string;
		try {
			cwd = (await this.#guard.resolve(request.cwd ?? this.#guard.workspace)).real;
		} catch (error) {
			throw error instanceof FsError ? RequestError.invalidParams(undefined, error.message) : error;
		}

		const limit = this.#room(Math.min(MAX_OUTPUT_BYTE_LIMIT, Number.isSafeInteger(request.outputByteLimit) && request.outputByteLimit! > 0 ? request.outputByteLimit! : DEFAULT_OUTPUT_BYTE_LIMIT));
		const line = `${envPrefix(request.env ?? [])}${[request.command, ...(request.args ?? [])].map((word, index) => index === 0 && (request.args ?? []).length === 0 ? word : shellQuote(word)).join(' ')}`;
		const terminalId = `term-${++this.#next}`;
		const buffer = new TailBuffer(limit);
		// One decoder per stream: a character split across chunks of one must not meet the other's bytes.
		const reader = (decoder: InstanceType<typeof TextDecoder>) => (chunk: Buffer): void => {
			buffer.push(chunk);
			const text = decoder.decode(chunk, {stream: true});
			if (text !== '') {
				this.#options.onOutput?.(terminalId, text);
			}
		};

		const shell = startShell(line, cwd, {onStdout: reader(new TextDecoder()), onStderr: reader(new TextDecoder())}, TIMING, this.#options.env);
		const terminal: Terminal = {shell, buffer, exit: undefined, exited: shell.exited};
		void shell.exited.then(exit => {
			terminal.exit = exit;
		});
		this.#terminals.set(terminalId, terminal);
		this.#held += limit;
		return {terminalId};
	}

	/** The output limit a new terminal gets (`asked`, or the room left), making room from released terminals; refused past the limits. */
	#room(asked: number): number {
		if (this.#terminals.size >= MAX_TERMINALS) {
			this.#refuse({limit: MAX_TERMINALS}, `cardterm runs at most ${MAX_TERMINALS} terminals at once and ${this.#terminals.size} are not released: release one (terminal/release) before creating another`);
		}

		for (const [terminalId, terminal] of this.#released) {
			if (TOTAL_OUTPUT_BYTES - this.#held >= asked) {
				break;
			}

			this.#released.delete(terminalId);
			this.#held -= terminal.buffer.limit;
		}

		const room = TOTAL_OUTPUT_BYTES - this.#held;
		if (room < Math.min(asked, MIN_OUTPUT_BYTES)) {
			this.#refuse({limit: TOTAL_OUTPUT_BYTES}, `the ${this.#terminals.size} terminals not released keep ${Math.ceil(this.#held / MIB)} MiB of output, all of the ${TOTAL_OUTPUT_BYTES / MIB} MiB cardterm keeps for terminals: release one (terminal/release) before creating another`);
		}

		return Math.min(asked, room);
	}

	#refuse(data: Record<string, unknown>, message: string): never {
		this.#options.onRefused?.(message);
		throw RequestError.invalidRequest(data, message);
	}

	output(terminalId: string): {output: string; truncated: boolean; exitStatus?: {exitCode: number | null; signal: string | null}} {
		const terminal = this.#get(terminalId);
		return {output: terminal.buffer.text(), truncated: terminal.buffer.truncated, ...(terminal.exit === undefined ? {} : {exitStatus: exitStatus(terminal.exit)})};
	}

	async waitForExit(terminalId: string): Promise<{exitCode: number | null; signal: string | null}> {
		return exitStatus(await this.#get(terminalId).exited);
	}

	kill(terminalId: string): Record<string, never> {
		this.#get(terminalId).shell.terminate();
		return {};
	}

	release(terminalId: string): Record<string, never> {
		const terminal = this.#get(terminalId);
		terminal.shell.terminate();
		this.#terminals.delete(terminalId);
		this.#released.set(terminalId, terminal);
		if (this.#released.size > RELEASED_KEPT) {
			const [oldest, dropped] = this.#released.entries().next().value!;
			this.#released.delete(oldest);
			this.#held -= dropped.buffer.limit;
		}

		return {};
	}

	/** What a card shows of a terminal this client runs; `undefined` for an id it never created (or released). */
	snapshot(terminalId: string): AcpTerminalOutput | undefined {
		const terminal = this.#terminals.get(terminalId) ?? this.#released.get(terminalId);
		if (terminal === undefined) {
			return undefined;
		}

		const exit = terminal.exit === undefined ? {} : terminal.exit.signal === null ? (terminal.exit.exitCode === null ? {} : {exitCode: terminal.exit.exitCode}) : {signal: terminal.exit.signal};
		return {output: terminal.buffer.text(), ...exit, ...(terminal.buffer.truncated ? {truncated: true} : {})};
	}

	/** Stop every command still running (the session ends). */
	async dispose(): Promise<void> {
		const waits: Array<Promise<ShellExit>> = [];
		for (const terminal of this.#terminals.values()) {
			terminal.shell.terminate();
			waits.push(terminal.exited);
			this.#held -= terminal.buffer.limit;
		}

		this.#terminals.clear();
		await Promise.all(waits);
	}

	#get(terminalId: string): Terminal {
		const terminal = this.#terminals.get(terminalId);
		if (terminal === undefined) {
			throw RequestError.invalidParams(undefined, `no terminal ${JSON.stringify(terminalId)} (never created, or released)`);
		}

		return terminal;
	}
}
