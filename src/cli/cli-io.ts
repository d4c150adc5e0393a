/**
@module The world as the command line sees it: streams, environment, terminal size. Commands get it
as an argument so tests run them in-process with fakes.
*/

export type CliIo = {
	readonly stdout: NodeJS.WritableStream;
	readonly stderr: NodeJS.WritableStream;
	readonly stdin: NodeJS.ReadableStream;
	readonly env: NodeJS.ProcessEnv;
	readonly cwd: string;
	readonly isTTY: boolean;
	readonly columns: number | undefined;
	/** Write to stdout and wait for it to drain (back-pressure for long transcripts). */
	write(text: string): Promise<void>;
	/** The log a command names: a path, `-`, or the newest session of `cwd` with `--last`. */
	resolveLog(positional: string | undefined, last: boolean, sessionDir: string | true | undefined): Promise<string>;
	/** Opens the full-screen pager on a log; resolves with the exit code. */
	openPager(source: string, options: {readonly colorFlag: boolean | undefined}): Promise<number>;
};
