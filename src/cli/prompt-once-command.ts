/**
@module `cardterm -p "PROMPT"`: one agent turn without a screen. The answer is printed on stdout and
what the agent did on stderr as it settles (`prompt-output.ts`; `--transcript`: all of it on stdout
as `replay --print` prints it; `--json`: one object per entry, as `replay --json`); the session is
recorded like an interactive one. Exit code from the turn: 0 completed, 1 error (the provider's
message on stderr, one line), 130 cancelled (Ctrl+C), 2 no usable model.
*/
import {join, resolve} from 'node:path';
import {makeDirectory} from '../session/make-directory.js';
import {turnOutcome} from '../session/entry-facts.js';
import {approvalPolicy, loadConfig} from './approval-policy.js';
import {AGENT_ASK_RULES, agentModel, sessionAgent, systemPromptFile} from './agent-setup.js';
import type {CliIo} from './cli-io.js';
import {newSessionId, openSession} from './open-session.js';
import {positiveInt, UsageError, type ParsedArgs} from './parse-args.js';
import {promptOutput} from './prompt-output.js';
import {continueLog} from './continue-log.js';
import {resumeTarget} from './resume-target.js';
import {sessionsRoot} from './session-paths.js';
import {withTerminationSignals} from './termination-signals.js';
import {TranscriptStream} from './transcript-stream.js';

const stringFlag = (parsed: ParsedArgs, name: string): string | undefined => {
	const value = parsed.flags.get(name);
	return typeof value === 'string' ? value : undefined;
};

export async function promptOnceCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
	const prompt = stringFlag(parsed, 'p') ?? '';
	if (prompt.trim() === '') {
		throw new UsageError('-p needs a prompt: cardterm -p "PROMPT"');
	}

	const cwd = resolve(io.cwd, stringFlag(parsed, 'cwd') ?? '.');
	const config = await loadConfig(cwd, io.env);
	const chosen = await agentModel({...(stringFlag(parsed, 'model') === undefined ? {} : {flag: stringFlag(parsed, 'model')}), ...(stringFlag(parsed, 'base-url') === undefined ? {} : {baseUrlFlag: stringFlag(parsed, 'base-url')}), env: io.env, config, cwd});
	if (chosen.kind === 'none') {
		throw new UsageError(`-p: ${chosen.hint}`);
	}

	if (chosen.kind === 'unusable') {
		throw new UsageError(`-p: ${chosen.message}`);
	}

	const systemPrompt = await systemPromptFile(stringFlag(parsed, 'system-prompt'), io.cwd);
	const maxSteps = positiveInt(parsed, 'max-steps', 'cardterm');
	const output = promptOutput(parsed, io, 'cardterm', cwd);

	const resumed = await resumeTarget({continueFlag: parsed.flags.has('continue'), ...(stringFlag(parsed, 'resume') === undefined ? {} : {resumeId: stringFlag(parsed, 'resume')}), ...(stringFlag(parsed, 'session-dir') === undefined ? {} : {sessionDir: stringFlag(parsed, 'session-dir')}), env: io.env, cwd});
	return withTerminationSignals(async signal => {
		const id = resumed?.header.id ?? newSessionId(Date.now());
		const folder = join(sessionsRoot(stringFlag(parsed, 'session-dir'), io.env, io.cwd), id);
		const logPath = resumed?.path ?? await makeDirectory(folder).then(() => join(folder, 'session.jsonl'), async (error: unknown) => {
			await io.printError(`cardterm: session log not saved: cannot create ${folder}: ${(error as Error).message}\n`);
			return undefined;
		});
		// Without a person to ask, an ask is answered "unavailable": the model is told the call was refused.
		const rules = parsed.flags.has('yolo') ? [] : [...(config.approval?.ask ?? []), ...AGENT_ASK_RULES];
		const session = await openSession({
			cwd,
			id,
			...(logPath === undefined ? {} : {logPath}),
			...(rules.length === 0 ? {} : {policy: approvalPolicy(rules, cwd, () => new Set())}),
			onLogError(error) {
				void io.printError(`cardterm: ${error.message}\n`);
			},
		});
		const agent = await sessionAgent(session, {cwd, model: chosen.model, ...(systemPrompt === undefined ? {} : {systemPrompt}), ...(maxSteps === undefined ? {} : {maxSteps}), ...(resumed === undefined ? {} : {history: resumed.events})});
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
			switch (outcome.reason.kind) {
				case 'completed': {
					return 0;
				}

				case 'aborted': {
					return 130;
				}

				default: {
					await io.printError(`cardterm: ${turnOutcome(outcome.reason).text}\n`);
					return 1;
				}
			}
		} finally {
			stopFollowing();
			agent.dispose();
			await session.close().catch(() => undefined);
		}
	});
}
