/**
@module `cardterm -p "PROMPT"`: one agent turn without a screen. The transcript is printed as it
settles, as `replay --print` prints it (`--json`: one object per entry, as `replay --json`); the
session is recorded like an interactive one. The exit code says how the turn ended; anything but a
normal completion also says it on stderr, in one line:

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
import type {TerminalOutput} from '../layout/terminal-sink.js';
import {makeDirectory} from '../session/make-directory.js';
import {turnOutcome} from '../session/entry-facts.js';
import {approvalPolicy} from '../config/approval-rules.js';
import {loadConfig} from '../config/load-config.js';
import {assertNever} from '../presentation/assert-never.js';
import type {TurnEndReason} from '../session/session-runtime.js';
import type {StopCode} from '../agent/step-ending.js';
import {AGENT_ASK_RULES, agentModel, systemPromptFile} from './agent-setup.js';
import {sessionAgent} from '../host/session-agent.js';
import type {CliIo} from './cli-io.js';
import {entryOutput} from './entry-output.js';
import {newSessionId, openSession} from '../host/open-session.js';
import {positiveInt, stringFlag, UsageError, type ParsedArgs} from './parse-args.js';
import {continueLog} from '../host/continue-log.js';
import {resumeTarget} from './resume-target.js';
import {sessionsRoot} from './session-paths.js';
import {withTerminationSignals} from './termination-signals.js';
import {colorEnabled, hyperlinksEnabled, printRows} from './terminal-env.js';
import {TranscriptStream} from './transcript-stream.js';

export async function promptOnceCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
	const prompt = stringFlag(parsed, 'p') ?? '';
	if (prompt.trim() === '') {
		throw new UsageError('-p needs a prompt: cardterm -p "PROMPT"');
	}

	const cwd = resolve(io.cwd, stringFlag(parsed, 'cwd') ?? '.');
	const config = await loadConfig(cwd, io.env);
	for (const warning of config.warnings) {
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
	const json = parsed.flags.has('json');
	const colorFlag = parsed.flags.has('color') ? true : (parsed.flags.has('no-color') ? false : undefined);
	const color = !json && colorEnabled(colorFlag, io.env, io.isTTY);
	const output = entryOutput({json, ...printRows(positiveInt(parsed, 'width', 'cardterm'), io.columns, io.isTTY), color, hyperlinks: hyperlinksEnabled(color, io.env, io.isTTY), isTTY: io.isTTY, sessionCwd: cwd, now: Date.now()});

	const resumed = await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(stringFlag(parsed, 'resume') === undefined ? {} : {resumeId: stringFlag(parsed, 'resume')}), ...(stringFlag(parsed, 'session-dir') === undefined ? {} : {sessionDir: stringFlag(parsed, 'session-dir')}), env: io.env, cwd});
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
			...(rules.length === 0 ? {} : {policy: approvalPolicy(rules, cwd, () => new Set())}),
			onLogError(error) {
				void io.printError(`cardterm: ${error.message}\n`);
			},
		});
		// Nobody can cancel a long wait here: a provider asking for one ends the turn.
		const agent = await sessionAgent(session, {cwd, model: chosen.model, longWaits: 'stop', ...(systemPrompt === undefined ? {} : {systemPrompt}), ...(maxSteps === undefined ? {} : {maxSteps}), ...(config.agent.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: config.agent.stallTimeoutMs}), ...(resumed === undefined ? {} : {history: resumed.events})});
		// Entries are printed in order as they settle; writes queue so that back-pressure holds.
		let writing: Promise<void> = Promise.resolve();
		const stream = new TranscriptStream(session.fold, entry => {
			const text: TerminalOutput = output(entry);
			writing = writing.then(async () => io.write(text));
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
			await writing;
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
export function exitCode(reason: TurnEndReason): number {
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
