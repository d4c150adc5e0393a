/**
@module The search tools `grep` and `glob`, confined to the session workspace (and any extra allowed
roots). Spec: contract.md §E2.6–§E2.7, §E5.1. grep runs ripgrep when it is on PATH and an
in-process engine otherwise; both give the same sorted results under the same caps.
*/
import type {ToolDefinition} from '../tools/types.js';
import {globTool} from './search/glob-tool.js';
import {grepTool} from './search/grep-tool.js';
import {defaultSearchCaps} from './search/search-card.js';
import {GREP_RAW_OUTPUT_MAX_BYTES, SEARCH_TIMEOUT_MS} from './search/search-limits.js';
import {WorkspaceGuard} from './workspace/workspace-guard.js';

/** Configuration of the search tools. Every cap has the spec's default. */
export type SearchToolsOptions = {
	/** The session workspace; relative paths resolve against it and nothing may escape it. */
	readonly workspace: string;
	/** Extra directories the tools may reach besides the workspace. */
	readonly allowedRoots?: readonly string[];
	/** A guard to share with other tool families (built from `workspace`/`allowedRoots` when absent). */
	readonly guard?: WorkspaceGuard;
	/** `true`: always ripgrep (an error when missing); `false`: always the in-process engine; absent: ripgrep when on PATH. */
	readonly useRipgrep?: boolean;
	/** Matches kept by grep (250). */
	readonly grepMaxMatches?: number;
	/** Bytes kept per matched line (2000). */
	readonly grepMaxLineBytes?: number;
	/** Paths kept by glob (100). */
	readonly globMaxResults?: number;
	/** Serialized `meta` bound (64 KiB). */
	readonly searchMetaMaxBytes?: number;
	/** Budget of one search in ms (30 000). */
	readonly timeoutMs?: number;
	/** Raw grep output cap in bytes (20 MB). */
	readonly grepRawOutputMaxBytes?: number;
};

/** The `grep` and `glob` tools for one session. */
export function searchTools(options: SearchToolsOptions): ToolDefinition[] {
	const guard = options.guard ?? new WorkspaceGuard(options);
	const caps = {
		maxMatches: options.grepMaxMatches ?? defaultSearchCaps.maxMatches,
		maxLineBytes: options.grepMaxLineBytes ?? defaultSearchCaps.maxLineBytes,
		maxResults: options.globMaxResults ?? defaultSearchCaps.maxResults,
		maxMetaBytes: options.searchMetaMaxBytes ?? defaultSearchCaps.maxMetaBytes,
	};
	const run = {
		...(options.useRipgrep === undefined ? {} : {useRipgrep: options.useRipgrep}),
		timeoutMs: options.timeoutMs ?? SEARCH_TIMEOUT_MS,
		rawOutputMaxBytes: options.grepRawOutputMaxBytes ?? GREP_RAW_OUTPUT_MAX_BYTES,
	};
	return [grepTool(guard, caps, run), globTool(guard, caps, run)];
}
