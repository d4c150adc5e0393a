/**
@module `cardterm -p "PROMPT"`: one agent turn without a screen. The answer is printed on stdout and
what the agent did on stderr as it settles (`prompt-output.ts`; `--transcript`: all of it on stdout
as `replay --print` prints it; `--json`: one object per entry, as `replay --json`); the session is
recorded like an interactive one. The exit code says how the turn ended; anything but a normal
completion also says it on stderr, in one line:

- 0 completed: the model answered and stopped as it meant to;
- 1 error: a provider or network failure (after its retries), a stream that kept stalling, a
  conversation past the model's window, a malformed call, an empty answer, or a wait the provider
  asked for that is too long to take without a person;
- 2 no usable model, or a usage error;
- 3 refused: the model refused, or a content filter or safety block stopped the answer;
- 4 cut: the answer (or a tool call) was cut at the model's output limit;
- 5 stopped: the step limit, or a runaway loop (the same call again and again);
- 6 needs approval: the turn completed, but calls were not run because they needed an approval
  nobody could give here (`--yolo`, or `--allow TOOL`, allows them; `unattended-refusals.ts`);
- 130 cancelled (Ctrl+C).

Plugins (`--plugin`) are applied as in the interactive session. The last line on stderr says what is
on disk (`session saved: PATH (N events)`).
*/
import {loadUserCommands} from '../../host/user-commands.js';
import {mcpPromptLine} from '../../live/commands/mcp-prompt.js';
import {userCommandPrompt} from '../../live/commands/user-command.js';
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {join, resolve} from 'node:path';
import {makeDirectory} from '../../session/store/make-directory.js';
import {turnOutcome} from '../../session/fold/entry-facts.js';
import {loadConfig} from '../../config/load-config.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {TurnEndReason} from '../../session/recorder/session-runtime.js';
import type {StopCode} from '../../agent/step-ending.js';
import type {ModelClient} from '../../agent/model-types.js';
import {imagesRefusal} from '../../agent/agent-loop.js';
import {attachImage, isImageRefusal} from '../../session/store/image-attachments.js';
import type {ImageAttachment} from '../../tools/content.js';
import {agentModel, startMode, systemPromptFile} from '../interactive/agent-setup.js';
import {agentAskRules, SessionMode} from '../../host/session-mode.js';
import {chooseHooks} from '../interactive/hook-setup.js';
import {sessionAgent} from '../../host/session-agent.js';
import type {CliIo} from '../environment/cli-io.js';
import {logOutcomeMessage, logOutcomeOf} from '../../host/log-outcome.js';
import {newSessionId, openSession, type OpenedSession} from '../../host/open-session.js';
import {Approvals} from '../../host/approvals.js';
import {unattendedRefusals, type UnattendedRefusal, type UnattendedRefusals} from '../../host/unattended-refusals.js';
import {positiveInt, stringFlag, UsageError, type ParsedArgs} from '../environment/parse-args.js';
import {loadPlugins} from '../load-plugins.js';
import {promptOutput} from '../print/prompt-output.js';
import {continueLog} from '../../host/continue-log.js';
import {sessionSecrets} from '../../host/session-secrets.js';
import {forkTarget} from '../interactive/fork-target.js';
import {resumeTarget} from '../interactive/resume-target.js';
import {sessionsRoot} from '../environment/session-paths.js';
import {withTerminationSignals} from '../environment/termination-signals.js';
import {TranscriptStream} from '../print/transcript-stream.js';
import {version} from '../environment/version.js';
import {chooseMcpServers, sessionMcpOptions} from '../interactive/mcp-setup.js';
import {attachReferences, mcpReferences} from '../../host/prompt-references.js';

export async function promptOnceCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
	const line = stringFlag(parsed, 'p') ?? '';
	if (line.trim() === '') {
		throw new UsageError('-p needs a prompt: cardterm -p "PROMPT"');
	}

	const cwd = resolve(io.cwd, stringFlag(parsed, 'cwd') ?? '.');
	const config = await loadConfig(cwd, io.env);
	for (const warning of config.warnings) {
		// eslint-disable-next-line no-await-in-loop -- warnings print in order
		await io.printError(`cardterm: ${warning}\n`);
	}

	// `-p "/name args"` runs a command the person wrote; any other line goes to the model as it is.
	const prompt = line.trimStart().startsWith('/') ? userCommandPrompt(line, (await loadUserCommands(cwd, io.env)).commands) ?? line : line;

	// Nobody to ask here: a project's server that was not allowed is refused, with how to allow it.
	const chosen = await agentModel({...(stringFlag(parsed, 'model') === undefined ? {} : {flag: stringFlag(parsed, 'model')}), ...(stringFlag(parsed, 'base-url') === undefined ? {} : {baseUrlFlag: stringFlag(parsed, 'base-url')}), ...(stringFlag(parsed, 'allow-endpoint') === undefined ? {} : {allowEndpoint: stringFlag(parsed, 'allow-endpoint')}), env: io.env, config, cwd});
	if (chosen.kind === 'none') {
		throw new UsageError(`-p: ${chosen.hint}`);
	}

	if (chosen.kind === 'unusable') {
		throw new UsageError(`-p: ${chosen.message}`);
	}

	const imagePaths = parsed.repeated.get('image') ?? [];
	const refused = imagePaths.length === 0 ? undefined : imagesRefusal(chosen.model);
	if (refused !== undefined) {
		throw new UsageError(`-p: ${refused}`);
	}

	const mode = startMode(parsed.flags, config);
	const yolo = parsed.flags.has('yolo') || parsed.flags.get('mode') === 'bypass';
	// Nobody to ask either: a project's MCP servers nobody allowed are not started, and a line says so.
	const mcp = await chooseMcpServers(config, io, {yolo});
	const hooks = await chooseHooks(config, io, {yolo}) ?? [];
	const systemPrompt = await systemPromptFile(stringFlag(parsed, 'system-prompt'), io.cwd);
	const maxSteps = positiveInt(parsed, 'max-steps', 'cardterm') ?? config.agent.maxSteps;
	const output = promptOutput(parsed, io, 'cardterm', cwd);

	if (parsed.flags.get('resume') === true) {
		throw new UsageError('-p: --resume needs a session id here, with nobody to pick one (cardterm sessions lists them; --continue takes the newest)');
	}

	const sessionDir = stringFlag(parsed, 'session-dir');
	const fork = stringFlag(parsed, 'fork');
	const resumed = fork === undefined
		? await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(stringFlag(parsed, 'resume') === undefined ? {} : {resumeId: stringFlag(parsed, 'resume')}), ...(sessionDir === undefined ? {} : {sessionDir}), env: io.env, cwd, async onNotice(message) {
			await io.printError(`cardterm: ${message}\n`);
		}})
		: await forkTarget({fork, ...(sessionDir === undefined ? {} : {sessionDir}), env: io.env, cwd});
	const allowed = allowFlag(parsed);
	return withTerminationSignals(async signal => {
		// The session's plugins, as the interactive session's: a guard plugin guards unattended runs too.
		const skipped = (message: string): void => {
			void io.printError(`cardterm: ${message}\n`);
		};

		const plugins = await loadPlugins(parsed.repeated.get('plugin') ?? [], io.cwd, {signal, onSkipped: skipped});
		const id = resumed?.header.id ?? newSessionId(Date.now());
		const folder = join(sessionsRoot(stringFlag(parsed, 'session-dir'), io.env, io.cwd), id);
		let notSaved = 'no log was opened';
		const logPath = resumed?.path ?? await makeDirectory(folder).then(() => join(folder, 'session.jsonl'), async (error: unknown) => {
			notSaved = `cannot create ${folder}: ${(error as Error).message}`;
			await io.printError(`cardterm: session log not saved: ${notSaved}\n`);
			return undefined;
		});
		// Without a person to ask, an ask is answered "unavailable": the model is told the call was not run.
		// --allow answers "allow for this session" for its tools in advance.
		const rules = mode === 'bypass' ? [] : [...config.approval.ask, ...agentAskRules(mode)];
		const approvals = new Approvals();
		for (const tool of allowed) {
			approvals.allowTool(tool);
		}

		const session = await openSession({
			cwd,
			id,
			...(logPath === undefined ? {} : {logPath}),
			plugins,
			pluginApply: {signal},
			onPluginSkipped: skipped,
			approvals,
			// The agent's commands start from a spawner started now, not at the first of them.
			warmCommands: true,
			mode: new SessionMode(mode, {commandNetwork: config.commandNetwork}),
			hooks,
			...(rules.length === 0 ? {} : {rules}),
			secrets: sessionSecrets(io.env, config.env),
			...(mcp === undefined ? {} : {mcp: sessionMcpOptions(mcp, io.env, {yolo, clientVersion: version})}),
			onLogError(error) {
				notSaved = error.message;
				void io.printError(`cardterm: ${error.message}\n`);
			},
		});
		const refusals = unattendedRefusals(session, tool => `rerun with --allow ${tool}, or --yolo to approve every call`);
		try {
			const unknown = [...allowed].filter(name => !session.toolNames().has(name));
			if (unknown.length > 0) {
				// A typo the person should hear of, not a silent no-op.
				await io.printError(`cardterm: --allow: no tool named ${unknown.join(', ')} (the tools: ${[...session.toolNames()].sort().join(', ')})\n`);
			}

			// One prompt, no person: the model's first request has the servers' tools (each server's start has its limit).
			await session.mcp?.settled();
			for (const server of session.mcp?.status() ?? []) {
				if (server.state === 'failed' || server.state === 'needs login') {
					// eslint-disable-next-line no-await-in-loop -- one line per failed server, in order
					await io.printError(`cardterm: MCP server ${server.name} ${server.state}: ${server.reason ?? 'unknown'}\n`);
				}
			}

			const images: ImageAttachment[] = [];
			for (const path of imagePaths) {
				// eslint-disable-next-line no-await-in-loop -- attached in the order given
				const attached = await attachImage(path, cwd, session.attachments);
				if (isImageRefusal(attached)) {
					// eslint-disable-next-line no-await-in-loop -- the loop ends here
					await io.printError(`cardterm: --image: ${attached.refusal}\n`);
					return 2;
				}

				images.push(attached);
			}

			// `-p "/mcp__SERVER__PROMPT args"`: the server's prompt is the message.
			const fromServer = prompt.trimStart().startsWith('/') && session.mcp !== undefined ? await mcpPromptLine(prompt, session.mcp) : undefined;
			if (fromServer !== undefined && 'problem' in fromServer) {
				await io.printError(`cardterm: ${sanitizeInline(fromServer.problem)}\n`);
				return 1;
			}

			if (fromServer?.note !== undefined) {
				await io.printError(`cardterm: ${sanitizeInline(fromServer.note)}\n`);
			}

			return await runTurn(session, chosen.model, refusals, signal, fromServer?.text ?? prompt, images);
		} finally {
			refusals.stop();
			await session.close().catch(() => undefined);
			await io.printError(`cardterm: ${logOutcomeMessage(logOutcomeOf(session, notSaved))}\n`);
		}
	});

	async function runTurn(session: OpenedSession, model: ModelClient, refusals: UnattendedRefusals, signal: AbortSignal, message: string, images: readonly ImageAttachment[]): Promise<number> {
		// Nobody can cancel a long wait here: a provider asking for one ends the turn.
		const agent = await sessionAgent(session, {cwd, model, env: io.env, longWaits: 'stop', context: config.context, ...(systemPrompt === undefined ? {} : {systemPrompt}), ...(maxSteps === undefined ? {} : {maxSteps}), ...(config.agent.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: config.agent.stallTimeoutMs}), ...(resumed === undefined ? {} : {history: resumed.events})});
		// Entries are printed in order as they settle.
		const stream = new TranscriptStream(session.fold, entry => {
			output.add(entry);
		});
		const stopFollowing = session.onFoldChange(() => {
			stream.advance();
		});
		if (resumed !== undefined) {
			continueLog(session, resumed.events);
		}

		try {
			session.mode.tell(session.runtime.agent);
			const outcome = await agent.loop.runTurn(await attachReferences(message, {cwd, signal, ...(session.mcp === undefined ? {} : {resources: mcpReferences(session.mcp)})}), {signal, images});
			stream.finish();
			await output.finish(outcome.reason.kind === 'completed');
			const code = exitCode(outcome.reason);
			if (code !== 0 && code !== 130) {
				const ended = turnOutcome(outcome.reason);
				await io.printError(`cardterm: ${ended.text}\n${ended.advice === undefined ? '' : `cardterm: ${ended.advice}\n`}`);
			}

			if (refusals.refused.length > 0) {
				await io.printError(`cardterm: ${refusalsText(refusals.refused)}\n`);
				return code === 0 ? NEEDS_APPROVAL : code;
			}

			return code;
		} finally {
			stopFollowing();
			agent.dispose();
		}
	}
}

/** The exit code of a completed turn in which calls were refused for want of a person to approve them. */
export const NEEDS_APPROVAL = 6;

/** `--allow TOOL[,TOOL…]` (repeatable): the tools whose calls run without a question, as if allowed for the session. */
function allowFlag(parsed: ParsedArgs): ReadonlySet<string> {
	const names = (parsed.repeated.get('allow') ?? []).flatMap(value => value.split(',')).map(name => name.trim());
	if (names.includes('')) {
		throw new UsageError('--allow needs tool names: --allow write,bash');
	}

	return new Set(names);
}

/** What was not run, and how the person allows it next time. */
function refusalsText(refused: readonly UnattendedRefusal[]): string {
	const tools = [...new Set(refused.map(call => call.toolName))];
	const calls = refused.length === 1 ? '1 call was' : `${refused.length} calls were`;
	return `${calls} not run (${tools.join(', ')}): ${tools.length === 1 ? 'it needs' : 'they need'} approval, and -p has nobody to ask. Rerun with --allow ${tools.join(',')}, or --yolo to approve every call.`;
}

const refusedCodes: ReadonlySet<string> = new Set<StopCode>(['refusal', 'content-filter']);

/** The exit code of a turn's end (the module comment lists them). */
function exitCode(reason: TurnEndReason): number {
	switch (reason.kind) {
		case 'completed': {
			return 0;
		}

		case 'aborted': {
			return 130;
		}

		case 'error': {
			return 1;
		}

		case 'max-tokens': {
			return 4;
		}

		case 'blocked': {
			// A refusal or a filter (step-ending.ts); otherwise the step limit, a loop, or an older producer's block.
			return refusedCodes.has(reason.code ?? '') ? 3 : 5;
		}

		default: {
			return assertNever(reason);
		}
	}
}
