/**
@module The world as the command line sees it: the terminal sink, stdin, environment, terminal size.
Commands get it as an argument so tests run them in-process with fakes. There is no raw stdout or
stderr here: text is printed sanitized, and only output cardterm composed is written as is.
*/
import type {EncodedOutput, TerminalOutput} from '../../layout/terminal/terminal-sink.js';

export type CliIo = {
	readonly stdin: NodeJS.ReadableStream;
	readonly env: NodeJS.ProcessEnv;
	readonly cwd: string;
	readonly isTTY: boolean;
	readonly columns: number | undefined;
	/** Show text on stdout (sanitized) and wait for it to drain. */
	print(text: string): Promise<void>;
	/** Show text on stderr (sanitized). */
	printError(text: string): Promise<void>;
	/** Write composed output (rendered cards, JSON) to stdout and wait for it to drain (back-pressure for long transcripts). */
	write(output: TerminalOutput | EncodedOutput): Promise<void>;
	/** The log a command names: a path, `-`, or the newest session of `cwd` with `--last`. */
	resolveLog(positional: string | undefined, last: boolean, sessionDir: string | true | undefined): Promise<string>;
	/** Opens the full-screen pager on a log; resolves with the exit code. */
	openPager(source: string, options: {readonly colorFlag: boolean | undefined}): Promise<number>;
};
