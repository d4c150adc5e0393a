/**
@module Errors and diagnostics of the session log. A bad line is a diagnostic (reported, skipped,
reading goes on); only an unreadable header is an error, because without it nothing can be replayed.
*/

/** What kind of damage a diagnostic reports. */
export type LogDiagnosticKind =
	/** The last line has no newline: a writer died mid-append. Ignored. */
	| 'torn-tail'
	/** Not JSON, not an object, or a missing/invalid envelope or payload field. Skipped. */
	| 'malformed'
	/** A line longer than the reader's bound. Skipped without being held in memory. */
	| 'overlong'
	/** A seq larger than the next expected one. Reported once; reading goes on from the new seq. */
	| 'seq-gap'
	/** A seq equal to or smaller than one already read. Skipped. */
	| 'seq-repeat'
	/** A type outside the known vocabulary and not marked `ignorable`. Reported once per type. */
	| 'unknown-type'
	/** A known event in a shape of a producer version cardterm does not read (not damage). Skipped. */
	| 'unsupported'
	/** Compressed data that cannot be decoded; nothing after it can be read. */
	| 'corrupt-compression';

/**
Diagnostics that name no damage: a seq gap (a producer that numbers events with gaps lost nothing
cardterm can tell) and a result format cardterm does not read. Replay reports them as notes and
does not count them as damaged lines.
*/
export function isNote(kind: LogDiagnosticKind): boolean {
	return kind === 'seq-gap' || kind === 'unsupported';
}

/** A damaged line: where it is and why it was skipped. `line` is 1-based (the header is line 1). */
export type LogDiagnostic = {
	readonly file: string;
	readonly line: number;
	readonly kind: LogDiagnosticKind;
	readonly reason: string;
};

/** A diagnostic as print mode and the pager name it: `FILE:LINE: reason`. */
export function formatDiagnostic(diagnostic: LogDiagnostic): string {
	return `${diagnostic.file}:${diagnostic.line}: ${diagnostic.reason}`;
}

/** Exit code of the CLI for an unreadable log (sysexits EX_DATAERR). */
export const UNREADABLE_LOG_EXIT_CODE = 65;

/**
A log that cannot be read at all: missing or unparsable header, unsupported version, an unreadable
file. The message is `<file>:<line>: <reason>`, or `<file>: <reason>` when `line` is 0 (the file as a
whole: it cannot be opened, or a folder holds no log).
*/
export class SessionLogError extends Error {
	readonly file: string;
	readonly line: number;
	readonly reason: string;
	readonly exitCode = UNREADABLE_LOG_EXIT_CODE;

	constructor(file: string, line: number, reason: string, options?: ErrorOptions) {
		super(line === 0 ? `${file}: ${reason}` : `${file}:${line}: ${reason}`, options);
		this.name = 'SessionLogError';
		this.file = file;
		this.line = line;
		this.reason = reason;
	}
}

/**
Appending to the log failed (full disk, read-only directory, permissions). The events stay in
memory and are written by the next successful flush; the session keeps running.
*/
export class SessionLogWriteError extends Error {
	readonly file: string;
	/** The system error code, e.g. `ENOSPC`, `EACCES`, `EROFS`, when there is one. */
	readonly code: string | undefined;

	constructor(file: string, action: string, cause: unknown) {
		const code = systemErrorCode(cause);
		const detail = cause instanceof Error ? cause.message : String(cause);
		super(`cannot ${action} session log ${file}: ${detail}`, {cause});
		this.name = 'SessionLogWriteError';
		this.file = file;
		this.code = code;
	}
}

/** Another live process holds the log's lock file. */
export class SessionLogLockedError extends Error {
	readonly file: string;
	readonly pid: number;

	constructor(file: string, pid: number) {
		super(`session log ${file} is already being written by process ${pid} (lock file ${file}.lock); only one writer may append to a log`);
		this.name = 'SessionLogLockedError';
		this.file = file;
		this.pid = pid;
	}
}

/** `code` of a Node system error, if it has one. */
export function systemErrorCode(error: unknown): string | undefined {
	if (typeof error === 'object' && error !== null) {
		const code = (error as {code?: unknown}).code;
		if (typeof code === 'string') {
			return code;
		}
	}

	return undefined;
}

/**
A value from a log, quoted for a diagnostic or error message: JSON-quoted, with C1 controls, bidi
controls and invisible characters escaped as `\\uXXXX` (JSON leaves them raw) and long values cut, so
a hostile log cannot smuggle terminal control sequences into stderr through its messages.
*/
export function quoteLogValue(value: unknown, maxLength = 80): string {
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}

	const cut = text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
	return cut.replace(/[\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
