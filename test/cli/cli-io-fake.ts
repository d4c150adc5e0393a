import {PassThrough, Writable} from 'node:stream';
import type {CliIo} from '../../src/cli/environment/cli-io.js';
import {writeOutput, writeText} from '../../src/layout/terminal/terminal-sink.js';

/** A `CliIo` that records what a command writes, for running commands in-process. It writes through the real sink. */
export function fakeIo(options: {cwd?: string; env?: NodeJS.ProcessEnv; isTTY?: boolean; columns?: number; stdin?: string} = {}): CliIo & {out(): string; err(): string} {
	let out = '';
	let err = '';
	const stdout = new Writable({write(chunk, _encoding, callback) {
		out += String(chunk);
		callback();
	}});
	const stderr = new Writable({write(chunk, _encoding, callback) {
		err += String(chunk);
		callback();
	}});
	const stdin = new PassThrough();
	stdin.end(options.stdin ?? '');
	return {
		stdin,
		env: options.env ?? {},
		cwd: options.cwd ?? process.cwd(),
		isTTY: options.isTTY ?? false,
		columns: options.columns,
		async print(text) {
			await writeText(stdout, text);
		},
		async printError(text) {
			await writeText(stderr, text);
		},
		async write(output) {
			await writeOutput(stdout, output);
		},
		async resolveLog(positional) {
			if (positional === undefined) {
				throw new Error('no log');
			}

			return positional;
		},
		async openPager() {
			throw new Error('no pager in tests');
		},
		out: () => out,
		err: () => err,
	};
}
