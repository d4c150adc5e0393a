/**
@module `cardterm` with no command: an interactive session in the current directory — the reference
tools (and plugins), a new session log, a prompt, and the live transcript.
*/
import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import {colorTheme, monochromeTheme} from '../layout/theme.js';
import {approvalPolicy, loadConfig} from './approval-policy.js';
import type {CliIo} from './cli-io.js';
import {SessionController} from './interactive/session-controller.js';
import {PromptHistory} from './interactive/prompt-history.js';
import {openIndexedCardSource} from './indexed-card-source.js';
import {loadPlugins} from './load-plugins.js';
import {newSessionId, openSession} from './open-session.js';
import {parseArgs, UsageError} from './parse-args.js';
import {historyPath, sessionsRoot} from './session-paths.js';
import {colorEnabled, hyperlinksEnabled} from './terminal-env.js';
import type {ApprovalPrompt} from '../session/session-runtime.js';

export const INTERACTIVE_HELP = `usage: cardterm [--session-dir DIR] [--plugin FILE]… [--color|--no-color]

Opens an interactive session in the current directory with the reference tools. Type !command,
/help, or TOOL {json}. The session is recorded to <session-dir>/<id>/session.jsonl
(default: the per-user data directory; also CARDTERM_SESSION_DIR). Approval rules come from
.cardterm/config.json (or CARDTERM_CONFIG).`;

const flags = [{name: 'session-dir', value: true}, {name: 'plugin', value: true, repeat: true}, {name: 'color'}, {name: 'no-color'}, {name: 'help'}] as const;

export async function interactiveCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'cardterm');
	if (parsed.flags.has('help')) {
		await io.print(`${INTERACTIVE_HELP}\n`);
		return 0;
	}

	if (parsed.positionals.length > 0) {
		throw new UsageError(`unknown command ${parsed.positionals[0]} (see cardterm --help)`);
	}

	if (!io.isTTY || process.stdin.isTTY !== true) {
		throw new UsageError('the interactive session needs a terminal; use cardterm call, run or replay --print instead');
	}

	const sessionDirFlag = parsed.flags.get('session-dir');
	const root = sessionsRoot(typeof sessionDirFlag === 'string' ? sessionDirFlag : undefined, io.env, io.cwd);
	const config = await loadConfig(io.cwd, io.env);
	const extraTools = await loadPlugins(parsed.repeated.get('plugin') ?? [], io.cwd);
	const id = newSessionId(Date.now());
	const folder = join(root, id);
	const logPath = join(folder, 'session.jsonl');
	// A log that cannot be written is shown as a problem; the session goes on in memory.
	let problem: string | undefined;
	const logProblem = (message: string): void => {
		problem = `session log not saved: ${message} — the session goes on in memory`;
		controller?.reportProblem(problem);
	};

	const folderMade = await mkdir(folder, {recursive: true}).then(() => true, (error: unknown) => {
		logProblem(`cannot create ${folder}: ${(error as Error).message}`);
		return false;
	});

	let prompt: ApprovalPrompt = async () => 'unavailable';
	let controller: SessionController | undefined;
	const rules = config.approval?.ask ?? [];
	const session = await openSession({
		cwd: io.cwd,
		id,
		...(folderMade ? {logPath} : {}),
		extraTools,
		approve: async request => prompt(request),
		...(rules.length === 0 ? {} : {policy: approvalPolicy(rules, io.cwd, () => controller?.sessionAllowed ?? new Set())}),
		onLogError(error) {
			logProblem(error.message);
		},
	});
	const history = await PromptHistory.load(historyPath(root, io.cwd));
	controller = new SessionController({
		cwd: io.cwd,
		sessionId: session.id,
		fold: session.fold,
		onFoldChange: listener => session.onFoldChange(listener),
		runtime: session.runtime,
		toolNames: () => session.toolNames(),
		jobs: {
			running: () => session.jobs.list().filter(job => job.status === 'running' || job.status === 'stopping').length,
			onChange: listener => session.jobs.onJobsChanged(listener),
		},
		history,
		shutdown: async () => session.close(),
		// With a healthy log, settled cards leave memory once written to the scrollback, and the pager
		// reads the session back from its log (the session's memory stays flat however long it runs).
		releaseSettled: () => session.logPath !== undefined && problem === undefined,
		...(session.logPath === undefined ? {} : {
			async pagerSource() {
				if (problem !== undefined) {
					throw new Error(problem);
				}

				await session.flush();
				return openIndexedCardSource(session.logPath!, {presenters: () => name => session.registry.get(name), tail: false});
			},
		}),
	});
	prompt = controller.prompt;
	if (problem !== undefined) {
		controller.reportProblem(problem);
	}

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
	await io.printError(problem === undefined ? `session saved: ${logPath}\n` : `${problem}\n`);
	return 0;
}
