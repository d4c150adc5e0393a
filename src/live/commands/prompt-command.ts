/**
@module What a prompt command is: one object per command, each in a file of its own under
`commands/`, listed in the table a session offers (`builtin-commands.ts`; an ACP agent's announced
commands join it, `agent-command.ts`). `/help`, the `/` completion and Tab read the table, and the
live session runs a line's command from it: a new command is one new file and its row in the table.
*/
import type {AgentTurns} from '../../host/agent-turns.js';
import type {DriverModes, SessionMcp} from '../session-driver.js';
import type {SessionForks} from '../../host/session-forks.js';
import type {SessionUndo} from '../../host/session-undo.js';
import type {ForkSource} from '../../session/store/fork-session.js';
import type {StyledLine} from '../../layout/text/styled-line.js';
import type {LiveWork, SessionTools} from '../session-driver.js';

export type PromptCommand = {
	/** The word that calls it (`/read`); a form that is not a slash word names itself (`!`) and `claims` its lines. */
	readonly name: string;
	/** Other words that call it (`/quit`); not listed or completed. */
	readonly aliases?: readonly string[];
	/** Its arguments as `/help` shows them after the name: `PATH [OFFSET [LIMIT]]`. */
	readonly args?: string;
	/** How `/help` shows a form that is not `name args` (`!<command>`). */
	readonly usage?: string;
	/** What it does, for `/help`. */
	readonly help: string;
	/** Whether a session offers it (default: every session). */
	readonly available?: (session: CommandSession) => boolean;
	/** A form without a slash word: whether it takes this line (trimmed). */
	readonly claims?: (text: string, session: CommandSession) => boolean;
	/** Completions of `word`, typed after the command (`first`: the line's first word, a form's own). */
	readonly complete?: (word: string, first: boolean, session: CommandSession) => Promise<readonly string[]>;
	/** Run it: `args` is the text after the slash word (a form's whole line, trimmed). */
	readonly run: (args: string, context: CommandContext) => void | Promise<void>;
};

/** What a command may read of the session it runs in. */
export type CommandSession = {
	readonly cwd: string;
	/** The session's own tools, when the prompt may call them (a native session). */
	readonly tools?: SessionTools;
	/** The model the prompt talks to (a native session's agent). */
	readonly model?: AgentTurns;
	/** The session's MCP servers, when it starts any (a native session). */
	readonly mcp?: SessionMcp;
	/** The session's modes (`/mode`, Shift+Tab): cardterm's own, or an ACP agent's. */
	readonly modes?: DriverModes;
	/** Taking file changes back (`/undo`, `/redo`), when the session keeps them. */
	readonly undo?: SessionUndo;
	/** Forks of the session's log (`/fork`, `/rewind`), when it has one. */
	readonly forks?: SessionForks;
	/** The commands the session offers now, in `/help`'s order. */
	readonly commands: readonly PromptCommand[];
	/** What `/help` says under the command table. */
	readonly helpNotes: readonly string[];
};

/** What a command may do in the session. */
export type CommandContext = CommandSession & {
	/** The line as the person typed it. */
	readonly line: string;
	/** A notice in the scrollback (control characters shown, never sent). */
	say(message: string, tone: 'info' | 'error'): void;
	/** Rows for the scrollback; `fit` lays them out again for the terminal's width when they are written. */
	show(lines: readonly StyledLine[], fit?: (width: number) => readonly StyledLine[]): void;
	/** Queue work: a message for the model or agent, or a call of the session's tools. */
	queue(work: LiveWork): void;
	/** Collect the lines typed next, up to a line holding only "."; `then` gets their text. */
	collect(label: string, then: (text: string) => void): void;
	clearScreen(): void;
	openPager(): void;
	close(): void;
	/** Close this session and go on in `fork` (the screen opens it as `--resume` would). */
	continueIn(fork: ForkSource): void;
};

/** The commands of `table` that `session` offers. */
export function offered(table: readonly PromptCommand[], session: Omit<CommandSession, 'commands'>): PromptCommand[] {
	const withTable = {...session, commands: table};
	return table.filter(command => command.available?.(withTable) ?? true);
}

/** The command a (trimmed) line calls among `session.commands`, and the text it is given. */
export function commandOf(text: string, session: CommandSession): {readonly command: PromptCommand; readonly args: string} | undefined {
	if (text.startsWith('/')) {
		const word = /^\S*/u.exec(text)![0];
		const command = session.commands.find(each => each.name === word || each.aliases?.includes(word) === true);
		return command === undefined ? undefined : {command, args: text.slice(word.length).trim()};
	}

	const form = session.commands.find(each => each.claims?.(text, session) === true);
	return form === undefined ? undefined : {command: form, args: text};
}

/** The slash words Tab completes at the start of a line, in the table's order. */
export function commandWords(session: CommandSession): string[] {
	return session.commands.filter(command => command.name.startsWith('/')).map(command => command.name);
}

/** Split on whitespace, honouring "double" and 'single' quotes so paths and patterns may hold spaces. */
export function splitWords(text: string): string[] {
	const words: string[] = [];
	const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		words.push(match[1] === undefined ? (match[2] ?? match[3]!) : match[1].replaceAll(/\\(.)/g, '$1'));
	}

	return words;
}

/** A word the person typed, cut short for a message. */
export function shortWord(text: string): string {
	return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** Available in a session whose prompt may call its own tools (a native session). */
export const withTools = (session: CommandSession): boolean => session.tools !== undefined;
