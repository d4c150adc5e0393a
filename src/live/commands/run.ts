/** @module `/run SCRIPT.mjs`: run a Code Mode script (`tools.<name>(args)`) through the run_code tool. */
import {readFile} from 'node:fs/promises';
import {isAbsolute, resolve} from 'node:path';
import {splitWords, withTools, type PromptCommand} from './prompt-command.js';

export const runCommand: PromptCommand = {
	name: '/run',
	args: 'SCRIPT.mjs',
	help: 'run a Code Mode script (tools.<name>(args))',
	available: withTools,
	async run(text, context) {
		const words = splitWords(text);
		if (words.length !== 1) {
			context.say('usage: /run SCRIPT.mjs', 'error');
			return;
		}

		const path = words[0]!;
		let code: string;
		try {
			code = await readFile(isAbsolute(path) ? path : resolve(context.cwd, path), 'utf8');
		} catch (error) {
			context.say(`/run: cannot read ${path}: ${(error as Error).message}`, 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'run_code', args: {code, description: `Run ${path}`}});
	},
};
