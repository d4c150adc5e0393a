/**
@module `cardterm run SCRIPT.mjs`: Code Mode from the command line. The script's `tools.<name>(args)`
calls run through the registry with the reference tools; they appear as the run's children.
*/
import {resolve} from 'node:path';
import {basename} from 'node:path';
import {readFile} from 'node:fs/promises';
import {scriptToProgram} from '../../code-mode/script-file.js';
import {renderCardText} from '../../layout/terminal/render-lines.js';
import {cardOutputHidesText} from '../../layout/cards/terminal-card.js';
import {jsonLine} from '../../layout/terminal/terminal-sink.js';
import {colorTheme, monochromeTheme} from '../../layout/text/theme.js';
import {cardToJson} from '../../presentation/card-json.js';
import type {CliIo} from '../environment/cli-io.js';
import {runOne} from './call-command.js';
import {openSession} from '../../host/open-session.js';
import {parseArgs, positiveInt, UsageError} from '../environment/parse-args.js';
import {withTerminationSignals} from '../environment/termination-signals.js';
import {colorDepth, colorEnabled, hyperlinksEnabled, printRows} from '../environment/terminal-env.js';

export const RUN_HELP = `usage: cardterm run SCRIPT.mjs [--log FILE] [--cwd DIR] [--json] [--width N] [--color|--no-color]

Runs SCRIPT as a Code Mode program: its text is the body of an async function with \`tools\` in
scope (await tools.read({file_path: 'README.md'})). Static imports become dynamic imports. The run
and its tool calls are appended to FILE when given, and its card is printed. Exit code 1 when the
program's card did not end ok (its outcome: see cardterm call --help for the rule).`;

const flags = [{name: 'log', value: true}, {name: 'cwd', value: true}, {name: 'json'}, {name: 'width', value: true}, {name: 'color'}, {name: 'no-color'}, {name: 'help'}] as const;

export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'run');
	if (parsed.flags.has('help')) {
		await io.print(`${RUN_HELP}\n`);
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
	const logFlag = parsed.flags.get('log');
	// Ctrl+C, a polite kill or a closed terminal cancels the program and its calls; jobs end with the session.
	return withTerminationSignals(async signal => {
		const session = await openSession({cwd, ...(typeof logFlag === 'string' ? {logPath: resolve(io.cwd, logFlag)} : {})});
		try {
			const card = await runOne(session, 'run_code', JSON.stringify({code, description: `Run ${basename(script)}`}), signal);
			if (parsed.flags.has('json')) {
				await io.write(jsonLine(cardToJson(card, {outputHidesText: cardOutputHidesText})));
			} else {
				const colorFlag = parsed.flags.has('color') ? true : (parsed.flags.has('no-color') ? false : undefined);
				const color = colorEnabled(colorFlag, io.env, io.isTTY);
				const {width, unwrap} = printRows(positiveInt(parsed, 'width', 'run'), io.columns, io.isTTY);
				await io.write(renderCardText(card, {width, theme: color ? colorTheme : monochromeTheme, now: Date.now(), sessionCwd: cwd, color, depth: colorDepth(color, io.env), hyperlinks: hyperlinksEnabled(color, io.env, io.isTTY), unwrap}));
			}

			return card.outcome === 'ok' ? 0 : 1;
		} finally {
			await session.close();
		}
	});
}
