/**
@module The pure projections of `grep` and `glob`: argument rules, retention (line previews and
item caps shared by text and card), the model text, the byte-bounded `meta`, and the presenters
(contract.md §E2.6–§E2.7, §E5.1).
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {JsonValue} from '../../json/json-value.js';
import type {ContentBlock} from '../../tools/content.js';
import {ToolArgsError} from '../../tools/errors.js';
import type {GenericCallView, SearchFileMatches, SearchMatchesResultView, SearchPathsResultView, ToolResult} from '../../tools/views.js';

/** Matches kept by one grep. */
const GREP_MAX_MATCHES = 250;
/** UTF-8 bytes kept of one matched line. */
const GREP_MAX_LINE_BYTES = 2000;
/** Paths kept by one glob. */
const GLOB_MAX_RESULTS = 100;
/** Serialized size bound of search `meta`. */
const SEARCH_META_MAX_BYTES = 64 * 1024;

/** One match: workspace-relative path, 1-based line number, the line without its newline. */
export type GrepMatch = {readonly path: string; readonly lineNumber: number; readonly line: string};

/** `grep` arguments. */
export type GrepArgs = {readonly pattern: string; readonly path?: string; readonly include?: string};

/** `glob` arguments. */
export type GlobArgs = {readonly pattern: string; readonly path?: string};

/** `grep`'s canonical value: every match found, in file-path order then line order. */
export type GrepValue = {readonly matches: GrepMatch[]};

/** `glob`'s canonical value: every file found, newest-modified first (ties by path); `root` is the workspace-relative search root. */
export type GlobValue = {readonly root: string; readonly paths: string[]};

/** Caps of the search projections. */
export type SearchCaps = {readonly maxMatches: number; readonly maxLineBytes: number; readonly maxResults: number; readonly maxMetaBytes: number};

/** The spec defaults. */
export const defaultSearchCaps: SearchCaps = {
	maxMatches: GREP_MAX_MATCHES,
	maxLineBytes: GREP_MAX_LINE_BYTES,
	maxResults: GLOB_MAX_RESULTS,
	maxMetaBytes: SEARCH_META_MAX_BYTES,
};

/** Check that `include` is one positive glob: not blank, not negated, no comma outside braces. */
function includeViolation(include: string): string | undefined {
	if (include.trim() === '') {
		return '"include" must not be blank';
	}

	if (include.startsWith('!')) {
		return '"include" must be a positive glob; negated patterns ("!…") are not supported';
	}

	let depth = 0;
	for (const char of include) {
		if (char === '{') {
			depth += 1;
		} else if (char === '}') {
			depth = Math.max(0, depth - 1);
		} else if (char === ',' && depth === 0) {
			return '"include" must be one glob, not a comma-separated list (use {a,b} alternation)';
		}
	}

	return undefined;
}

/** Rules the schema cannot express for `grep`; throws `ToolArgsError`. */
export function parseGrepArgs(args: GrepArgs): GrepArgs {
	const violations: string[] = [];
	if (args.pattern === '') {
		violations.push('"pattern" must not be empty');
	}

	if (args.path?.trim() === '') {
		violations.push('"path" must not be blank');
	}

	const include = args.include === undefined ? undefined : includeViolation(args.include);
	if (include !== undefined) {
		violations.push(include);
	}

	if (violations.length > 0) {
		throw new ToolArgsError(violations);
	}

	return args;
}

/** Rules the schema cannot express for `glob`; throws `ToolArgsError`. */
export function parseGlobArgs(args: GlobArgs): GlobArgs {
	const violations: string[] = [];
	if (args.pattern.trim() === '') {
		violations.push('"pattern" must not be blank');
	}

	if (args.path?.trim() === '') {
		violations.push('"path" must not be blank');
	}

	if (violations.length > 0) {
		throw new ToolArgsError(violations);
	}

	return args;
}

/** Cut `line` to at most `maxBytes` UTF-8 bytes on a character boundary, marking a cut with ` (line truncated)`. */
export function previewLine(line: string, maxBytes: number): string {
	if (Buffer.byteLength(line, 'utf8') <= maxBytes) {
		return line;
	}

	let bytes = 0;
	let end = 0;
	for (const char of line) {
		const size = Buffer.byteLength(char, 'utf8');
		if (bytes + size > maxBytes) {
			break;
		}

		bytes += size;
		end += char.length;
	}

	return `${line.slice(0, end)} (line truncated)`;
}

/** The retained page of a grep: previewed lines, the first `maxMatches`, and how many were found. */
export type RetainedMatches = {readonly matches: GrepMatch[]; readonly total: number; readonly truncated: boolean};

/** Apply the line preview and the match cap; text and card both read this one page. */
export function retainMatches(matches: readonly GrepMatch[], caps: SearchCaps): RetainedMatches {
	const kept = matches.slice(0, caps.maxMatches).map((match) => ({...match, line: previewLine(match.line, caps.maxLineBytes)}));
	return {matches: kept, total: matches.length, truncated: matches.length > kept.length};
}

/** Group matches by file in first-seen order. */
function groupMatches(matches: readonly GrepMatch[]): SearchFileMatches[] {
	const groups = new Map<string, {lineNumber: number; line: string}[]>();
	for (const match of matches) {
		const group = groups.get(match.path) ?? [];
		group.push({lineNumber: match.lineNumber, line: match.line});
		groups.set(match.path, group);
	}

	return [...groups].map(([path, fileMatches]) => ({path, matches: fileMatches}));
}

/**
The grep model text: `No matches found`, or `Found N match(es)` (`Found K of N matches` when capped),
a blank line, groups of `path` + `Line n: text` separated by blank lines, and when capped a footer
asking to narrow the search (cardterm stores no full result, so there is no locator).
*/
export function renderGrep(value: GrepValue, caps: SearchCaps): ContentBlock[] {
	const retained = retainMatches(value.matches, caps);
	if (retained.total === 0) {
		return [{type: 'text', text: 'No matches found'}];
	}

	const header = retained.truncated
		? `Found ${retained.matches.length} of ${retained.total} matches`
		: `Found ${retained.total} ${retained.total === 1 ? 'match' : 'matches'}`;
	const body = groupMatches(retained.matches)
		.map((group) => `${group.path}\n${group.matches.map((match) => `Line ${match.lineNumber}: ${match.line}`).join('\n')}`)
		.join('\n\n');
	const footer = retained.truncated ? '\n\n(Narrow pattern, path, or include to see more.)' : '';
	return [{type: 'text', text: `${header}\n\n${body}${footer}`}];
}

function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
The grep `meta`: the retained page grouped by file, `truncated`, `total`. Bounded to `maxMetaBytes`:
trailing file groups are dropped (never the first), then trailing matches of the last group (never
its first), and `truncated` becomes true.
*/
export function grepPresentationMeta(value: GrepValue, caps: SearchCaps): JsonValue {
	const retained = retainMatches(value.matches, caps);
	const files = groupMatches(retained.matches).map((group) => ({path: group.path, matches: [...group.matches]}));
	const meta = {shape: 'matches', files, truncated: retained.truncated, total: retained.total};
	if (jsonBytes(meta) <= caps.maxMetaBytes) {
		return meta;
	}

	meta.truncated = true;
	while (files.length > 1 && jsonBytes(meta) > caps.maxMetaBytes) {
		files.pop();
	}

	const last = files[0]!;
	while (last.matches.length > 1 && jsonBytes(meta) > caps.maxMetaBytes) {
		last.matches.pop();
	}

	return meta;
}

/** The glob model text: `No files found`, the paths, or the first page with a footer. */
export function renderGlob(value: GlobValue, caps: SearchCaps): ContentBlock[] {
	if (value.paths.length === 0) {
		return [{type: 'text', text: 'No files found'}];
	}

	if (value.paths.length <= caps.maxResults) {
		return [{type: 'text', text: value.paths.join('\n')}];
	}

	const page = value.paths.slice(0, caps.maxResults);
	return [{type: 'text', text: `${page.join('\n')}\n\n(Showing ${page.length} of ${value.paths.length} paths. Narrow pattern or path to see more.)`}];
}

/** The glob `meta`: the same page, `truncated`, `total`; bounded like grep by dropping trailing paths. */
export function globPresentationMeta(value: GlobValue, caps: SearchCaps): JsonValue {
	const paths = value.paths.slice(0, caps.maxResults);
	const meta = {shape: 'paths', paths, truncated: value.paths.length > paths.length, total: value.paths.length};
	if (jsonBytes(meta) <= caps.maxMetaBytes) {
		return meta;
	}

	meta.truncated = true;
	while (paths.length > 1 && jsonBytes(meta) > caps.maxMetaBytes) {
		paths.pop();
	}

	return meta;
}

/** Pending grep card: `Grep <pattern>[ in <path>][ (<include>)]`. */
export function presentGrepCall(args: GrepArgs): GenericCallView {
	const where = args.path === undefined ? '' : ` in ${args.path}`;
	const filter = args.include === undefined ? '' : ` (${args.include})`;
	return {card: 'generic', title: `Grep ${args.pattern}${where}${filter}`, kind: 'search', rawInput: args.pattern};
}

/** Pending glob card: `Glob <pattern>[ in <path>]`. */
export function presentGlobCall(args: GlobArgs): GenericCallView {
	const where = args.path === undefined ? '' : ` in ${args.path}`;
	return {card: 'generic', title: `Glob ${args.pattern}${where}`, kind: 'search', rawInput: args.pattern};
}

function isCount(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function narrowFiles(files: unknown): SearchFileMatches[] | undefined {
	if (!Array.isArray(files)) {
		return undefined;
	}

	const narrowed: SearchFileMatches[] = [];
	for (const file of files) {
		if (!isJsonObject(file) || typeof file.path !== 'string' || !Array.isArray(file.matches)) {
			return undefined;
		}

		const matches: {lineNumber: number; line: string}[] = [];
		for (const match of file.matches) {
			if (!isJsonObject(match) || !isCount(match.lineNumber) || match.lineNumber < 1 || typeof match.line !== 'string') {
				return undefined;
			}

			matches.push({lineNumber: match.lineNumber, line: match.line});
		}

		narrowed.push({path: file.path, matches});
	}

	return narrowed;
}

/** Completed grep card from `meta`; declines errors, bad meta and a `paths` shape. */
export function presentGrepResult(_args: GrepArgs, result: ToolResult): SearchMatchesResultView | undefined {
	const {meta} = result;
	if (result.isError || !isJsonObject(meta) || meta.shape !== 'matches' || typeof meta.truncated !== 'boolean' || !isCount(meta.total)) {
		return undefined;
	}

	const files = narrowFiles(meta.files);
	return files === undefined ? undefined : {card: 'search', shape: 'matches', files, truncated: meta.truncated, total: meta.total};
}

/** Completed glob card from `meta`; declines errors, bad meta and a `matches` shape. */
export function presentGlobResult(_args: GlobArgs, result: ToolResult): SearchPathsResultView | undefined {
	const {meta} = result;
	if (result.isError || !isJsonObject(meta) || meta.shape !== 'paths' || typeof meta.truncated !== 'boolean' || !isCount(meta.total)) {
		return undefined;
	}

	const {paths} = meta;
	if (!Array.isArray(paths) || !paths.every((entry): entry is string => typeof entry === 'string')) {
		return undefined;
	}

	return {card: 'search', shape: 'paths', paths: [...paths], truncated: meta.truncated, total: meta.total};
}
