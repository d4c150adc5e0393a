/**
@module The interactive session behind its first frame (`../commands/interactive-command.ts` checked the
arguments and drew it): the configuration, plugins, model, session and log, a continued session's
history, then the live screen (`live-screen.tsx`, the ACP session's too), until the session ends. Ink and React load only
after the history is in the scrollback: they are most of a start's modules, and the history needs
nothing but the layout (issue 16: resume of a 200-call session).
*/
import {loadUserCommands} from '../../host/user-commands.js';
import {scrollbackOutput, type ScrollbackStyle} from '../../../components/scrollback-output.js';
import {joinOutput, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import type {ModelClient} from '../../agent/model-types.js';
import {preloadModelLibrary} from '../../agent/model-client.js';
import {agentModel, startMode, systemPromptFile, type AgentModel} from './agent-setup.js';
import {allowEndpoint} from '../../config/endpoint-consent.js';
import {loadConfig, type CardtermConfig} from '../../config/load-config.js';
import {httpUrl, type ContextFileSettings} from '../../config/config-schema.js';
import {withoutProjectModel} from '../../config/model-setting.js';
import {assertNever} from '../../presentation/assert-never.js';
import {askEndpointConsent} from './endpoint-question.js';
import type {CliIo} from '../environment/cli-io.js';
import {logOutcomeMessage} from '../../host/log-outcome.js';
import {openInteractiveSession} from './open-interactive-session.js';
import {loadPlugins} from '../load-plugins.js';
import {newSessionId} from '../../host/open-session.js';
import {positiveInt, stringFlag, UsageError, type ParsedArgs} from '../environment/parse-args.js';
import {drawBootFrame, type BootFrame} from './boot-frame.js';
import {forkTarget} from './fork-target.js';
import {resumeTarget, type ResumedLog} from './resume-target.js';
import {listSessions} from '../../session/store/session-store.js';
import {pickSession} from './session-picker.js';
import {withScreenEnvironment} from '../environment/screen-environment.js';
import type {LiveSession} from '../../live/live-session.js';
import {colorFlagOf} from '../print/output-options.js';
import {screenStyle} from './screen-style.js';
import {sessionsRoot} from '../environment/session-paths.js';
import {whenAborted} from '../environment/termination-signals.js';
import {sessionSecrets} from '../../host/session-secrets.js';
import {SessionMode} from '../../host/session-mode.js';
import {chooseHooks} from './hook-setup.js';
import {version} from '../environment/version.js';
import {chooseMcpServers, sessionMcpOptions} from './mcp-setup.js';

export type LiveSessionOptions = {
	readonly parsed: ParsedArgs;
	readonly io: CliIo;
	/** The workspace (`--cwd`), checked to be a directory. */
	readonly cwd: string;
	/** Aborted by a termination signal. */
	readonly signal: AbortSignal;
	/** The first frame on screen; erased before anything else is written. */
	readonly boot: BootFrame;
};

/** Runs the session until it ends; returns the exit code. */
export async function runLiveSession({parsed, io, cwd, signal, boot}: LiveSessionOptions): Promise<number> {
	const sessionDirFlag = parsed.flags.get('session-dir');
	const root = sessionsRoot(typeof sessionDirFlag === 'string' ? sessionDirFlag : undefined, io.env, io.cwd);
	const config = await loadConfig(cwd, io.env);
	// Lines above the live screen (config warnings, the endpoint question, the continued session): the first frame is drawn again under them.
	let printedAbove = false;
	const above = async (text: string): Promise<void> => {
		await boot.clear();
		printedAbove = true;
		await io.printError(text);
	};

	for (const warning of config.warnings) {
		// eslint-disable-next-line no-await-in-loop -- warnings print in order
		await above(`cardterm: ${warning}\n`);
	}

	const chosen = await chooseModel(parsed, io, config, cwd, {above, signal});
	if (chosen === undefined) {
		// Quit at the endpoint question: nothing was started.
		return 130;
	}

	const mode = startMode(parsed.flags, config);
	// --yolo and --mode bypass, typed for this session, also start the project's MCP servers (a config's default mode does not).
	const yolo = parsed.flags.has('yolo') || parsed.flags.get('mode') === 'bypass';
	const mcp = await chooseMcpServers(config, io, {yolo, ask: {stdin: process.stdin, above, signal}});
	if (mcp === undefined) {
		// Quit at the MCP servers' question: nothing was started.
		return 130;
	}

	const hooks = await chooseHooks(config, io, {yolo, ask: {stdin: process.stdin, above, signal}});
	if (hooks === undefined) {
		// Quit at the hooks' question: nothing was started.
		return 130;
	}

	// A plugin that takes too long is skipped, named above the screen; a signal or Ctrl+C meanwhile quits.
	const pluginStart = {signal: AbortSignal.any([signal, boot.quit])};
	const skipped = (message: string): void => {
		void above(`cardterm: ${message}\n`);
	};

	let plugins;
	try {
		plugins = await loadPlugins(parsed.repeated.get('plugin') ?? [], io.cwd, {...pluginStart, onSkipped: skipped});
	} catch (error) {
		return quitAtStart(error, boot);
	}

	const agent = await interactiveAgent(parsed, io, config, chosen);
	const rules = config.approval.ask;
	const resumeFlag = parsed.flags.get('resume');
	const forkFlag = parsed.flags.get('fork');
	// `--resume` alone: the person picks one of this directory's sessions.
	const resumeId = typeof forkFlag === 'string' ? undefined : (resumeFlag === true ? await pickResumed(io, root, cwd, {above, signal}) : resumeFlag);
	if (resumeId === null) {
		return 130;
	}

	const resumed = typeof forkFlag === 'string'
		? await forkTarget({fork: forkFlag, ...(typeof sessionDirFlag === 'string' ? {sessionDir: sessionDirFlag} : {}), env: io.env, cwd})
		: await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(resumeId === undefined ? {} : {resumeId}), ...(typeof sessionDirFlag === 'string' ? {sessionDir: sessionDirFlag} : {}), env: io.env, cwd, onNotice: async message => above(`cardterm: ${message}\n`)});
	if (resumed !== undefined) {
		// Above the live screen, once: what is continued and where to read it.
		const parent = typeof resumed.header.parentSession === 'string' && resumed.header.origin === 'fork' ? `, a fork of ${resumed.header.parentSession}` : '';
		await above(`cardterm: continuing session ${resumed.header.id}${parent} (${resumed.events.length} events; Ctrl+O opens the pager on it)\n`);
	}

	const userCommands = await loadUserCommands(cwd, io.env);
	for (const note of userCommands.notes) {
		// eslint-disable-next-line no-await-in-loop -- above the live screen, in order
		await above(`cardterm: ${note}\n`);
	}

	const open = async (continued: ResumedLog | undefined) => openInteractiveSession({root, cwd, id: continued?.header.id ?? newSessionId(Date.now()), userCommands: userCommands.commands, plugins, pluginApply: pluginStart, onPluginSkipped: skipped, rules, mode: new SessionMode(mode, {commandNetwork: config.commandNetwork}), hooks, secrets: sessionSecrets(io.env, config.env), mcp: sessionMcpOptions(mcp, io.env, {yolo, clientVersion: version}), ...(continued === undefined ? {} : {resumed: continued}), agent: agent.model === undefined ? {none: agent.why, ...(agent.status === undefined ? {} : {status: agent.status}), connect: agent.connect} : {model: agent.model, from: agent.from, resolve: agent.resolve, ...agent.settings}});
	let opened;
	try {
		opened = await open(resumed);
	} catch (error) {
		return quitAtStart(error, boot);
	}

	let {controller, logOutcome, discardIfEmpty} = opened;
	// A termination signal closes the session as Ctrl+D does: the running call is cancelled, jobs end,
	// the log closes, and the screen is given back (the app exits when the controller is closing).
	whenAborted(signal, () => {
		void controller.close();
	});
	const style = screenStyle(colorFlagOf(parsed), io, config);
	// The first frame again under the history, while the screen loads: the prompt is there and keys are held.
	if (resumed !== undefined) {
		await writeHistory(controller, io, {...style, sessionCwd: controller.cwd});
	}

	const frame = printedAbove ? await drawBootFrame(io, process.stdout.rows, process.stdin) : boot;
	const {runLiveScreen} = await withScreenEnvironment(async () => import('./live-screen.js'));
	// Ink's first frame is drawn where the first frame was, within render(). Raw mode stays on for
	// Ink; the outer frame's release gives the terminal its line mode back when the session ends.
	await boot.clear();
	await frame.clear();
	const {model} = agent;
	if (model !== undefined) {
		// After the first frame (drawn in this turn of the event loop): the prompt does not wait for the
		// model library, the first request need not either.
		setImmediate(() => {
			preloadModelLibrary(model);
		});
	}

	for (;;) {
		// eslint-disable-next-line no-await-in-loop -- one screen at a time: a session, then the fork it went on in
		await runLiveScreen(controller, style, io);
		// A start and a quit with nothing done leaves no session behind, and nothing to say about one.
		// eslint-disable-next-line no-await-in-loop -- as above
		if (!(await discardIfEmpty())) {
			// eslint-disable-next-line no-await-in-loop -- as above
			await io.printError(`${logOutcomeMessage(logOutcome())}\n`);
		}

		// `/fork` or `/rewind` closed the session to go on in a fork of it.
		const {next} = controller;
		if (next === undefined || signal.aborted) {
			return 0;
		}

		// eslint-disable-next-line no-await-in-loop -- as above
		await io.printError(`cardterm: continuing in session ${next.header.id}, a fork of ${String(next.header.parentSession)} (${next.events.length} events)\n`);
		// eslint-disable-next-line no-await-in-loop -- as above
		({controller, logOutcome, discardIfEmpty} = await open(next));
		// eslint-disable-next-line no-await-in-loop -- as above
		await writeHistory(controller, io, {...style, sessionCwd: controller.cwd});
	}
}

/**
The id of the session `--resume` without one goes on with: picked from this directory's sessions
above the first frame; `null` when the person quit. None to pick from is a usage error.
*/
async function pickResumed(io: CliIo, root: string, cwd: string, {above, signal}: {readonly above: (text: string) => Promise<void>; readonly signal: AbortSignal}): Promise<string | null> {
	const sessions = (await listSessions(root)).filter(session => session.cwd === cwd);
	if (sessions.length === 0) {
		throw new UsageError(`--resume: no saved session of ${cwd} in ${root} (cardterm sessions lists them all)`);
	}

	// The list goes where the first frame was.
	await above('');
	const picked = await pickSession(io, process.stdin, sessions, cwd, signal);
	return picked?.id ?? null;
}

/** Ctrl+C at the first frame gave up a plugin's start: the session does not start (130); any other error is thrown on. */
function quitAtStart(error: unknown, boot: BootFrame): number {
	if (boot.quit.aborted && error === boot.quit.reason) {
		return 130;
	}

	throw error;
}

/**
A continued session's history, written into the scrollback before the screen loads: what the
controller queued for the app when it started from the log (the app then finds none queued), by
the rule the app writes entries with, at the terminal's width of now.
*/
async function writeHistory(controller: LiveSession, io: CliIo, style: ScrollbackStyle): Promise<void> {
	const terminal = {width: Math.max(1, process.stdout.columns || (io.columns ?? 80)), rows: process.stdout.rows || 24, now: Date.now()};
	const outputs: TerminalOutput[] = [];
	const stop = controller.onScrollback(entry => {
		outputs.push(scrollbackOutput(entry, style, terminal));
	});
	stop();
	await io.write(joinOutput(outputs));
}

/** The agent's settings, for a model configured now or connected later with `/model`. */
type AgentSettings = {readonly systemPrompt?: string; readonly maxSteps?: number; readonly stallTimeoutMs?: number; readonly context?: ContextFileSettings};

/** The model of an interactive session, or why there is none (the session then starts in command mode). */
async function interactiveAgent(parsed: ParsedArgs, io: CliIo, config: CardtermConfig, chosen: AgentModel): Promise<{model: ModelClient; from: string; settings: AgentSettings; resolve: (spec: string) => ModelClient} | {model: undefined; why: string; status?: string; connect: AgentSettings & {resolve: (spec: string) => ModelClient}}> {
	const systemPrompt = await systemPromptFile(stringFlag(parsed, 'system-prompt'), io.cwd);
	const maxSteps = positiveInt(parsed, 'max-steps', 'cardterm') ?? config.agent.maxSteps;
	const {stallTimeoutMs} = config.agent;
	const settings: AgentSettings = {context: config.context, ...(systemPrompt === undefined ? {} : {systemPrompt}), ...(maxSteps === undefined ? {} : {maxSteps}), ...(stallTimeoutMs === undefined ? {} : {stallTimeoutMs})};
	// `/model SPEC` resolves as --model does, against the same server when one was chosen.
	switch (chosen.kind) {
		case 'none': {
			return {model: undefined, why: chosen.hint, connect: {resolve: chosen.resolve, ...settings}};
		}

		case 'unusable': {
			return {model: undefined, why: `the model cannot be used: ${chosen.message}`, status: 'model not usable (see /model)', connect: {resolve: chosen.resolve, ...settings}};
		}

		case 'ready': {
			return {model: chosen.model, from: chosen.setting.from, resolve: chosen.resolve, settings};
		}

		default: {
			return assertNever(chosen);
		}
	}
}

/**
The configured model; when its server is one a project's config chose and the person has not
allowed, the question is asked above the first frame ("no" goes on with the person's own setting).
`undefined`: the person quit.
*/
async function chooseModel(parsed: ParsedArgs, io: CliIo, config: CardtermConfig, cwd: string, {above, signal}: {readonly above: (text: string) => Promise<void>; readonly signal: AbortSignal}): Promise<AgentModel | undefined> {
	const allowFlag = stringFlag(parsed, 'allow-endpoint');
	const choose = async (from: CardtermConfig): Promise<AgentModel> => agentModel({...modelFlags(parsed), ...(allowFlag === undefined ? {} : {allowEndpoint: allowFlag}), env: io.env, config: from, cwd});
	const chosen = await choose(config);
	if (chosen.kind !== 'unusable' || chosen.consent === undefined) {
		return chosen;
	}

	const {consent} = chosen;
	const url = httpUrl(consent.url) ?? consent.url;
	// The question goes where the first frame was.
	await above('');
	const answer = await askEndpointConsent(io, process.stdin, {url, file: consent.from}, signal);
	switch (answer) {
		case 'allow': {
			const kept = await allowEndpoint(consent, config, io.env);
			await above(`cardterm: ${url} allowed for this project (remembered in ${kept})\n`);
			return choose(config);
		}

		case 'refuse': {
			await above(`cardterm: ${url} not allowed: the project's model setting is not used\n`);
			return choose(withoutProjectModel(config));
		}

		case 'quit': {
			return undefined;
		}

		default: {
			return assertNever(answer);
		}
	}
}

/** `--model` and `--base-url`, as the model setting reads them. */
function modelFlags(parsed: ParsedArgs): {flag?: string; baseUrlFlag?: string} {
	const flag = stringFlag(parsed, 'model');
	const baseUrlFlag = stringFlag(parsed, 'base-url');
	return {...(flag === undefined ? {} : {flag}), ...(baseUrlFlag === undefined ? {} : {baseUrlFlag})};
}
