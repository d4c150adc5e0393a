/**
@module The render-intent union: how a tool describes its card.

`presentCall(args)` returns a `ToolCallView` (the pending card) and `presentResult(args, result)`
a `ToolResultView` (the completed card). Both unions are closed and tagged by a required `card`;
consumers switch on it and end in `assertNever`. Views are recomputed from persisted arguments,
result content and `meta` on every delivery and replay; they are never written to a log.

These types live in the tools layer because tools produce them; `src/presentation/` re-exports
them with the wire guards, fallback rules and the card model (see docs/decisions/contract-and-tools.md).
*/
import type {ContentBlock} from './content.js';

/** Icon/category hint for a generic call. Absent means `other`. Not a discriminant. */
export type ToolCallKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'fetch' | 'other';

/** A file a call touches. `path` is as the tool saw it (may be relative); `line` is 1-based. */
export type FileLocation = {readonly path: string; readonly line?: number};

/**
One file change. All three keys are always present. `oldText: null` means no before-image: a created
file, an overwrite whose prior text was not diffable, or a pure insertion hunk. `newText` may be ''.
`oldStart` / `newStart` (a cardterm extension, both or neither): the 1-based line in the old and the
new file where a hunk's first line is (unified diff's `@@ -oldStart +newStart @@`, so 0 for an empty
side), for the card's line numbers; absent, a hunk is not numbered (a whole-file diff with
`oldText: null` still is, from 1).
*/
export type FileDiff = {
	readonly path: string;
	readonly oldText: string | null;
	readonly newText: string;
	readonly oldStart?: number;
	readonly newStart?: number;
};

/** A line of a read window: the file's own 1-based number and its text, already clipped. */
export type ReadFileLine = {readonly number: number; readonly text: string};

/** A matched line: 1-based number and the previewed line text. */
export type SearchLineMatch = {readonly lineNumber: number; readonly line: string};

/** The matches in one file, in first-seen order. */
export type SearchFileMatches = {readonly path: string; readonly matches: readonly SearchLineMatch[]};

/** A web source. Absent optional keys are omitted, never null. */
export type WebSource = {readonly url: string; readonly title?: string; readonly snippet?: string; readonly publishedAt?: string};

/** Pending card for any tool. */
export type GenericCallView = {
	readonly card: 'generic';
	/** One-line label for this call. */
	readonly title: string;
	/** Icon hint; absent means `other`. */
	readonly kind?: ToolCallKind;
	/** The most useful input to reveal: a string is shown verbatim, anything else as pretty JSON. Absent: show no input. */
	readonly rawInput?: unknown;
	/** Extra blocks shown on the pending card (for example a background command's description). */
	readonly content?: readonly ContentBlock[];
	/** Files touched. */
	readonly locations?: readonly FileLocation[];
};

/** Pending card for a foreground shell command. */
export type TerminalCallView = {
	readonly card: 'terminal';
	/** The command line itself. */
	readonly title: string;
	/** Human summary, drawn above the terminal body. */
	readonly description?: string;
	/** Working directory: absolute as is, relative against the session workspace, absent means the workspace. */
	readonly cwd?: string;
};

/** Pending card for a file mutation: the intended change derived from the arguments. */
export type DiffCallView = {
	readonly card: 'diff';
	readonly title: string;
	readonly diffs: readonly FileDiff[];
	readonly locations?: readonly FileLocation[];
};

/** What `presentCall` returns. */
export type ToolCallView = GenericCallView | TerminalCallView | DiffCallView;

/** Completed generic card. `content` absent: render the raw result content. */
export type GenericResultView = {
	readonly card: 'generic';
	/** Replacement title; omit to keep the pending title. */
	readonly title?: string;
	readonly content?: readonly ContentBlock[];
};

/** Completed shell command. `exitCode` and `signal` are mutually exclusive; both absent means unknown. */
export type TerminalResultView = {
	readonly card: 'terminal';
	readonly title?: string;
	/** The command output with the final exit marker stripped. */
	readonly output?: string;
	readonly exitCode?: number;
	readonly signal?: string;
};

/** Applied change: contextual hunks, or a whole-file diff with `oldText: null`. */
export type DiffResultView = {readonly card: 'diff'; readonly title?: string; readonly diffs: readonly FileDiff[]};

/** grep result. `total` counts matches before capping; `truncated` means `files` is only the retained page. */
export type SearchMatchesResultView = {
	readonly card: 'search';
	readonly shape: 'matches';
	readonly title?: string;
	readonly files: readonly SearchFileMatches[];
	readonly truncated: boolean;
	readonly total: number;
};

/** glob result, with the same capping semantics as matches. */
export type SearchPathsResultView = {
	readonly card: 'search';
	readonly shape: 'paths';
	readonly title?: string;
	readonly paths: readonly string[];
	readonly truncated: boolean;
	readonly total: number;
};

/**
Search result; `shape`, not `kind`, so it never collides with `ToolCallKind`. There is no call-time
search view: the pending card is generic. Without a search widget, render the raw result content.
*/
export type SearchResultView = SearchMatchesResultView | SearchPathsResultView;

/**
A read window. `offset` is the 1-based first requested line, kept even when `lines` is empty.
`content` is the model text without its envelope: the fallback for a UI without a read widget.
*/
export type ReadResultView = {
	readonly card: 'read';
	readonly title?: string;
	readonly path: string;
	readonly offset: number;
	readonly lines: readonly ReadFileLine[];
	readonly totalLines: number;
	readonly lang?: string;
	readonly content?: readonly ContentBlock[];
};

/** web_search result: a citation list. Fallback: the raw result content. */
export type WebSearchResultView = {
	readonly card: 'web';
	readonly kind: 'search';
	readonly title?: string;
	readonly sources: readonly WebSource[];
	readonly answer?: string;
	readonly truncated: boolean;
};

/** web_fetch result: a retrieval summary; the fetched body lives in the raw result content. */
export type WebFetchResultView = {
	readonly card: 'web';
	readonly kind: 'fetch';
	readonly title?: string;
	/** The final URL, after redirects. */
	readonly url: string;
	readonly statusCode: number;
	readonly truncated: boolean;
};

/** Web result; this `kind` belongs to the web union only. */
export type WebResultView = WebSearchResultView | WebFetchResultView;

/** What `presentResult` returns. */
export type ToolResultView = GenericResultView | TerminalResultView | DiffResultView | SearchResultView | ReadResultView | WebResultView;

/** What presenters receive as the result: only persisted material. */
export type ToolResult = {readonly content: readonly ContentBlock[]; readonly isError: boolean; readonly meta?: unknown};
