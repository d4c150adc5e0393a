/**
@module What both grep engines produce and accept, so the tool can switch between them freely.
*/

/** One matching line as an engine reports it: the file's real absolute path and the line without its newline. */
export type RawGrepMatch = {readonly file: string; readonly lineNumber: number; readonly line: string};

/** One grep run. */
export type GrepRequest = {
	/** The pattern as the model wrote it. */
	readonly pattern: string;
	/** The real path to search: a directory or a single file. */
	readonly target: string;
	/** Whether `target` is a single file (searched even if hidden or ignored). */
	readonly targetIsFile: boolean;
	/** The real workspace: the cwd of ripgrep and the base of `include` globs with a `/`. */
	readonly workspace: string;
	/** One include glob. */
	readonly include?: string;
	/** Aborts on cancellation and on the timeout. */
	readonly signal: AbortSignal;
	/** Cap on the raw match output (ripgrep's JSON stream; the fallback counts line and path bytes). */
	readonly rawOutputMaxBytes: number;
};

/** Placeholder for a matched line that is not valid UTF-8 (both engines). */
export const INVALID_UTF8_LINE = '(line is not valid UTF-8)';
