/**
@module Where sessions live: one folder per session under a per-user data directory
(`<env-paths data>/sessions/<id>/session.jsonl`, e.g. `~/.local/share/cardterm/sessions` on Linux),
overridable by an argument (`--session-dir`) or `CARDTERM_SESSION_DIR`. Ids sort by creation time:
`2026-12-02T11-05-03-1a2b` (UTC, then 4 random hex digits).
*/
import {forkParentOf} from './fork-session.js';
import {randomBytes} from 'node:crypto';
import {mkdirSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import envPaths from 'env-paths';
import {isPlainRecord} from '../../json/is-plain-record.js';
import type {SessionHeader} from '../events/events.js';
import {SESSION_LOG_VERSION} from '../events/events.js';
import {logRecords} from '../reader/log-records.js';
import {makeDirectorySync} from './make-directory.js';
import {PRIVATE_FOLDER_MODE} from './private-mode.js';
import {parseLogJson} from '../reader/log-json.js';
import {openLogSource, resolveSessionLogPath} from '../reader/log-source.js';
import {headerFromRecord} from '../reader/read-session-log.js';
import {SessionLogError, systemErrorCode} from '../reader/log-errors.js';
import {cardCount, notOkCount, type OutcomeCounts} from '../../presentation/card-outcome.js';
import {cardEventTypes, EntryPairing} from '../fold/entry-pairing.js';
import {LogEventDecoder} from '../reader/event-decoder.js';
import {contentText, turnOutcome, userMessageSource} from '../fold/entry-facts.js';
import {foreignAgentOf} from '../foreign/contract-lines.js';

/** The sessions folder: `override`, else `CARDTERM_SESSION_DIR`, else the per-user data directory. */
export function sessionsRoot(override?: string): string {
	if (override !== undefined && override !== '') {
		return override;
	}

	const fromEnvironment = process.env.CARDTERM_SESSION_DIR;
	if (fromEnvironment !== undefined && fromEnvironment !== '') {
		return fromEnvironment;
	}

	return defaultSessionsRoot();
}

/** The sessions folder when nothing overrides it: `sessions` in the per-user data directory. */
export function defaultSessionsRoot(): string {
	return join(envPaths('cardterm', {suffix: ''}).data, 'sessions');
}

/** A session id for a session created at `now` (epoch ms). */
export function newSessionId(now: number): string {
	return `${new Date(now).toISOString().slice(0, 19).replaceAll(':', '-')}-${randomBytes(2).toString('hex')}`;
}

/**
The folder of the session `id` under `root`, or undefined when `id` cannot be a session's: a session
id is one folder name, never a path (`../other/ID` must not reach a log outside the sessions folder).
*/
export function sessionDirOf(root: string, id: string): string | undefined {
	const plain = id !== '' && id !== '.' && id !== '..' && !/[/\\\0]/u.test(id);
	return plain ? join(root, id) : undefined;
}

/** A newly created session folder, with the header its log should start with. */
export type CreatedSessionDir = {
	readonly id: string;
	readonly dir: string;
	readonly logPath: string;
	readonly header: SessionHeader;
};

/** Creates `<root>/<id>/` for a new session run in `cwd` (the log itself is created by the writer). */
export function createSessionDir(root: string, cwd: string, now: number = Date.now()): CreatedSessionDir {
	makeDirectorySync(root);
	for (let attempt = 0; ; attempt += 1) {
		const id = newSessionId(now);
		const dir = join(root, id);
		try {
			mkdirSync(dir, {mode: PRIVATE_FOLDER_MODE});
		} catch (error) {
			// Two sessions in the same second drew the same suffix: draw again.
			if (systemErrorCode(error) === 'EEXIST' && attempt < 100) {
				continue;
			}

			throw error;
		}

		return {id, dir, logPath: join(dir, 'session.jsonl'), header: {type: 'session', version: SESSION_LOG_VERSION, id, createdAt: now, cwd, delegationDepth: 0}};
	}
}

/** One saved session, as `cardterm sessions` lists it. */
export type SessionSummary = {
	readonly id: string;
	readonly createdAt: number;
	readonly cwd: string | undefined;
	/** The header's title, else the last `session/title` event's. */
	readonly title: string | undefined;
	/** The first row of the person's first message (at most `PROMPT_CHARS` characters); `undefined` when counts were not requested or there is none. */
	readonly prompt: string | undefined;
	/** Turns started; `undefined` when counts were not requested. */
	readonly turns: number | undefined;
	/** Turns that ended failed (an error, or blocked: `turnOutcome`); `undefined` when counts were not requested. */
	readonly failedTurns: number | undefined;
	/** The agent that wrote it: `cardterm`, or another agent whose session file this is (src/session/foreign). */
	readonly agent: string;
	/** The session folder. */
	readonly dir: string;
	/** The log file inside it. */
	readonly path: string;
	/** Top-level cards (a call, or a result without one); `undefined` when counts were not requested. */
	readonly cards: number | undefined;
	/** Cards settled not `ok` (failed, error, denied, cancelled, interrupted: `card-outcome.ts`). */
	readonly failures: number | undefined;
	/** Cards by outcome, counted by the pairing the fold and the pager use. */
	readonly outcomes: OutcomeCounts | undefined;
	/** The session this one is a fork of (`fork-session.ts`), when it is one. */
	readonly forkOf?: string;
};

/** Options of `listSessions`. */
export type ListSessionsOptions = {
	/** Stream each log to count turns, cards and failures and find its title and first prompt (default true). */
	readonly counts?: boolean;
	/** Called for a folder whose log cannot be read; it is left out of the list. */
	readonly onUnreadable?: (dir: string, error: SessionLogError) => void;
};

/**
The sessions under `root`, newest first. With `counts: false` only each header line is read. A
missing root is an empty list.
*/
export async function listSessions(root: string, options: ListSessionsOptions = {}): Promise<SessionSummary[]> {
	let names: string[];
	try {
		// A dot-folder is not a session (the prompt history lives in `.history` of a named folder).
		names = (await readdir(root, {withFileTypes: true})).filter(entry => entry.isDirectory() && !entry.name.startsWith('.')).map(entry => entry.name);
	} catch (error) {
		const code = systemErrorCode(error);
		if (code === 'ENOENT') {
			return [];
		}

		throw new Error(`cannot list sessions in ${root}: ${code === 'ENOTDIR' ? 'it is not a folder' : messageOf(error)}`, {cause: error});
	}

	const summaries: SessionSummary[] = [];
	for (const name of names) {
		const dir = join(root, name);
		try {
			// eslint-disable-next-line no-await-in-loop -- one session at a time keeps file descriptors few
			const summary = await summarizeSession(dir, options.counts ?? true);
			if (summary !== undefined) {
				summaries.push(summary);
			}
		} catch (error) {
			// Whatever is wrong with one session, the others are still listed.
			options.onUnreadable?.(dir, error instanceof SessionLogError ? error : new SessionLogError(dir, 0, `cannot read: ${messageOf(error)}`, {cause: error}));
		}
	}

	return summaries.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

const TYPE_PREFIX = '{"type":"';
const TITLE_PREFIX = '{"type":"session/title"';
const TURN_START_PREFIX = '{"type":"turn/start"';
const USER_MESSAGE_PREFIX = '{"type":"user/message"';
/** How much of the first prompt a summary keeps: a row's worth, whatever the person pasted. */
export const PROMPT_CHARS = 200;
/** Lines of these types are decoded; writers put "type" first, so a prefix test skips the rest (chunks, messages) without JSON work. */
const CARD_PREFIXES = [...cardEventTypes].map(type => `${TYPE_PREFIX}${type}"`);

/**
The summary of a session folder or log file (cardterm's own, or another agent's session file), or
`undefined` for an empty one: nothing after its header (nothing was done in it).
*/
export async function summarizeSession(dir: string, counts: boolean): Promise<SessionSummary | undefined> {
	const path = await resolveSessionLogPath(dir);
	const source = await openLogSource(path);
	let header: SessionHeader | undefined;
	let title: string | undefined;
	let prompt: string | undefined;
	let turns = 0;
	let failedTurns = 0;
	let empty = true;
	// The same pairing the fold and the log index use: the counts agree with every other view.
	const pairing = new EntryPairing();
	const decoder = new LogEventDecoder(path, () => undefined);
	try {
		for await (const record of logRecords(source.chunks, {name: path})) {
			if (header === undefined) {
				header = headerFromRecord(record, path);
				title = header.title;
				continue;
			}

			empty &&= record.kind === 'line' && record.text.trim() === '';
			// Without counts, the first record after the header says all that is needed: not empty.
			if (!counts && !empty) {
				break;
			}

			if (record.kind !== 'line') {
				continue;
			}

			const {text} = record;
			if (!text.startsWith(TYPE_PREFIX) || CARD_PREFIXES.some(prefix => text.startsWith(prefix)) || text.startsWith(TURN_START_PREFIX) || (prompt === undefined && text.startsWith(USER_MESSAGE_PREFIX))) {
				for (const event of record.value === undefined ? decoder.decode(text, record.line) : decoder.decodeValue(record.value, record.line)) {
					pairing.route(event);
					if (event.type === 'turn/start') {
						turns += 1;
					} else if (event.type === 'turn/end' && turnOutcome(event.data.reason).failed) {
						failedTurns += 1;
					} else if (event.type === 'user/message' && prompt === undefined && userMessageSource(event.data).kind === 'user') {
						prompt = firstRow(contentText(event.data.content));
					}
				}
			} else if (header.title === undefined && text.startsWith(TITLE_PREFIX)) {
				title = titleOf(text) ?? title;
			}
		}
	} catch (error) {
		throw error instanceof SessionLogError ? error : new SessionLogError(path, 0, `cannot read: ${messageOf(error)}`, {cause: error});
	} finally {
		source.close();
	}

	if (header === undefined) {
		throw new SessionLogError(path, 1, 'missing header: the file is empty');
	}

	if (empty) {
		return undefined;
	}

	const outcomes = counts ? pairing.counts : undefined;
	const parent = forkParentOf(header);
	return {
		id: header.id, createdAt: header.createdAt, cwd: header.cwd, title, dir, path,
		prompt: counts ? prompt : undefined,
		turns: counts ? turns : undefined,
		failedTurns: counts ? failedTurns : undefined,
		...(parent === undefined ? {} : {forkOf: parent.session}),
		agent: foreignAgentOf(header) ?? 'cardterm',
		cards: outcomes === undefined ? undefined : cardCount(outcomes),
		failures: outcomes === undefined ? undefined : notOkCount(outcomes),
		outcomes,
	};
}

/** The first row with text of a message, bounded; undefined for one without text (an image). */
function firstRow(text: string): string | undefined {
	const start = text.search(/\S/u);
	if (start === -1) {
		return undefined;
	}

	const end = text.indexOf('\n', start);
	return text.slice(start, end === -1 ? undefined : end).trimEnd().slice(0, PROMPT_CHARS);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function parsed(text: string): Record<string, unknown> | undefined {
	const line = parseLogJson(text);
	return line.ok && isPlainRecord(line.value) && isPlainRecord(line.value.data) ? line.value.data : undefined;
}

function titleOf(text: string): string | undefined {
	const title = parsed(text)?.title;
	return typeof title === 'string' ? title : undefined;
}
