/**
@module `@` references in the person's message — the one module both drivers (and `-p`) send a
message through. `@path`, `@path:40-80` and `@"path with spaces"` name a workspace file (attached as
the read tool reads it: the same window, caps and envelope) or folder (its listing, by the search
tools' ignore rule, bounded); `@server:uri` names an MCP server's resource (its text, bounded alike). What cannot be attached — not found, outside the workspace, binary, too
many — is said in the reference's row, and the message goes all the same. An `@` inside a word (an
e-mail address) or in a code span is no reference. An image path is the place where images plug in
(`attachOne`: `kind: 'image'`, an image block beside the text ones).
*/
import {stat} from 'node:fs/promises';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {estimateTokens} from '../agent/token-estimate.js';
import {renderRead} from '../builtin/fs/read-card.js';
import {readFileWindow} from '../builtin/fs/read-file.js';
import {READ_LIMIT, READ_MAX_BYTES, READ_MAX_LINE_LENGTH} from '../builtin/fs/read-window.js';
import {SEARCH_IGNORE_RULE, walkFiles} from '../builtin/search/tree-walk.js';
import {FsError, isErrno} from '../builtin/workspace/fs-error.js';
import {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import type {AttachedAmount, PromptReference, ReferenceKind} from '../presentation/prompt-reference.js';
import type {McpHost} from './mcp-host.js';
import type {PromptAttachment, UserPrompt} from '../session/events/user-prompt.js';

/** References one message attaches; more are named as not attached. */
export const MAX_REFERENCES = 20;
/** Entries a folder's listing holds. */
export const FOLDER_ENTRIES = 500;
/** UTF-8 bytes all of a message's attachments hold together (each is bounded as a read is too). */
export const TOTAL_ATTACHED_BYTES = 256 * 1024;

/** One `@` token of a message: where it is, what it names, and the line range it asks for. */
export type ReferenceToken = {
	readonly start: number;
	readonly end: number;
	/** As typed, without the `@` and the quotes: `src/a.ts:40-80`. */
	readonly token: string;
	readonly path: string;
	readonly range?: {readonly start: number; readonly end?: number};
};

/** Characters after which an `@` may start a reference: the line's start, a space, an opening bracket or quote. */
const OPENERS = new Set(['(', '[', '{', '<', '"', '\'']);
/** Punctuation that ends a sentence after a path rather than belonging to it. */
const TRAILING = /[.,;:!?)\]}>'"]+$/u;
const RANGE = /:(\d+)(?:-(\d+))?$/u;

/** Where code spans and fences are (their `@`s are code: decorators, not references). */
function codeRanges(text: string): Array<readonly [number, number]> {
	const ranges: Array<readonly [number, number]> = [];
	for (const match of text.matchAll(/```[\s\S]*?(?:```|$)|`[^`\n]+`/gu)) {
		ranges.push([match.index, match.index + match[0].length]);
	}

	return ranges;
}

/** The `@` references of `text`, in order. Pure. */
export function parseReferences(text: string): ReferenceToken[] {
	const code = codeRanges(text);
	const tokens: ReferenceToken[] = [];
	for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
		const before = at === 0 ? ' ' : text[at - 1]!;
		if (!/\s/u.test(before) && !OPENERS.has(before)) {
			continue;
		}

		if (code.some(([start, end]) => at >= start && at < end)) {
			continue;
		}

		const parsed = text[at + 1] === '"' ? quoted(text, at) : bare(text, at);
		if (parsed !== undefined) {
			tokens.push(parsed);
			at = parsed.end - 1;
		}
	}

	return tokens;
}

/** `@"path with spaces"` and an optional `:40-80` after the closing quote. */
function quoted(text: string, at: number): ReferenceToken | undefined {
	const close = text.indexOf('"', at + 2);
	const newline = text.indexOf('\n', at);
	if (close === -1 || (newline !== -1 && newline < close) || close === at + 2) {
		return undefined;
	}

	const filePath = text.slice(at + 2, close);
	const range = RANGE.exec(/^:\d+(?:-\d+)?/u.exec(text.slice(close + 1))?.[0] ?? '');
	const end = close + 1 + (range?.[0].length ?? 0);
	return withRange({start: at, end, token: `${filePath}${range?.[0] ?? ''}`, path: filePath}, range);
}

function bare(text: string, at: number): ReferenceToken | undefined {
	const word = /^[^\s]+/u.exec(text.slice(at + 1))?.[0] ?? '';
	const token = word.replace(TRAILING, '');
	if (token === '' || token.startsWith('@')) {
		return undefined;
	}

	const range = RANGE.exec(token);
	const filePath = range === null ? token : token.slice(0, range.index);
	return filePath === '' ? undefined : withRange({start: at, end: at + 1 + token.length, token, path: filePath}, range);
}

function withRange(token: Omit<ReferenceToken, 'range'>, range: RegExpExecArray | null | undefined): ReferenceToken {
	if (range === null || range === undefined) {
		return token;
	}

	const start = Number(range[1]);
	return {...token, range: range[2] === undefined ? {start} : {start, end: Number(range[2])}};
}

/** The MCP servers' resources a reference may name (`@server:uri`). */
export type ReferenceResources = {
	/** The servers' names. */
	readonly servers: () => readonly string[];
	readonly read: (server: string, uri: string, signal: AbortSignal) => Promise<{readonly text: string; readonly mimeType?: string}>;
};

/** An MCP host's resources as references read them. */
export function mcpReferences(mcp: Pick<McpHost, 'status' | 'readResource'>): ReferenceResources {
	return {servers: () => mcp.status().map(server => server.name), read: async (server, uri, signal) => mcp.readResource(server, uri, signal)};
}

/** What the session gives the attaching: the workspace, its MCP servers' resources, and the turn's signal. */
export type ReferenceOptions = {readonly cwd: string; readonly resources?: ReferenceResources; readonly signal?: AbortSignal};

/** One reference's outcome: its facts, and the attachment when there is one. */
type Attached = {readonly reference: PromptReference; readonly attachment?: Omit<PromptAttachment, 'reference'>};

/**
`text` with what its references attach. Never rejects for a reference: each that cannot be attached
says why in its row; an aborted signal rejects as any aborted work does.
*/
export async function attachReferences(text: string, options: ReferenceOptions): Promise<UserPrompt> {
	const tokens = parseReferences(text);
	const guard = new WorkspaceGuard({workspace: options.cwd});
	const signal = options.signal ?? new AbortController().signal;
	const references: PromptReference[] = [];
	const attachments: PromptAttachment[] = [];
	let total = 0;
	for (const token of tokens) {
		if (references.length >= MAX_REFERENCES) {
			references.push({token: token.token, refused: `more than ${MAX_REFERENCES} references in one message`});
			continue;
		}

		const server = resourceServer(token, options.resources);
		// eslint-disable-next-line no-await-in-loop -- in the message's order, within one total bound
		const outcome = server === undefined ? await attachOne(token, guard, signal) : await attachResource(token, server, options.resources!, signal);
		const bytes = outcome.reference.attached?.bytes ?? 0;
		if (outcome.attachment !== undefined && total + bytes > TOTAL_ATTACHED_BYTES) {
			references.push({token: token.token, ...kindOf(outcome.reference.kind), refused: `the message's attachments would pass ${TOTAL_ATTACHED_BYTES / 1024} KB`});
			continue;
		}

		total += bytes;
		if (outcome.attachment !== undefined) {
			attachments.push({reference: references.length, ...outcome.attachment});
		}

		references.push(outcome.reference);
	}

	return {text, references, attachments};
}

const kindOf = (kind: ReferenceKind | undefined): {kind?: ReferenceKind} => (kind === undefined ? {} : {kind});

async function attachOne(token: ReferenceToken, guard: WorkspaceGuard, signal: AbortSignal): Promise<Attached> {
	const refused = (why: string, kind?: ReferenceKind): Attached => ({reference: {token: token.token, ...kindOf(kind), refused: why}});
	let target;
	let isDirectory: boolean;
	try {
		target = await guard.resolve(token.path);
		isDirectory = (await stat(target.real)).isDirectory();
	} catch (error) {
		if (error instanceof FsError && error.code === 'FS_OUTSIDE_WORKSPACE') {
			return refused('outside the workspace');
		}

		return refused(isErrno(error, 'ENOENT', 'ENOTDIR') ? 'not found' : reason(error));
	}

	if (isDirectory) {
		return token.range === undefined ? listFolder(token, target.absolute, target.real, signal) : refused('a folder has no lines', 'folder');
	}

	const {range} = token;
	if (range !== undefined && (range.start < 1 || (range.end !== undefined && range.end < range.start))) {
		return refused(`no lines ${range.start}-${range.end ?? ''}`, 'file');
	}

	const offset = range?.start ?? 1;
	const limit = range?.end === undefined ? READ_LIMIT : Math.min(READ_LIMIT, range.end - range.start + 1);
	try {
		const value = await readFileWindow(guard, {filePath: token.path, offset, limit}, {maxLineLength: READ_MAX_LINE_LENGTH, maxBytes: READ_MAX_BYTES}, signal);
		const text = renderRead({file_path: token.path, offset, limit}, value, READ_LIMIT).map(block => (block.type === 'text' ? block.text : '')).join('');
		const last = value.lines.at(-1)?.number ?? offset - 1;
		const wanted = range?.end ?? value.totalLines;
		const cut = last < Math.min(wanted, value.totalLines) ? `lines ${last + 1}-${Math.min(wanted, value.totalLines)} left out (a read's bound)` : undefined;
		const amount: AttachedAmount = {
			lines: value.lines.length,
			bytes: Buffer.byteLength(text, 'utf8'),
			tokens: estimateTokens(text),
			...(range === undefined ? {} : {range: {start: offset, end: Math.max(offset, last)}}),
			...(cut === undefined ? {} : {cut}),
		};
		return {
			reference: {token: token.token, kind: 'file', attached: amount},
			attachment: {text, uri: pathToFileURL(target.absolute).href, mimeType: 'text/plain', ...(range === undefined ? {} : {description: `lines ${offset}-${Math.max(offset, last)}`})},
		};
	} catch (error) {
		if (signal.aborted) {
			throw error;
		}

		return refused(reason(error), 'file');
	}
}

/** The MCP server a `@server:uri` token names, when one of the session's servers has that name. */
function resourceServer(token: ReferenceToken, resources: ReferenceResources | undefined): string | undefined {
	const name = /^([\w.-]+):./u.exec(token.token)?.[1];
	return name !== undefined && resources?.servers().includes(name) === true ? name : undefined;
}

/** A server's resource as its text, bounded as a read is (lines and bytes), in the envelope a read uses. */
async function attachResource(token: ReferenceToken, server: string, resources: ReferenceResources, signal: AbortSignal): Promise<Attached> {
	const uri = token.token.slice(server.length + 1);
	let read;
	try {
		read = await resources.read(server, uri, signal);
	} catch (error) {
		if (signal.aborted) {
			throw error;
		}

		return {reference: {token: token.token, kind: 'resource', refused: error instanceof Error ? error.message : String(error)}};
	}

	const lines = read.text.split('\n');
	let kept = lines.slice(0, READ_LIMIT).join('\n');
	let cut = lines.length > READ_LIMIT ? `${lines.length - READ_LIMIT} lines left out (a read's bound)` : undefined;
	if (Buffer.byteLength(kept, 'utf8') > READ_MAX_BYTES) {
		kept = Buffer.from(kept, 'utf8').subarray(0, READ_MAX_BYTES).toString('utf8').replace(/\uFFFD$/u, '');
		cut = `cut at ${READ_MAX_BYTES / 1024} KB (a read's bound)`;
	}

	const text = `<path>${server}:${uri}</path>\n<type>resource</type>\n<content>\n${kept}\n</content>`;
	const amount: AttachedAmount = {lines: kept.split('\n').length, bytes: Buffer.byteLength(text, 'utf8'), tokens: estimateTokens(text), ...(cut === undefined ? {} : {cut})};
	return {reference: {token: token.token, kind: 'resource', attached: amount}, attachment: {text, uri, ...(read.mimeType === undefined ? {} : {mimeType: read.mimeType})}};
}

/** A folder as the files below it, by the search tools' ignore rule, sorted, bounded. */
async function listFolder(token: ReferenceToken, absolute: string, real: string, signal: AbortSignal): Promise<Attached> {
	const found: string[] = [];
	let more = false;
	for await (const file of walkFiles(real, {...SEARCH_IGNORE_RULE, signal})) {
		if (found.length >= FOLDER_ENTRIES) {
			more = true;
			break;
		}

		found.push(path.relative(real, file).split(path.sep).join('/'));
	}

	found.sort();
	const footer = more ? `(The first ${FOLDER_ENTRIES} files found; more are not listed.)` : `(${found.length} ${found.length === 1 ? 'file' : 'files'}; ignored and hidden ones are not listed.)`;
	const text = `<path>${absolute}</path>\n<type>directory</type>\n<content>\n${found.length === 0 ? '' : `${found.join('\n')}\n\n`}${footer}\n</content>`;
	const amount: AttachedAmount = {lines: found.length, bytes: Buffer.byteLength(text, 'utf8'), tokens: estimateTokens(text), ...(more ? {cut: `listing cut at ${FOLDER_ENTRIES} files`} : {})};
	return {reference: {token: token.token, kind: 'folder', attached: amount}, attachment: {text, uri: pathToFileURL(absolute).href, mimeType: 'text/plain'}};
}

/** Why a read failed, without the path the row already names. */
function reason(error: unknown): string {
	if (error instanceof FsError) {
		switch (error.code) {
			case 'FS_BINARY_FILE': {
				return 'binary file';
			}

			case 'FS_NOT_FOUND': {
				// A range past the end says so (`offset 90 is out of range for "…" (80 lines)`).
				return error.message.includes('out of range') ? error.message.replace(/ for "[^"]*"/u, '') : 'not found';
			}

			case 'FS_NOT_A_FILE': {
				return 'not a regular file';
			}

			default: {
				break;
			}
		}
	}

	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/^cannot read "[^"]*": /u, '');
}
