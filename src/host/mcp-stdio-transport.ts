/**
@module An MCP server's program as the SDK's transport: started as an ACP agent is
(`spawnAgent`: a process group of its own, marked, killed with every process it started when the
session closes or cardterm exits), newline-delimited JSON-RPC on its stdio (the SDK's own framing,
`ReadBuffer`/`serializeMessage`), the last bytes of its stderr kept to say why it died. The SDK's
stdio transport stops only the program it started, not what that program started (`npx` and
`uvx` start the server as a grandchild). Lines are framed here, not by the SDK's `ReadBuffer`, which
copies everything it holds at every chunk: a 50 MB result took half a minute in 64 KiB chunks.
*/
import {deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport} from '@modelcontextprotocol/client';
import {spawnAgent, type AgentProcess, type AgentExit} from '../acp/agent-process.js';
import {describeExit} from '../acp/acp-client.js';

/** The largest message a server may send (a 50 MB result fits); a larger one ends the connection with this said. */
export const MCP_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

export type McpStdioOptions = {
	readonly command: string;
	readonly args: readonly string[];
	readonly cwd: string;
	readonly env: NodeJS.ProcessEnv;
	readonly maxMessageBytes?: number;
};

export class McpStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T) => void;
	readonly #options: McpStdioOptions;
	#process: AgentProcess | undefined;
	#exit: AgentExit | undefined;
	#closed = false;

	constructor(options: McpStdioOptions) {
		this.#options = options;
	}

	/** The last bytes the program wrote to stderr. */
	stderrTail(): string {
		return this.#process?.stderrTail() ?? '';
	}

	/** How the program ended, once it has. */
	exit(): AgentExit | undefined {
		return this.#exit;
	}

	async start(): Promise<void> {
		const {command, args, cwd, env} = this.#options;
		const child = spawnAgent(command, args, {cwd, env});
		this.#process = child;
		const lines = new LineFrames(this.#options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES);
		child.output.on('data', (chunk: Buffer) => {
			try {
				for (const line of lines.push(chunk)) {
					if (line.trim() !== '') {
						this.onmessage?.(deserializeMessage(line));
					}
				}
			} catch (error) {
				// A line that is no JSON-RPC, or longer than the bound: the connection cannot go on.
				this.onerror?.(error instanceof Error ? error : new Error(String(error)));
				void this.close();
			}
		});
		child.output.on('error', () => {});
		void child.exited.then(exit => {
			this.#exit = exit;
			this.#finish();
		});
		if (child.pid === undefined) {
			const exit = await child.exited;
			throw new Error(`cannot start ${command}: ${exit.error?.message ?? describeExit(exit)}`);
		}
	}

	async send(message: JSONRPCMessage): Promise<void> {
		const input = this.#process?.input;
		if (input === undefined || this.#exit !== undefined || input.writableEnded) {
			throw new Error('the server\'s program has ended');
		}

		await new Promise<void>(resolve => {
			if (input.write(serializeMessage(message))) {
				resolve();
			} else {
				input.once('drain', resolve);
			}
		});
	}

	/** Stop the program and every process it started (SIGTERM, SIGKILL after a grace). */
	async close(): Promise<void> {
		const child = this.#process;
		if (child !== undefined && this.#exit === undefined) {
			child.input.end();
			await child.kill(1000);
		}

		this.#finish();
	}

	#finish(): void {
		if (!this.#closed) {
			this.#closed = true;
			this.onclose?.();
		}
	}
}

/** Newline-delimited frames from chunks: each byte is copied once, when its line is complete. */
class LineFrames {
	readonly #limit: number;
	#pending: Buffer[] = [];
	#pendingBytes = 0;

	constructor(limit: number) {
		this.#limit = limit;
	}

	/** The lines `chunk` completes; throws when a line grows past the limit. */
	push(chunk: Buffer): string[] {
		const lines: string[] = [];
		let start = 0;
		for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
			const tail = chunk.subarray(start, at);
			const whole = this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail]);
			this.#pending = [];
			this.#pendingBytes = 0;
			lines.push(whole.toString('utf8').replace(/\r$/, ''));
			start = at + 1;
		}

		if (start < chunk.length) {
			this.#pending.push(chunk.subarray(start));
			this.#pendingBytes += chunk.length - start;
			if (this.#pendingBytes > this.#limit) {
				this.#pending = [];
				this.#pendingBytes = 0;
				throw new Error(`the server sent a message longer than ${Math.round(this.#limit / 1024 / 1024)} MiB`);
			}
		}

		return lines;
	}
}
