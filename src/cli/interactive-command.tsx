/**
@module `cardterm` with no command: an interactive session in the current directory — the reference
tools (and plugins), a new session log, a prompt, and the live transcript.
*/
import {stat} from 'node:fs/promises';
import {resolve} from 'node:path';
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import {colorTheme, monochromeTheme} from '../layout/theme.js';
import {loadConfig} from './approval-policy.js';
import type {CliIo} from './cli-io.js';
import {logOutcomeMessage} from './interactive/log-outcome.js';
import {openInteractiveSession} from './interactive/open-interactive-session.js';
import {loadPlugins} from './load-plugins.js';
import {newSessionId} from './open-session.js';
import {parseArgs, UsageError} from './parse-args.js';
import {sessionsRoot} from './session-paths.js';
import {whenAborted, withTerminationSignals} from './termination-signals.js';
import {colorEnabled, hyperlinksEnabled} from './terminal-env.js';

export const INTERACTIVE_HELP = `usage: cardterm [--cwd DIR] [--session-dir DIR] [--plugin FILE]… [--color|--no-color]

Opens an interactive session in DIR (--cwd; default: the current directory), the workspace its
tools work in, with the reference tools (and those of each --plugin FILE: defineTool exports, or a
plugin with name, inject and apply(ctx)). Type !command, /help, or TOOL {json}. The session is
recorded to <session-dir>/<id>/session.jsonl (default: the per-user data directory; also
CARDTERM_SESSION_DIR) once something happens in it: a start and a quit with nothing done keeps no
session. Prompt history is kept beside the sessions (<data dir>/history, or DIR/.history for a named
session folder). Approval rules come from DIR/.cardterm/config.json (or CARDTERM_CONFIG).`;

const flags = [{name: 'cwd', value: true}, {name: 'session-dir', value: true}, {name: 'plugin', value: true, repeat: true}, {name: 'color'}, {name: 'no-color'}, {name: 'help'}] as const;

async function isDirectory(path: string): Promise<boolean> {
	return stat(path).then(found => found.isDirectory(), () => false);
}

export async function interactiveCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'cardterm');
	if (parsed.flags.has('help')) {
		await io.print(`${INTERACTIVE_HELP}\n`);
		return 0;
	}

	if (parsed.positionals.length > 0) {
		throw new UsageError(`unknown command ${parsed.positionals[0]} (see cardterm --help)`);
	}

	const cwdFlag = parsed.flags.get('cwd');
	const cwd = resolve(io.cwd, typeof cwdFlag === 'string' ? cwdFlag : '.');
	if (!(await isDirectory(cwd))) {
		throw new UsageError(`--cwd: ${cwd} is not a directory`);
	}

	if (!io.isTTY || process.stdin.isTTY !== true) {
		throw new UsageError('the interactive session needs a terminal; use cardterm call, run or replay --print instead');
	}

	// SIGTERM, SIGHUP (the terminal closed) or SIGINT from outside (Ctrl+C is a key here).
	return withTerminationSignals(async signal => {
		const sessionDirFlag = parsed.flags.get('session-dir');
		const root = sessionsRoot(typeof sessionDirFlag === 'string' ? sessionDirFlag : undefined, io.env, io.cwd);
		const config = await loadConfig(cwd, io.env);
		const plugins = await loadPlugins(parsed.repeated.get('plugin') ?? [], io.cwd);
		const {controller, logOutcome, discardIfEmpty} = await openInteractiveSession({root, cwd, id: newSessionId(Date.now()), plugins, rules: config.approval?.ask ?? []});
		// A termination signal closes the session as Ctrl+D does: the running call is cancelled, jobs end,
		// the log closes, and the screen is given back (the app exits when the controller is closing).
		whenAborted(signal, () => {
			void controller.close();
		});
		const colorFlag = parsed.flags.has('color') ? true : (parsed.flags.has('no-color') ? false : undefined);
		const color = colorEnabled(colorFlag, io.env, io.isTTY);
		const frameListeners = new Set<() => void>();
		const onFrame = (listener: () => void): (() => void) => {
			frameListeners.add(listener);
			return () => frameListeners.delete(listener);
		};

		const instance = render(
			<InteractiveApp model={controller} theme={color ? colorTheme : monochromeTheme} color={color} hyperlinks={hyperlinksEnabled(color, io.env, io.isTTY)} onFrame={onFrame} />,
			{
				exitOnCtrlC: false,
				patchConsole: false,
				onRender() {
					for (const listener of [...frameListeners]) {
						listener();
					}
				},
			},
		);
		await instance.waitUntilExit();
		await controller.close();
		// A start and a quit with nothing done leaves no session behind, and nothing to say about one.
		if (!(await discardIfEmpty())) {
			await io.printError(`${logOutcomeMessage(logOutcome())}\n`);
		}

		return 0;
	}, {terminal: true});
}
