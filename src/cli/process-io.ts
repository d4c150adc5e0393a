/**
@module The real process as `CliIo`.
*/
import {watchForClosedReader, writeOutput, writeText} from '../layout/terminal/terminal-sink.js';
import {UsageError} from './environment/parse-args.js';
import type {CliIo} from './environment/cli-io.js';
import {withScreenEnvironment} from './environment/screen-environment.js';

export function processIo(): CliIo {
	// `cardterm replay --json | head`: when head leaves, writing stops and the command exits 0 quietly (main.ts).
	watchForClosedReader();
	return {
		stdin: process.stdin,
		env: process.env,
		cwd: process.cwd(),
		isTTY: process.stdout.isTTY === true,
		columns: process.stdout.isTTY ? process.stdout.columns : undefined,
		async print(text) {
			await writeText(process.stdout, text);
		},
		async printError(text) {
			await writeText(process.stderr, text);
		},
		async write(output) {
			await writeOutput(process.stdout, output);
		},
		async resolveLog(positional, last, sessionDir) {
			if (last) {
				const {newestSessionLog} = await import('./commands/sessions-command.js');
				return newestSessionLog(process.cwd(), typeof sessionDir === 'string' ? sessionDir : undefined);
			}

			if (positional === undefined) {
				throw new UsageError('replay: name a LOG (a file, a session folder or -) or pass --last');
			}

			return positional;
		},
		async openPager(source, options) {
			const {openPagerOnLog} = await withScreenEnvironment(async () => import('./pager/pager-command.js'));
			return openPagerOnLog(source, options);
		},
	};
}
