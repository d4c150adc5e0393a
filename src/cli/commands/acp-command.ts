/**
@module `cardterm acp [--cwd DIR] [--resume ID] [--yolo] [-p PROMPT [--json]] -- CMD ARGS…`: an ACP
agent's session as cards. With `-p` one prompt runs and is printed as `cardterm -p` prints a turn
(`prompt-output.ts`: the answer on stdout, the rest on stderr), and the exit code is the turn's outcome; otherwise the interactive session (`interactive/acp-interactive.ts`) takes the terminal.
*/
import {resolve} from 'node:path';
import {INIT_TIMEOUT_MS, type AuthChoice, type PromptOutcome} from '../../acp/acp-client.js';
import {loadConfig} from '../../config/load-config.js';
import {acpMcpServers} from '../../host/acp-mcp-servers.js';
import {chooseMcpServers, sessionMcpOptions} from '../interactive/mcp-setup.js';
import {sessionSecrets} from '../../host/session-secrets.js';
import {SecretRedactor} from '../../session/events/secret-redactor.js';
import {newSessionId} from '../../session/store/session-store.js';
import {openFrameTrace} from '../../acp/frame-trace.js';
import {agentCommandName, newestAcpSession} from '../interactive/newest-acp-session.js';
import {openAcpSession} from '../../host/open-acp-session.js';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {colorFlagOf, PRINT_FLAGS} from '../print/output-options.js';
import {parseArgs, positiveInt, UsageError, type ParsedArgs} from '../environment/parse-args.js';
import {promptOutput} from '../print/prompt-output.js';
import {sessionsRoot} from '../environment/session-paths.js';
import {whenAborted, withTerminationSignals} from '../environment/termination-signals.js';
import {TranscriptStream} from '../print/transcript-stream.js';
import {version} from '../environment/version.js';
import {withScreenEnvironment} from '../environment/screen-environment.js';
import {attachReferences} from '../../host/prompt-references.js';

export const ACP_HELP = `usage: cardterm acp [--cwd DIR] [--session-dir DIR] [--resume [ID]] [--auth METHOD] [--yolo]
                   [--init-timeout SECONDS] [-p PROMPT [--transcript|--json] [--width N]] [--color|--no-color] -- CMD ARGS…

Runs CMD ARGS… as an Agent Client Protocol agent over its stdio and shows its session as cards.
The agent may read and write files inside DIR (default: the current directory) and run commands
there; the session is recorded to <session-dir>/<id>/session.jsonl for cardterm replay.
--resume ID loads the agent's session ID (agents that support session/load); --resume alone
loads the newest session of this agent command recorded for DIR. --auth METHOD
answers the agent's authentication request with METHOD (one it offers; a single one is used
without asking). --yolo answers every permission request with the agent's allow-once option.
-p PROMPT runs one prompt, prints the agent's answer on stdout and what it did on stderr
(--transcript: all of it on stdout, as replay --print; --json: one object per entry) and exits with
the turn's outcome: 0 completed, 1 failed, 130 cancelled. Without --yolo, -p rejects
permission requests. An agent that does not answer initialize within --init-timeout seconds
(default ${INIT_TIMEOUT_MS / 1000}) fails to start, naming it. Commands the agent runs in cardterm's terminals
get your environment without the API keys cardterm knows (config "env.passthrough" passes them),
and key values are redacted from the log. CARDTERM_ACP_TRACE=FILE appends every ACP frame in and
out to FILE (0600, keys redacted).`;

const flags = [
	{name: 'cwd', value: true},
	{name: 'session-dir', value: true},
	{name: 'resume', value: true},
	{name: 'auth', value: true},
	{name: 'yolo'},
	{name: 'init-timeout', value: true},
	{name: 'p', value: true},
	{name: 'prompt', value: true},
	{name: 'transcript'},
	...PRINT_FLAGS,
	{name: 'help'},
] as const;

/** The exit code of a prompt's outcome. */
export function outcomeExitCode(outcome: PromptOutcome): number {
	if ('error' in outcome) {
		return 1;
	}

	return outcome.stopReason === 'end_turn' ? 0 : outcome.stopReason === 'cancelled' ? 130 : 1;
}

/** `--auth`, else the only method offered; several without `--auth`: none (the error lists them). */
export function authChooser(flag: string | undefined): (choices: readonly AuthChoice[]) => Promise<string | undefined> {
	return async choices => {
		if (flag !== undefined) {
			return choices.some(choice => choice.id === flag) ? flag : undefined;
		}

		return choices.length === 1 ? choices[0]!.id : undefined;
	};
}

/** The command after `--` (or the first positional). */
function agentCommand(parsed: ParsedArgs): {command: string; args: string[]} {
	const [command, ...args] = parsed.positionals;
	if (command === undefined || command === '') {
		throw new UsageError('acp: name the agent to run: cardterm acp -- CMD ARGS… (see cardterm acp --help)');
	}

	return {command, args};
}

const text = (parsed: ParsedArgs, name: string): string | undefined => {
	const value = parsed.flags.get(name);
	return typeof value === 'string' ? value : undefined;
};

/** `--resume` with no id after it (the next word is `--` or a flag): `--resume=`, the newest session. */
function resumeWithoutId(argv: readonly string[]): string[] {
	const end = argv.indexOf('--');
	return argv.map((arg, index) => {
		const next = argv[index + 1];
		return arg === '--resume' && (end === -1 || index < end) && (next === undefined || next.startsWith('-')) ? '--resume=' : arg;
	});
}

export async function acpCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(resumeWithoutId(argv), flags, 'acp');
	if (parsed.flags.has('help')) {
		await printHelp(io, ACP_HELP);
		return 0;
	}

	const {command, args} = agentCommand(parsed);
	const cwd = resolve(io.cwd, text(parsed, 'cwd') ?? '.');
	const root = sessionsRoot(text(parsed, 'session-dir'), io.env, io.cwd);
	const prompt = text(parsed, 'p') ?? text(parsed, 'prompt');
	const yolo = parsed.flags.has('yolo');
	let resume = text(parsed, 'resume');
	if (resume === '') {
		const newest = await newestAcpSession(root, cwd, command);
		if (newest === undefined) {
			throw new UsageError(`acp: --resume: no ACP session of ${agentCommandName(command)} recorded for ${cwd} in ${root}`);
		}

		resume = newest.sessionId;
		await io.printError(`cardterm: resuming agent session ${resume} (recorded in ${newest.path})\n`);
	}

	const initTimeout = positiveInt(parsed, 'init-timeout', 'acp');
	const config = await loadConfig(cwd, io.env);
	for (const warning of config.warnings) {
		// eslint-disable-next-line no-await-in-loop -- warnings print in order
		await io.printError(`cardterm: ${warning}\n`);
	}

	const secrets = sessionSecrets(io.env, config.env);
	// The agent starts the person's MCP servers itself; a project's need consent as for a native session:
	// asked in a terminal (before the agent starts, as the native session asks before its first frame), else said.
	const person = prompt === undefined && io.isTTY && process.stdin.isTTY === true;
	// The question reads keys in raw mode (the native session's first frame sets it; here nothing has yet).
	const raw = person && process.stdin.setRawMode(true) !== undefined;
	const mcp = await chooseMcpServers(config, io, {yolo: parsed.flags.has('yolo'), ...(person ? {ask: {stdin: process.stdin, above: async (line: string) => io.printError(line), signal: new AbortController().signal}} : {})}).finally(() => {
		if (raw) {
			process.stdin.setRawMode(false);
		}
	});
	if (mcp === undefined) {
		// Quit at the question: nothing was started.
		return 130;
	}

	const {servers: mcpServers, problems} = await acpMcpServers(mcp.servers, io.env, cwd);
	for (const problem of problems) {
		// eslint-disable-next-line no-await-in-loop -- in order
		await io.printError(`cardterm: MCP server not given to the agent: ${problem}\n`);
	}

	const redactor = new SecretRedactor(secrets.secrets);
	const tracePath = io.env.CARDTERM_ACP_TRACE;
	const trace = tracePath === undefined || tracePath === '' ? {} : {trace: openFrameTrace(resolve(io.cwd, tracePath), line => redactor.redactText(line))};
	const base = {
		command, args, cwd, root, id: newSessionId(Date.now()), authenticate: authChooser(text(parsed, 'auth')), clientVersion: version, secrets, mcpServers, ...trace,
		...(resume === undefined ? {} : {resume}),
		// Node fires a timer past 2^31 - 1 ms at once.
		...(initTimeout === undefined ? {} : {initTimeoutMs: Math.min(initTimeout * 1000, 2_147_483_647)}),
		// A start that takes a while says what it waits for (the interactive screen is not drawn yet).
		onWaiting(message: string) {
			void io.printError(`cardterm: ${message}\n`);
		},
	};
	if (prompt === undefined) {
		for (const flag of ['json', 'transcript']) {
			if (parsed.flags.has(flag)) {
				throw new UsageError(`acp: --${flag} goes with -p PROMPT`);
			}
		}

		const {acpInteractive} = await withScreenEnvironment(async () => import('../interactive/acp-interactive.js'));
		const colorFlag = colorFlagOf(parsed);
		// The servers' prompts are the session's commands: cardterm connects them too (docs/decisions/mcp-prompts-search-auth.md).
		return acpInteractive({...base, yolo, screen: config, mcp: sessionMcpOptions(mcp, io.env, {yolo, clientVersion: version}), ...(colorFlag === undefined ? {} : {colorFlag})}, io);
	}

	// Non-interactive: nobody watches the session's approvals, so the agent's requests are rejected (allowed under --yolo).
	const output = promptOutput(parsed, io, 'acp', cwd);
	return withTerminationSignals(async signal => {
		const acp = await openAcpSession({...base, yolo, signal});
		// Entries are printed in order as they settle, as `-p` prints them.
		const stream = new TranscriptStream(acp.session.fold, entry => {
			output.add(entry);
		});
		const stopFollowing = acp.session.onFoldChange(() => {
			stream.advance();
		});
		// Ctrl+C (or a polite kill) cancels the turn; a second one exits at once, killing the agent's tree.
		whenAborted(signal, () => {
			acp.client.cancel();
		});
		let outcome: PromptOutcome;
		try {
			outcome = await acp.client.prompt(await attachReferences(prompt, {cwd, signal}));
		} finally {
			await acp.close();
			stopFollowing();
		}

		stream.finish();
		await output.finish(outcomeExitCode(outcome) === 0);
		const path = acp.session.logPath;
		if (path !== undefined) {
			await io.printError(`cardterm: session saved: ${path} (agent session ${acp.client.facts.sessionId})\n`);
		}

		return outcomeExitCode(outcome);
	});
}
