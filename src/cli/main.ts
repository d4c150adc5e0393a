/**
@module The command line: dispatches to a command and turns errors into exit codes — 0 success,
1 a failed tool call, 2 a usage error, 65 an unreadable log.
*/
import type {CliIo} from './environment/cli-io.js';
import {printHelp} from './environment/terminal-text.js';
import {OutputClosedError} from '../layout/terminal/terminal-sink.js';
import {UsageError} from './environment/parse-args.js';
import {processIo} from './process-io.js';

export const MAIN_HELP = `cardterm — a coding agent in the terminal: every tool call is a card, live and on replay

agent:
  cardterm [--model PROVIDER:MODEL] [--base-url URL]      interactive session with a model, here (or --cwd DIR)
  cardterm -p PROMPT [--json]                             one turn without a screen; prints the transcript
    --model PROVIDER:MODEL   openai, anthropic, google, deepseek, openrouter, ollama (openai-responses:MODEL
                             forces OpenAI's Responses API); or CARDTERM_MODEL, or "model" in the config
    --base-url URL           that provider's server (a gateway or proxy: same wire, same key variable);
                             with a bare model name, an OpenAI-compatible server (Ollama, vLLM, llama.cpp)
    --yolo                   approve every call (writes and commands ask first otherwise)
    --continue | --resume ID go on with this folder's newest session, or that one
    --system-prompt FILE     replace the system prompt
    --max-steps N            model steps per turn before it ends "blocked" (default 100)
  Keys: OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, DEEPSEEK_API_KEY, OPENROUTER_API_KEY.

viewer and tools:
  cardterm [--cwd DIR] [--session-dir DIR] [--plugin FILE]…   interactive session in DIR (default: here)
  cardterm replay LOG|--last [--print] [--json] [--width N] [--expand none|auto|all] [--color|--no-color]
  cardterm watch LOG               follow a log that another process is appending to
  cardterm call TOOL [JSON] [--log FILE] [--cwd DIR]   run one tool call, print its card
  cardterm run SCRIPT.mjs [--log FILE]                  Code Mode: the script gets tools.<name>(args)
  cardterm sessions [--all]        list saved sessions, newest first (--all: every agent's, this folder)
  cardterm export LOG [-o FILE] [--md] [--no-redact]   a session as one HTML page to share, secrets redacted
  cardterm demo                    replay the bundled demo session (every card kind)
  cardterm acp [-p PROMPT] -- CMD ARGS…   an Agent Client Protocol agent's session as cards
  cardterm mcp list|add|remove     the MCP servers whose tools a session gets (.mcp.json is read too)

Every command takes --help (cardterm --cwd . --help: the session's flags in full). Exit codes: 0 ok,
1 a tool call that did not end ok (call, run: failed, error, denied, cancelled or interrupted) or a
turn that did not complete (-p), 2 usage, 65 unreadable log, 130 cancelled.`;

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

/** Commands load their modules lazily, so `--help` and small commands start fast. */
const commands: Record<string, () => Promise<Command>> = {
	replay: async () => (await import('./commands/replay-command.js')).replayCommand,
	call: async () => (await import('./commands/call-command.js')).callCommand,
	run: async () => (await import('./commands/run-command.js')).runCommand,
	watch: async () => (await import('./commands/watch-command.js')).watchCommand,
	sessions: async () => (await import('./commands/sessions-command.js')).sessionsCommand,
	export: async () => (await import('./commands/export-command.js')).exportCommand,
	demo: async () => (await import('./commands/demo-command.js')).demoCommand,
	acp: async () => (await import('./commands/acp-command.js')).acpCommand,
	mcp: async () => (await import('./commands/mcp-command.js')).mcpCommand,
};

/** Run the command line; returns the process exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
	const [first, ...rest] = argv;
	try {
		if (first === '--help' || first === '-h' || first === 'help') {
			await printHelp(io, MAIN_HELP);
			return 0;
		}

		if (first === '--version') {
			await io.print(`${(await import('./environment/version.js')).version}\n`);
			return 0;
		}

		const load = first === undefined ? undefined : commands[first];
		if (load !== undefined) {
			return await (await load())(rest, io);
		}

		const {interactiveCommand} = await import('./commands/interactive-command.js');
		return await interactiveCommand(argv, io);
	} catch (error) {
		return await reportError(error, io);
	}
}

async function reportError(error: unknown, io: CliIo): Promise<number> {
	if (error instanceof OutputClosedError) {
		// The reader has what it wanted (`| head`): not a failure, and nothing to say.
		return 0;
	}

	if (error instanceof UsageError) {
		// A command's message starts with its name (`replay: …` → `cardterm replay: …`); the top level's does not (`cardterm: …`).
		const scope = /^([a-z]+): /.exec(error.message)?.[1];
		await io.printError(`cardterm${scope !== undefined && Object.hasOwn(commands, scope) ? ' ' : ': '}${error.message}\n`);
		return 2;
	}

	const exitCode = typeof error === 'object' && error !== null && 'exitCode' in error && typeof error.exitCode === 'number' ? error.exitCode : 1;
	const message = error instanceof Error ? error.message : String(error);
	await io.printError(`cardterm: ${message}\n`);
	return exitCode;
}
