/**
@module `cardterm run SCRIPT.mjs`: Code Mode from the command line. The script's `tools.<name>(args)`
calls run through the registry with the reference tools; they appear as the run's children.
*/
import {resolve} from 'node:path';
import {basename} from 'node:path';
import {readFile} from 'node:fs/promises';
import {scriptToProgram} from '../../code-mode/script-file.js';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {runOne} from './call-command.js';
import {cardOutput} from '../print/entry-output.js';
import {openSession} from '../../host/open-session.js';
import {personSecrets} from '../../host/session-secrets.js';
import {outputOptions, PRINT_FLAGS} from '../print/output-options.js';
import {parseArgs, UsageError} from '../environment/parse-args.js';
import {withTerminationSignals} from '../environment/termination-signals.js';

export const RUN_HELP = `usage: cardterm run SCRIPT.mjs [--log FILE] [--cwd DIR] [--json] [--width N] [--color|--no-color]

Runs SCRIPT as a Code Mode program: its text is the body of an async function with \`tools\` in
scope (await tools.read({file_path: 'README.md'})). Static imports become dynamic imports. The run
and its tool calls are appended to FILE when given, and its card is printed. Exit code 1 when the
program's card did not end ok (its outcome: see cardterm call --help for the rule).`;

const flags = [{name: 'log', value: true}, {name: 'cwd', value: true}, ...PRINT_FLAGS, {name: 'help'}] as const;

export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'run');
	if (parsed.flags.has('help')) {
		await printHelp(io, RUN_HELP);
		return 0;
	}

	const [script, ...extra] = parsed.positionals;
	if (script === undefined || extra.length > 0) {
		throw new UsageError('run: usage: cardterm run SCRIPT.mjs (see cardterm run --help)');
	}

	const path = resolve(io.cwd, script);
	let code: string;
	try {
		code = scriptToProgram(await readFile(path, 'utf8'), path);
	} catch (error) {
		throw new UsageError(`run: cannot use ${script}: ${(error as Error).message}`);
	}

	const cwd = resolve(io.cwd, String(parsed.flags.get('cwd') ?? '.'));
	const output = outputOptions(parsed, io, 'run', cwd);
	const logFlag = parsed.flags.get('log');
	// Ctrl+C, a polite kill or a closed terminal cancels the program and its calls; jobs end with the session.
	return withTerminationSignals(async signal => {
		const session = await openSession({cwd, secrets: personSecrets(io.env), ...(typeof logFlag === 'string' ? {logPath: resolve(io.cwd, logFlag)} : {})});
		try {
			const card = await runOne(session, 'run_code', JSON.stringify({code, description: `Run ${basename(script)}`}), signal);
			await io.write(cardOutput(card, {...output, now: Date.now()}));

			return card.outcome === 'ok' ? 0 : 1;
		} finally {
			await session.close();
		}
	});
}
