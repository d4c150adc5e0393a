import {PassThrough, Writable} from 'node:stream';
import type {CliIo} from '../../src/cli/cli-io.js';

/** A `CliIo` that records what a command writes, for running commands in-process. */
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
		stdout,
		stderr,
		stdin,
		env: options.env ?? {},
		cwd: options.cwd ?? process.cwd(),
		isTTY: options.isTTY ?? false,
		columns: options.columns,
		async write(text) {
			out += text;
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
