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
import type {ModelClient} from '../agent/model-types.js';
import {resolveModel} from '../agent/model-client.js';
import {AGENT_ASK_RULES, agentModel, systemPromptFile} from './agent-setup.js';
import {loadConfig, type CardtermConfig} from './approval-policy.js';
import {copyText, openInEditor} from './pager-actions.js';
import {ColorDepthContext} from '../../components/color-depth-context.js';
import type {CliIo} from './cli-io.js';
import {logOutcomeMessage} from './interactive/log-outcome.js';
import {openInteractiveSession} from './interactive/open-interactive-session.js';
import {loadPlugins} from './load-plugins.js';
import {newSessionId} from './open-session.js';
import {parseArgs, positiveInt, UsageError, type ParsedArgs} from './parse-args.js';
import {resumeTarget} from './resume-target.js';
import {sessionsRoot} from './session-paths.js';
import {whenAborted, withTerminationSignals} from './termination-signals.js';
import {colorDepth, colorEnabled, hyperlinksEnabled, motionEnabled} from './terminal-env.js';

export const INTERACTIVE_HELP = `usage: cardterm [--cwd DIR] [--model PROVIDER:MODEL] [--base-url URL] [--system-prompt FILE] [--max-steps N] [--yolo]
                [--session-dir DIR] [--plugin FILE]… [--color|--no-color]
       cardterm -p "PROMPT" [--json] [--cwd DIR] [--model …] [--base-url URL] [--yolo] [--session-dir DIR]
       both take [--continue | --resume ID]

With a model (--model, CARDTERM_MODEL, or "model" in .cardterm/config.json or the user config), a
prompt line goes to the model, which answers and calls tools; writes and commands ask first
(--yolo approves everything). Keys come from the providers' variables (OPENAI_API_KEY,
ANTHROPIC_API_KEY, GEMINI_API_KEY, DEEPSEEK_API_KEY, OPENROUTER_API_KEY); --base-url selects an
OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio). -p runs one turn without a screen
and prints the transcript (--json: one object per entry); exit 0 completed, 1 error, 130 cancelled.
--continue appends to this directory's newest session and --resume ID to that session: the model
sees the conversation so far, and the log goes on with contiguous seqs. A turn ends "blocked"
after --max-steps model steps (default 500).

Opens an interactive session in DIR (--cwd; default: the current directory), the workspace its
tools work in, with the reference tools (and those of each --plugin FILE: defineTool exports, or a
plugin with name, inject and apply(ctx)). Type !command, /help, or TOOL {json}. The session is
recorded to <session-dir>/<id>/session.jsonl (default: the per-user data directory; also
CARDTERM_SESSION_DIR) once something happens in it: a start and a quit with nothing done keeps no
session. Prompt history is kept beside the sessions (<data dir>/history, or DIR/.history for a named
session folder). Approval rules come from DIR/.cardterm/config.json (or CARDTERM_CONFIG).`;

const flags = [
	{name: 'session-dir', value: true}, {name: 'plugin', value: true, repeat: true}, {name: 'color'}, {name: 'no-color'}, {name: 'help'},
	{name: 'model', value: true}, {name: 'base-url', value: true}, {name: 'system-prompt', value: true}, {name: 'max-steps', value: true}, {name: 'yolo'},
	{name: 'p', value: true}, {name: 'json'}, {name: 'cwd', value: true}, {name: 'width', value: true}, {name: 'continue'}, {name: 'resume', value: true},
] as const;

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

	if (parsed.flags.has('p')) {
		const {promptOnceCommand} = await import('./prompt-once-command.js');
		return promptOnceCommand(parsed, io);
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
		const agent = await interactiveAgent(parsed, io, config);
		const rules = [...(config.approval?.ask ?? []), ...(agent.model !== undefined && !parsed.flags.has('yolo') ? AGENT_ASK_RULES : [])];
		const resumeFlag = parsed.flags.get('resume');
		const resumed = await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(typeof resumeFlag === 'string' ? {resumeId: resumeFlag} : {}), ...(typeof sessionDirFlag === 'string' ? {sessionDir: sessionDirFlag} : {}), env: io.env, cwd});
		if (resumed !== undefined) {
			// Above the live screen, once: what is continued and where to read it.
			await io.printError(`cardterm: continuing session ${resumed.header.id} (${resumed.events.length} events; Ctrl+O opens the pager on it)\n`);
		}

		const {controller, logOutcome, discardIfEmpty} = await openInteractiveSession({root, cwd, id: resumed?.header.id ?? newSessionId(Date.now()), plugins, rules, ...(resumed === undefined ? {} : {resumed}), agent: agent.model === undefined ? {none: agent.why, ...(agent.status === undefined ? {} : {status: agent.status}), connect: {...agent.connect, askRules: parsed.flags.has('yolo') ? [] : AGENT_ASK_RULES}} : {model: agent.model, from: agent.from, resolve: agent.resolve, ...(agent.systemPrompt === undefined ? {} : {systemPrompt: agent.systemPrompt}), ...(agent.maxSteps === undefined ? {} : {maxSteps: agent.maxSteps})}});
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

		// The Ctrl+O pager's `y` and `o`, as in replay: texts a terminal without OSC 52 cannot take are printed on exit.
		const copies: string[] = [];
		const instance = render(
			<ColorDepthContext.Provider value={colorDepth(color, io.env)}>
			<InteractiveApp
				model={controller}
				theme={color ? colorTheme : monochromeTheme}
				color={color}
				hyperlinks={hyperlinksEnabled(color, io.env, io.isTTY)}
				motion={motionEnabled(color, io.env)}
				onFrame={onFrame}
				onCopy={text => copyText(text, copies, io.env)}
				onOpen={card => openInEditor(card, io.cwd, io.env)}
			/>
			</ColorDepthContext.Provider>,
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
		for (const text of copies) {
			await io.print(`${text}\n`);
		}

		// A start and a quit with nothing done leaves no session behind, and nothing to say about one.
		if (!(await discardIfEmpty())) {
			await io.printError(`${logOutcomeMessage(logOutcome())}\n`);
		}
		return 0;
	}, {terminal: true});
}

/** The model of an interactive session, or why there is none (the session then starts in command mode). */
async function interactiveAgent(parsed: ParsedArgs, io: CliIo, config: CardtermConfig): Promise<{model: ModelClient; from: string; systemPrompt?: string; maxSteps?: number; resolve: (spec: string) => ModelClient} | {model: undefined; why: string; status?: string; connect: {resolve: (spec: string) => ModelClient; systemPrompt?: string; maxSteps?: number}}> {
	const flag = (name: string): string | undefined => {
		const value = parsed.flags.get(name);
		return typeof value === 'string' ? value : undefined;
	};

	// The agent's settings, for a model configured now or connected later with `/model`.
	const systemPrompt = await systemPromptFile(flag('system-prompt'), io.cwd);
	const maxSteps = positiveInt(parsed, 'max-steps', 'cardterm');
	const settings = {...(systemPrompt === undefined ? {} : {systemPrompt}), ...(maxSteps === undefined ? {} : {maxSteps})};
	// `/model SPEC` resolves as --model does, against the same server when --base-url chose one.
	const resolver = (baseUrl: string | undefined) => (spec: string): ModelClient => resolveModel({spec, env: io.env, ...(baseUrl === undefined ? {} : {baseUrl})});
	const chosen = await agentModel({...(flag('model') === undefined ? {} : {flag: flag('model')}), ...(flag('base-url') === undefined ? {} : {baseUrlFlag: flag('base-url')}), env: io.env, config, cwd: io.cwd});
	switch (chosen.kind) {
		case 'none': {
			const baseUrl = flag('base-url') ?? nonEmpty(io.env.CARDTERM_BASE_URL);
			return {model: undefined, why: chosen.hint, connect: {resolve: resolver(baseUrl), ...settings}};
		}

		case 'unusable': {
			return {model: undefined, why: `the model cannot be used: ${chosen.message}`, status: 'model not usable (see /model)', connect: {resolve: resolver(chosen.setting.baseUrl), ...settings}};
		}

		default: {
			return {model: chosen.model, from: chosen.setting.from, resolve: resolver(chosen.setting.baseUrl), ...settings};
		}
	}
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}
