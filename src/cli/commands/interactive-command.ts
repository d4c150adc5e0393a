/**
@module `cardterm` with no command: an interactive session in the current directory — the reference
tools (and plugins), a new session log, a prompt, and the live transcript. This module checks the
arguments and the terminal and draws the first frame; the session and its screen load behind it
(`interactive/run-interactive.ts`), so the prompt is on screen before Ink, React and the tools are.
*/
import {stat} from 'node:fs/promises';
import {resolve} from 'node:path';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {drawBootFrame} from '../interactive/boot-frame.js';
import {parseArgs, UsageError} from '../environment/parse-args.js';
import {withTerminationSignals} from '../environment/termination-signals.js';

const INTERACTIVE_HELP = `usage: cardterm [--cwd DIR] [--model PROVIDER:MODEL] [--base-url URL] [--system-prompt FILE] [--max-steps N] [--yolo | --mode MODE]
                [--session-dir DIR] [--plugin FILE]… [--color|--no-color]
       cardterm -p "PROMPT" [--transcript|--json] [--cwd DIR] [--model …] [--base-url URL] [--yolo | --mode MODE | --allow TOOL,…]
                [--session-dir DIR] [--plugin FILE]… [--image FILE]…
       both take [--continue | --resume ID | --fork SESSION[@ENTRY]]; the session also --resume alone, to pick one

With a model (--model, CARDTERM_MODEL, or "model" in .cardterm/config.json or the user config), a
prompt line goes to the model, which answers and calls tools; writes and commands ask first
(--yolo approves everything). --mode ask|edits|plan|bypass starts in a mode (Shift+Tab cycles them
in the session; default "approval.defaultMode" in the config, else ask): edits lets writes inside the
workspace run, plan runs only read-only tools, bypass is --yolo. Keys come from the providers' variables (OPENAI_API_KEY,
ANTHROPIC_API_KEY, GEMINI_API_KEY, DEEPSEEK_API_KEY, OPENROUTER_API_KEY); --base-url points the
model's provider at a gateway or proxy (its own wire and key), or, with a bare model name, selects an
OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio). -p runs one turn without a screen:
the answer on stdout (to a pipe, as the model wrote it), what the agent did on stderr (--transcript:
all of it on stdout; --json: one object per entry); nobody can answer an approval question there, so
a call that would ask is not run (the model is told) unless --yolo, or --allow names its tool; exit 0
completed, 1 error, 2 usage, 3 refused or filtered, 4 cut at the output limit, 5 step limit or loop,
6 completed but calls were not run for want of approval, 130 cancelled. --image FILE attaches an
image (PNG, JPEG, GIF or WebP, up to 5 MiB) to the prompt; a model known to take no images refuses it (exit 2).
--continue appends to this directory's newest session and --resume ID to that session (an id
cardterm sessions lists, recorded in this directory; --resume alone lists this directory's sessions
to pick from): the model sees the conversation so far, and the log goes on with contiguous seqs.
--fork SESSION[@ENTRY] starts a new session from a saved one (an id, or a log's path; up to just
before seq ENTRY): the parent's log is never changed, and the fork's header names it.
A turn ends "blocked" after --max-steps model steps (default 100), or sooner when the model repeats the same call.

Opens an interactive session in DIR (--cwd; default: the current directory), the workspace its
tools work in, with the reference tools (and those of each --plugin FILE: defineTool exports, or a
plugin with name, inject and apply(ctx)). Type !command, /help, or TOOL {json}. The session is
recorded to <session-dir>/<id>/session.jsonl (default: the per-user data directory; also
CARDTERM_SESSION_DIR) once something happens in it: a start and a quit with nothing done keeps no
session. Prompt history is kept beside the sessions (<data dir>/history, or DIR/.history for a named
session folder). Settings (model, approval rules, agent limits) come from the user's config and
DIR/.cardterm/config.json (or CARDTERM_CONFIG), see the README; a server the project's config names
for the model is used only once allowed: asked here, or --allow-endpoint URL (remembered).`;

const flags = [
	{name: 'session-dir', value: true}, {name: 'plugin', value: true, repeat: true}, {name: 'color'}, {name: 'no-color'}, {name: 'help'},
	{name: 'model', value: true}, {name: 'base-url', value: true}, {name: 'system-prompt', value: true}, {name: 'max-steps', value: true}, {name: 'yolo'}, {name: 'mode', value: true},
	{name: 'p', value: true}, {name: 'json'}, {name: 'transcript'}, {name: 'cwd', value: true}, {name: 'width', value: true}, {name: 'continue'}, {name: 'resume', value: 'optional'}, {name: 'fork', value: true},
	{name: 'allow-endpoint', value: true}, {name: 'allow', value: true, repeat: true}, {name: 'image', value: true, repeat: true},
] as const;

async function isDirectory(path: string): Promise<boolean> {
	return stat(path).then(found => found.isDirectory(), () => false);
}

export async function interactiveCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'cardterm');
	if (parsed.flags.has('help')) {
		await printHelp(io, INTERACTIVE_HELP);
		return 0;
	}

	if (parsed.positionals.length > 0) {
		throw new UsageError(`unknown command ${parsed.positionals[0]} (see cardterm --help)`);
	}

	if (parsed.flags.has('p')) {
		const {promptOnceCommand} = await import('./prompt-once-command.js');
		return promptOnceCommand(parsed, io);
	}

	if (parsed.flags.has('allow')) {
		throw new UsageError('--allow is for -p: in a session, the approval dialog allows a tool for the session');
	}

	if (parsed.flags.has('image')) {
		throw new UsageError('--image is for -p: in a session, paste the image\'s path (or drop the file) at the prompt, or press Ctrl+V with an image copied');
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
		const boot = await drawBootFrame(io, process.stdout.rows, process.stdin);
		try {
			const {runLiveSession} = await import('../interactive/run-interactive.js');
			return await runLiveSession({parsed, io, cwd, signal, boot});
		} finally {
			await boot.release();
		}
	}, {terminal: true});
}
