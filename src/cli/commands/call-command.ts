/**
@module `cardterm call TOOL [JSON]`: run one call through the registry with the reference tools,
append its events to a log, print its card.
*/
import {resolve} from 'node:path';
import type {Card} from '../../presentation/card.js';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {cardOutput} from '../print/entry-output.js';
import {loadPlugins} from '../load-plugins.js';
import {openSession, type OpenedSession} from '../../host/open-session.js';
import {personSecrets} from '../../host/session-secrets.js';
import {outputOptions, PRINT_FLAGS} from '../print/output-options.js';
import {parseArgs, UsageError} from '../environment/parse-args.js';
import {withTerminationSignals} from '../environment/termination-signals.js';

export const CALL_HELP = `usage: cardterm call TOOL [JSON] [--log FILE] [--cwd DIR] [--plugin FILE]… [--json] [--width N] [--color|--no-color]

Runs one tool call with the reference tools (and the plugins' tools) in DIR (default: the current
directory), appends its events to FILE (created with a header when new), and prints its card
(--json: the card's object as replay --json writes it, whose "outcome" is the call's outcome).

Exit code: 0 when the outcome is ok; 1 when it is failed (a non-zero exit, killed by a signal, or
an HTTP status of 400 or more), error, denied (approval refused), cancelled or interrupted; 2 for a
usage error; 128+N when signal N stopped cardterm.`;

const flags = [{name: 'log', value: true}, {name: 'cwd', value: true}, {name: 'plugin', value: true, repeat: true}, ...PRINT_FLAGS, {name: 'help'}] as const;

export async function callCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'call');
	if (parsed.flags.has('help')) {
		await printHelp(io, CALL_HELP);
		return 0;
	}

	const [tool, json, ...extra] = parsed.positionals;
	if (tool === undefined || extra.length > 0) {
		throw new UsageError('call: usage: cardterm call TOOL [JSON] (see cardterm call --help)');
	}

	const cwd = resolve(io.cwd, String(parsed.flags.get('cwd') ?? '.'));
	const output = outputOptions(parsed, io, 'call', cwd);
	const logFlag = parsed.flags.get('log');
	// Ctrl+C, a polite kill or a closed terminal cancels the call (its process tree goes with it); the log is then closed.
	return withTerminationSignals(async signal => {
		const skipped = (message: string): void => {
			void io.printError(`cardterm: ${message}\n`);
		};

		const plugins = await loadPlugins(parsed.repeated.get('plugin') ?? [], io.cwd, {signal, onSkipped: skipped});
		const session = await openSession({cwd, plugins, pluginApply: {signal}, onPluginSkipped: skipped, secrets: personSecrets(io.env), ...(typeof logFlag === 'string' ? {logPath: resolve(io.cwd, logFlag)} : {})});
		try {
			if (!session.toolNames().has(tool)) {
				throw new UsageError(`call: unknown tool "${tool}" (known: ${[...session.toolNames()].sort().join(', ')})`);
			}

			const card = await runOne(session, tool, json ?? '{}', signal);
			await io.write(cardOutput(card, {...output, now: Date.now()}));

			return card.outcome === 'ok' ? 0 : 1;
		} finally {
			await session.close();
		}
	});
}

/** Run one call in a turn of its own; `signal` (a termination signal, Ctrl+C) cancels it. Returns its folded card. */
export async function runOne(session: OpenedSession, tool: string, rawArgs: string, signal: AbortSignal): Promise<Card> {
	let callId: string | undefined;
	const stop = session.onFoldChange(change => {
		const first = change.entries.find(entry => entry.entry === 'card');
		callId ??= first?.entry === 'card' ? first.card.callId : undefined;
	});
	try {
		await session.runtime.runCall(tool, rawArgs, {signal});
		return session.fold.card(callId!)!;
	} finally {
		stop();
	}
}
