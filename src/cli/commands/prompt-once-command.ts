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
- 130 cancelled (Ctrl+C).
*/
import {join, resolve} from 'node:path';
import {makeDirectory} from '../../session/store/make-directory.js';
import {turnOutcome} from '../../session/fold/entry-facts.js';
import {loadConfig} from '../../config/load-config.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {TurnEndReason} from '../../session/recorder/session-runtime.js';
import type {StopCode} from '../../agent/step-ending.js';
import {AGENT_ASK_RULES, agentModel, systemPromptFile} from '../interactive/agent-setup.js';
import {sessionAgent} from '../../host/session-agent.js';
import type {CliIo} from '../environment/cli-io.js';
import {newSessionId, openSession} from '../../host/open-session.js';
import {positiveInt, stringFlag, UsageError, type ParsedArgs} from '../environment/parse-args.js';
import {promptOutput} from '../print/prompt-output.js';
import {continueLog} from '../../host/continue-log.js';
import {sessionSecrets} from '../../host/session-secrets.js';
import {forkTarget} from '../interactive/fork-target.js';
import {resumeTarget} from '../interactive/resume-target.js';
import {sessionsRoot} from '../environment/session-paths.js';
import {withTerminationSignals} from '../environment/termination-signals.js';
import {TranscriptStream} from '../print/transcript-stream.js';

export async function promptOnceCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
	const prompt = stringFlag(parsed, 'p') ?? '';
	if (prompt.trim() === '') {
		throw new UsageError('-p needs a prompt: cardterm -p "PROMPT"');
	}

	const cwd = resolve(io.cwd, stringFlag(parsed, 'cwd') ?? '.');
	const config = await loadConfig(cwd, io.env);
	for (const warning of config.warnings) {
		// eslint-disable-next-line no-await-in-loop -- warnings print in order
		await io.printError(`cardterm: ${warning}\n`);
	}

	// Nobody to ask here: a project's server that was not allowed is refused, with how to allow it.
	const chosen = await agentModel({...(stringFlag(parsed, 'model') === undefined ? {} : {flag: stringFlag(parsed, 'model')}), ...(stringFlag(parsed, 'base-url') === undefined ? {} : {baseUrlFlag: stringFlag(parsed, 'base-url')}), ...(stringFlag(parsed, 'allow-endpoint') === undefined ? {} : {allowEndpoint: stringFlag(parsed, 'allow-endpoint')}), env: io.env, config, cwd});
	if (chosen.kind === 'none') {
		throw new UsageError(`-p: ${chosen.hint}`);
	}

	if (chosen.kind === 'unusable') {
		throw new UsageError(`-p: ${chosen.message}`);
	}

	const systemPrompt = await systemPromptFile(stringFlag(parsed, 'system-prompt'), io.cwd);
	const maxSteps = positiveInt(parsed, 'max-steps', 'cardterm') ?? config.agent.maxSteps;
	const output = promptOutput(parsed, io, 'cardterm', cwd);

	const sessionDir = stringFlag(parsed, 'session-dir');
	const fork = stringFlag(parsed, 'fork');
	const resumed = fork === undefined
		? await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(stringFlag(parsed, 'resume') === undefined ? {} : {resumeId: stringFlag(parsed, 'resume')}), ...(sessionDir === undefined ? {} : {sessionDir}), env: io.env, cwd})
		: await forkTarget({fork, ...(sessionDir === undefined ? {} : {sessionDir}), env: io.env, cwd});
	return withTerminationSignals(async signal => {
		const id = resumed?.header.id ?? newSessionId(Date.now());
		const folder = join(sessionsRoot(stringFlag(parsed, 'session-dir'), io.env, io.cwd), id);
		const logPath = resumed?.path ?? await makeDirectory(folder).then(() => join(folder, 'session.jsonl'), async (error: unknown) => {
			await io.printError(`cardterm: session log not saved: cannot create ${folder}: ${(error as Error).message}\n`);
			return undefined;
		});
		// Without a person to ask, an ask is answered "unavailable": the model is told the call was refused.
		const rules = parsed.flags.has('yolo') ? [] : [...config.approval.ask, ...AGENT_ASK_RULES];
		const session = await openSession({
			cwd,
			id,
			...(logPath === undefined ? {} : {logPath}),
			...(rules.length === 0 ? {} : {rules}),
			secrets: sessionSecrets(io.env, config.env),
			onLogError(error) {
				void io.printError(`cardterm: ${error.message}\n`);
			},
		});
		// Nobody can cancel a long wait here: a provider asking for one ends the turn.
		const agent = await sessionAgent(session, {cwd, model: chosen.model, longWaits: 'stop', ...(systemPrompt === undefined ? {} : {systemPrompt}), ...(maxSteps === undefined ? {} : {maxSteps}), ...(config.agent.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: config.agent.stallTimeoutMs}), ...(resumed === undefined ? {} : {history: resumed.events})});
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
			const outcome = await agent.loop.runTurn(prompt, {signal});
			stream.finish();
			await output.finish(outcome.reason.kind === 'completed');
			const code = exitCode(outcome.reason);
			if (code !== 0 && code !== 130) {
				const ended = turnOutcome(outcome.reason);
				await io.printError(`cardterm: ${ended.text}\n${ended.advice === undefined ? '' : `cardterm: ${ended.advice}\n`}`);
			}

			return code;
		} finally {
			stopFollowing();
			agent.dispose();
			await session.close().catch(() => undefined);
		}
	});
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
