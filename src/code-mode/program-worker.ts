/**
@module The parent side of one Code Mode program: starts the worker, turns its messages into
callbacks, answers its tool calls, and reports exactly one end (done, failed, or the worker dying).
*/
import {Worker} from 'node:worker_threads';
import {workerSource} from './worker-source.js';

/** Why a program failed (contract.md §T6.2). */
export type CodeRunFailureKind = 'exception' | 'timeout' | 'abort' | 'worker-exit' | 'invalid-output' | 'output-limit';

/** How a program ended. `result` is present only when the program returned something other than `undefined`. */
export type ProgramEnd =
	| {readonly kind: 'done'; readonly hasResult: boolean; readonly result?: unknown}
	| {readonly kind: 'failed'; readonly failure: CodeRunFailureKind; readonly message: string};

/** A tool call the program made; `args` passed the worker-side lossless check. */
export type ProgramCall = {readonly id: number; readonly name: string; readonly args: unknown};

/** What a program's tool call settles with. */
export type CallSettlement = {readonly ok: true; readonly value: unknown} | {readonly ok: false; readonly message: string};

/** What the worker is given and what it reports to. */
export type ProgramWorkerOptions = {
	readonly code: string;
	readonly toolNames: readonly string[];
	readonly maxLogChars: number;
	/** V8 old-generation cap of the worker, in MiB. */
	readonly memoryLimitMb: number;
	/** The program's `process.env` (default: a copy of this process's). */
	readonly env?: NodeJS.ProcessEnv;
	/** The worker booted and the program begins: the program's own clock starts here. */
	onStart(): void;
	onLog(text: string): void;
	onCall(call: ProgramCall): void;
	/** Called once. */
	onEnd(end: ProgramEnd): void;
};

const failureKinds = new Set<string>(['exception', 'invalid-output', 'output-limit']);

/** One running program. */
export class ProgramWorker {
	readonly #worker: Worker;
	readonly #options: ProgramWorkerOptions;
	#ended = false;
	#exited = false;

	constructor(options: ProgramWorkerOptions) {
		this.#options = options;
		this.#worker = new Worker(workerSource, {
			eval: true,
			workerData: {code: options.code, toolNames: [...options.toolNames], maxLogChars: options.maxLogChars},
			resourceLimits: {maxOldGenerationSizeMb: options.memoryLimitMb},
			...(options.env === undefined ? {} : {env: options.env}),
			// Direct writes to process.stdout/stderr become log lines instead of reaching our terminal.
			stdout: true,
			stderr: true,
		});
		this.#worker.on('message', message => {
			this.#receive(message);
		});
		this.#worker.on('error', error => {
			this.#end({kind: 'failed', failure: 'worker-exit', message: `the program's worker failed: ${error.message}`});
		});
		this.#worker.on('exit', code => {
			this.#exited = true;
			this.#end({kind: 'failed', failure: 'worker-exit', message: `the program's worker exited with code ${code} before the program finished`});
		});
		for (const stream of [this.#worker.stdout, this.#worker.stderr]) {
			stream.setEncoding('utf8');
			stream.on('data', (chunk: string) => {
				if (!this.#ended) {
					options.onLog(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk);
				}
			});
		}
	}

	/** End the run from outside (timeout, abort); ignored once ended. */
	fail(failure: CodeRunFailureKind, message: string): void {
		this.#end({kind: 'failed', failure, message});
	}

	/** Answer a tool call; a no-op once the worker is gone. */
	settle(id: number, settlement: CallSettlement): void {
		if (this.#exited) {
			return;
		}

		try {
			this.#worker.postMessage(settlement.ok ? {type: 'settle', id, ok: true, value: settlement.value} : {type: 'settle', id, ok: false, message: settlement.message});
		} catch {
			// The worker may be terminating; the program no longer waits for anything.
		}
	}

	/** Stop the worker (also after a normal end: pending timers or servers must not outlive the run). */
	async terminate(): Promise<void> {
		if (!this.#exited) {
			await this.#worker.terminate();
		}
	}

	#receive(message: unknown): void {
		if (this.#ended || typeof message !== 'object' || message === null) {
			return;
		}

		const data = message as Record<string, unknown>;
		switch (data.type) {
			case 'started': {
				this.#options.onStart();
				break;
			}

			case 'log': {
				this.#options.onLog(String(data.text));
				break;
			}

			case 'call': {
				this.#options.onCall({id: Number(data.id), name: String(data.name), args: data.args});
				break;
			}

			case 'done': {
				this.#end(data.hasResult === true ? {kind: 'done', hasResult: true, result: data.result} : {kind: 'done', hasResult: false});
				break;
			}

			case 'failed': {
				const kind = String(data.kind);
				this.#end({kind: 'failed', failure: failureKinds.has(kind) ? (kind as CodeRunFailureKind) : 'exception', message: String(data.message)});
				break;
			}

			default: {
				break;
			}
		}
	}

	#end(end: ProgramEnd): void {
		if (!this.#ended) {
			this.#ended = true;
			this.#options.onEnd(end);
		}
	}
}
