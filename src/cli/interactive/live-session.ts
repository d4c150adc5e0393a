/**
@module The interactive session behind its first frame (`../interactive-command.ts` checked the
arguments and drew it): the configuration, plugins, model, session and log, a continued session's
history, then the Ink screen (`live-screen.tsx`), until the session ends. Ink and React load only
after the history is in the scrollback: they are most of a start's modules, and the history needs
nothing but the layout (issue 16: resume of a 200-call session).
*/
import {scrollbackOutput, type ScrollbackStyle} from '../../../components/scrollback-output.js';
import {joinOutput, type TerminalOutput} from '../../layout/terminal-sink.js';
import type {ModelClient} from '../../agent/model-types.js';
import {preloadModelLibrary, resolveModel} from '../../agent/model-client.js';
import {AGENT_ASK_RULES, agentModel, systemPromptFile} from '../agent-setup.js';
import {loadConfig, type CardtermConfig} from '../approval-policy.js';
import {copyText, openInEditor} from '../pager-actions.js';
import type {CliIo} from '../cli-io.js';
import {logOutcomeMessage} from './log-outcome.js';
import {openInteractiveSession} from './open-interactive-session.js';
import {loadPlugins} from '../load-plugins.js';
import {newSessionId} from '../open-session.js';
import {positiveInt, type ParsedArgs} from '../parse-args.js';
import {drawBootFrame, type BootFrame} from './boot-frame.js';
import {resumeTarget} from '../resume-target.js';
import {withScreenEnvironment} from '../screen-environment.js';
import type {SessionController} from './session-controller.js';
import {sessionsRoot} from '../session-paths.js';
import {whenAborted} from '../termination-signals.js';
import {colorFlagOf, outputColors} from '../output-options.js';
import {motionEnabled} from '../terminal-env.js';

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
	const plugins = await loadPlugins(parsed.repeated.get('plugin') ?? [], io.cwd);
	const agent = await interactiveAgent(parsed, io, config);
	const rules = [...(config.approval?.ask ?? []), ...(agent.model !== undefined && !parsed.flags.has('yolo') ? AGENT_ASK_RULES : [])];
	const resumeFlag = parsed.flags.get('resume');
	const resumed = await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(typeof resumeFlag === 'string' ? {resumeId: resumeFlag} : {}), ...(typeof sessionDirFlag === 'string' ? {sessionDir: sessionDirFlag} : {}), env: io.env, cwd});
	if (resumed !== undefined) {
		// Above the live screen, once: what is continued and where to read it.
		await boot.clear();
		await io.printError(`cardterm: continuing session ${resumed.header.id} (${resumed.events.length} events; Ctrl+O opens the pager on it)\n`);
	}

	const {controller, logOutcome, discardIfEmpty} = await openInteractiveSession({root, cwd, id: resumed?.header.id ?? newSessionId(Date.now()), plugins, rules, ...(resumed === undefined ? {} : {resumed}), agent: agent.model === undefined ? {none: agent.why, ...(agent.status === undefined ? {} : {status: agent.status}), connect: {...agent.connect, askRules: parsed.flags.has('yolo') ? [] : AGENT_ASK_RULES}} : {model: agent.model, from: agent.from, resolve: agent.resolve, ...(agent.systemPrompt === undefined ? {} : {systemPrompt: agent.systemPrompt}), ...(agent.maxSteps === undefined ? {} : {maxSteps: agent.maxSteps})}});
	// A termination signal closes the session as Ctrl+D does: the running call is cancelled, jobs end,
	// the log closes, and the screen is given back (the app exits when the controller is closing).
	whenAborted(signal, () => {
		void controller.close();
	});
	const {color, theme, depth, hyperlinks} = outputColors(colorFlagOf(parsed), io);
	const style = {theme, color, depth, hyperlinks, sessionCwd: controller.cwd};
	// The first frame again under the history, while the screen loads: the prompt is there and keys are held.
	const frame = resumed === undefined ? boot : await writeHistory(controller, io, style).then(async () => drawBootFrame(io, process.stdout.rows, process.stdin));
	const {renderLiveScreen} = await withScreenEnvironment(async () => import('./live-screen.js'));

	// The Ctrl+O pager's `y` and `o`, as in replay: texts a terminal without OSC 52 cannot take are printed on exit.
	const copies: string[] = [];
	// Ink's first frame is drawn where the first frame was, within render(). Raw mode stays on for
	// Ink; the outer frame's release gives the terminal its line mode back when the session ends.
	await boot.clear();
	await frame.clear();
	const instance = renderLiveScreen({
		controller,
		...style,
		motion: motionEnabled(color, io.env),
		onCopy: text => copyText(text, copies, io.env),
		onOpen: card => openInEditor(card, io.cwd, io.env),
	});
	const {model} = agent;
	if (model !== undefined) {
		// After the first frame: the prompt does not wait for the model library, the first request need not either.
		setImmediate(() => {
			preloadModelLibrary(model);
		});
	}

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
}

/**
A continued session's history, written into the scrollback before the screen loads: what the
controller queued for the app when it started from the log (the app then finds none queued), by
the rule the app writes entries with, at the terminal's width of now.
*/
async function writeHistory(controller: SessionController, io: CliIo, style: ScrollbackStyle): Promise<void> {
	const terminal = {width: Math.max(1, process.stdout.columns || (io.columns ?? 80)), rows: process.stdout.rows || 24, now: Date.now()};
	const outputs: TerminalOutput[] = [];
	const stop = controller.onScrollback(entry => {
		outputs.push(scrollbackOutput(entry, style, terminal));
	});
	stop();
	await io.write(joinOutput(outputs));
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
