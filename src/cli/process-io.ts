/**
@module The real process as `CliIo`.
*/
import {once} from 'node:events';
import {UsageError} from './parse-args.js';
import type {CliIo} from './cli-io.js';

export function processIo(): CliIo {
	const {stdout} = process;
	return {
		stdout,
		stderr: process.stderr,
		stdin: process.stdin,
		env: process.env,
		cwd: process.cwd(),
		isTTY: stdout.isTTY === true,
		columns: stdout.isTTY ? stdout.columns : undefined,
		async write(text) {
			if (!stdout.write(text)) {
				await once(stdout, 'drain');
			}
		},
		async resolveLog(positional, last, sessionDir) {
			if (last) {
				const {newestSessionLog} = await import('./sessions-command.js');
				return newestSessionLog(process.cwd(), typeof sessionDir === 'string' ? sessionDir : undefined);
			}

			if (positional === undefined) {
				throw new UsageError('replay: name a LOG (a file, a session folder or -) or pass --last');
			}

			return positional;
		},
		async openPager(source, options) {
			const {openPagerOnLog} = await import('./pager-command.js');
			return openPagerOnLog(source, options);
		},
	};
}
