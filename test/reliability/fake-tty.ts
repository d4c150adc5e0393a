/**
A fake terminal for rendering Ink components as the user's terminal would receive them: a TTY
stdout that records every byte Ink writes (cursor movement included, unlike ink-testing-library's
debug mode), and a TTY stdin that accepts raw mode and never produces input.
*/
import {EventEmitter} from 'node:events';
import {Writable} from 'node:stream';
import {render} from 'ink';
import type {ReactElement} from 'react';

/** A stdout that looks like a terminal of `columns` × `rows` and keeps everything written to it. */
class RecordingTty extends Writable {
	readonly isTTY = true;
	readonly columns: number;
	readonly rows: number;
	written = '';

	constructor(columns: number, rows: number) {
		super({decodeStrings: false});
		this.columns = columns;
		this.rows = rows;
	}

	override _write(chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
		this.written += typeof chunk === 'string' ? chunk : String(chunk);
		callback();
	}
}

/** A terminal stdin with no input. */
class SilentTtyStdin extends EventEmitter {
	readonly isTTY = true;
	setEncoding(): void {}
	setRawMode(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
	read(): null {
		return null;
	}
}

/**
Renders `tree` on a fake terminal, lets `settle` run (effects, scrollback writes), unmounts (which
flushes Ink's last frame) and returns every byte written to the terminal.
*/
export async function renderToTty(tree: ReactElement, options: {readonly columns: number; readonly rows: number; readonly settle?: () => Promise<void>}): Promise<string> {
	const stdout = new RecordingTty(options.columns, options.rows);
	const stderr = new RecordingTty(options.columns, options.rows);
	const instance = render(tree, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stderr: stderr as unknown as NodeJS.WriteStream,
		stdin: new SilentTtyStdin() as unknown as NodeJS.ReadStream,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	// Effects run after the first commit; a macrotask lets them and their writes happen.
	await new Promise(resolve => setImmediate(resolve));
	await options.settle?.();
	instance.unmount();
	instance.cleanup();
	return stdout.written + stderr.written;
}
