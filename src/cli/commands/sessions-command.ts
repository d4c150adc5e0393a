/**
@module `cardterm sessions`: saved sessions, newest first — time, cwd, title or first prompt, turns,
cards, failures, id — and the newest session of a directory for `replay --last`.
*/
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {truncateToWidth} from '../../layout/text/text-width.js';
import {joinOutput, jsonLine} from '../../layout/terminal/terminal-sink.js';
import {homedir} from 'node:os';
import {agentSessionFiles} from '../../session/store/agent-sessions.js';
import {exportOpencodeSession, listOpencodeSessions, OPENCODE_CLI_NEEDED, OPENCODE_PREFIX, opencodeDataExists, opencodeProgram} from '../../host/opencode-sessions.js';
import {listSessions, summarizeSession, type SessionSummary} from '../../session/store/session-store.js';
import {matchIn, searchSession} from '../../session/store/session-search.js';
import {formatCount, plural} from '../../layout/text/format.js';
import {cardOutcomes, emptyOutcomeCounts, isNotOk, outcomeTally, type OutcomeCounts} from '../../presentation/card-outcome.js';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {parseArgs} from '../environment/parse-args.js';
import {sessionsRoot} from '../environment/session-paths.js';

export const SESSIONS_HELP = `usage: cardterm sessions [--all] [--search TEXT] [--session-dir DIR] [--json]

Lists saved sessions, newest first, one a line: time (UTC), working directory, the session's title
(logs from other producers) or else the first line of its first prompt, its turns (and how many
ended failed: an error, or blocked), its cards and the cards that did not end ok, by outcome
(✗ failed: a non-zero exit, a signal or HTTP ≥ 400; ✗ error; ✗ denied; ⊘ cancelled; ◌ interrupted —
the counts the status line and the pager show), and the session id, which cardterm --resume ID,
replay ID and watch ID take. A fork (cardterm --fork, /fork, /rewind) is listed under the session it
came from, marked ↳. Empty sessions (nothing after the header) are left out.
--json: one object per session, with "prompt", "turns", "failedTurns", "cards", "failures" (cards
not ok) and "outcomes" by outcome.
--all: the sessions of this folder by every agent — cardterm's, and those Claude Code, Codex,
Gemini CLI and pi saved in their own folders (~/.claude/projects, ~/.codex/sessions,
~/.gemini/tmp, ~/.pi/agent/sessions; CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME and
PI_CODING_AGENT_DIR move them, as they move the agents), and opencode's through its CLI (opencode
on PATH: opencode session list, opencode export) — newest first: time, agent, title or first
message, cards and failures, and the file (cardterm replay FILE opens it, watch follows it) or
opencode:ID (cardterm replay and export open it).
--search TEXT: only the sessions (with --all, of every agent) whose title, first message or content
— messages, calls' arguments, results — holds TEXT (any case), each printed as it is found with
where it matched; at most 50.`;

/** Columns a field of a listed session may take: a huge title or id must not turn one row into pages. */
const MAX_CELL_COLUMNS = 200;
/** Columns of the title or first prompt: enough to tell sessions apart, and the counts stay in view. */
const WHAT_COLUMNS = 60;
/** Sessions `--search` lists at most: a common word must not print every session there is. */
const MAX_SEARCH_RESULTS = 50;

/** `YYYY-MM-DD HH:MM` (UTC) of a header's `createdAt` (within the `Date` range: the header parser checks it); years past 9999 keep their sign. */
export function minuteOf(epochMs: number): string {
	return new Date(epochMs).toISOString().replace(/T(\d\d:\d\d).*$/, ' $1');
}

/** The newest session log recorded in `cwd`, for `replay --last`. */
export async function newestSessionLog(cwd: string, sessionDir: string | undefined): Promise<string> {
	const root = sessionsRoot(sessionDir, process.env, cwd);
	const newest = (await listSessions(root, {counts: false})).find(summary => summary.cwd === cwd);
	if (newest === undefined) {
		throw Object.assign(new Error(`no saved session for ${cwd} in ${root}`), {exitCode: 65});
	}

	return newest.path;
}

/** opencode sessions `sessions --all` exports to count and search (each export starts opencode: ~1 s). */
const MAX_OPENCODE_SESSIONS = 20;

/** Every agent's sessions of a folder; an opencode session's export is a file only while the command runs (`release`). */
type AllSessions = {
	readonly sessions: SessionSummary[];
	/** The file to read for a listed session (an opencode session's `opencode:ID` is its export). */
	readonly fileOf: (session: SessionSummary) => string;
	readonly release: () => Promise<void>;
};

/** `sessions --all`: every agent's sessions of this folder, newest first. */
async function allSessions(io: CliIo, root: string, onUnreadable: (dir: string, error: Error) => void): Promise<AllSessions> {
	const own = (await listSessions(root, {onUnreadable})).filter(session => session.cwd === io.cwd);
	const foreign: SessionSummary[] = [];
	const home = io.env.HOME ?? homedir();
	for (const file of await agentSessionFiles(io.cwd, io.env, home)) {
		try {
			// The header first (Codex keeps every project's rollouts together), then the counts of this folder's.
			// eslint-disable-next-line no-await-in-loop -- one file at a time keeps file descriptors few
			const head = await summarizeSession(file, false);
			// Gemini CLI's older chats name no folder: the project folder they were found in is this one.
			const here = head !== undefined && (head.cwd === io.cwd || (head.cwd === undefined && head.agent === 'Gemini CLI'));
			// eslint-disable-next-line no-await-in-loop
			const summary = here ? await summarizeSession(file, true) : undefined;
			if (summary !== undefined) {
				foreign.push(summary);
			}
		} catch (error) {
			onUnreadable(file, error instanceof Error ? error : new Error(String(error)));
		}
	}

	const opencode = await opencodeSessions(io, home);
	const sessions = [...own, ...foreign, ...opencode.sessions].sort((a, b) => b.createdAt - a.createdAt);
	return {sessions, fileOf: session => opencode.files.get(session.path) ?? session.path, release: opencode.release};
}

/**
This folder's opencode sessions, through its CLI (its database is SQLite): each exported to a private
file and summarized as any session file is, listed as `opencode:ID` (which replay and export take).
Only where opencode keeps data (its data folder); without the CLI, one line says so; a failing or
hung CLI is one line too.
*/
async function opencodeSessions(io: CliIo, home: string): Promise<{sessions: SessionSummary[]; files: Map<string, string>; release: () => Promise<void>}> {
	const files = new Map<string, string>();
	const removals: Array<() => Promise<void>> = [];
	const sessions: SessionSummary[] = [];
	const release = async (): Promise<void> => {
		await Promise.all(removals.map(async remove => remove()));
	};

	// Where opencode keeps no data it has no session: it is not started (a second, and its files made).
	if (!await opencodeDataExists(io.env, home)) {
		return {sessions, files, release};
	}

	const program = await opencodeProgram(io.env);
	if (program === undefined) {
		await io.printError(`${OPENCODE_CLI_NEEDED}\n`);
		return {sessions, files, release};
	}

	try {
		const rows = await listOpencodeSessions(program, io.cwd, io.env);
		if (rows.length > MAX_OPENCODE_SESSIONS) {
			await io.printError(`cardterm: the newest ${MAX_OPENCODE_SESSIONS} of ${rows.length} opencode sessions are listed (opencode session list lists them all)\n`);
		}

		for (const row of rows.slice(0, MAX_OPENCODE_SESSIONS)) {
			// eslint-disable-next-line no-await-in-loop -- one opencode at a time: each is a process of its own
			const exported = await exportOpencodeSession(program, row.id, io.cwd, io.env);
			removals.push(exported.remove);
			// eslint-disable-next-line no-await-in-loop
			const summary = await summarizeSession(exported.path, true);
			if (summary !== undefined) {
				const name = `${OPENCODE_PREFIX}${row.id}`;
				files.set(name, exported.path);
				sessions.push({...summary, dir: name, path: name});
			}
		}
	} catch (error) {
		await io.printError(`${sanitizeInline(`cardterm: opencode sessions not listed: ${error instanceof Error ? error.message : String(error)}`)}\n`);
	}

	return {sessions, files, release};
}

/** A row of `sessions --all`: time, agent, title or first message, cards, failures, file. */
function allRow(session: SessionSummary): string {
	const row = [
		minuteOf(session.createdAt),
		session.agent,
		session.title ?? session.prompt ?? '',
		`${session.cards ?? 0} cards`,
		session.outcomes === undefined ? '' : outcomeTally(notOk(session.outcomes)),
		session.path,
	];
	return row.filter(cell => cell !== '').map(cell => truncateToWidth(sanitizeInline(cell), MAX_CELL_COLUMNS)).join('  ');
}

/**
`sessions --search TEXT`: the listed sessions whose title, first message or content holds TEXT, each
printed as soon as it is found (newest first), with where it matched; at most `MAX_SEARCH_RESULTS`.
*/
async function searchSessions(io: CliIo, sessions: readonly SessionSummary[], query: string, json: boolean, row: (session: SessionSummary) => string, fileOf: (session: SessionSummary) => string = session => session.path): Promise<number> {
	const needle = query.toLowerCase();
	let found = 0;
	for (const session of sessions) {
		if (found === MAX_SEARCH_RESULTS) {
			// eslint-disable-next-line no-await-in-loop -- said once, as the loop ends
			await io.printError(`cardterm: the first ${MAX_SEARCH_RESULTS} matching sessions are shown; narrow the search for the rest\n`);
			break;
		}

		const said = session.title ?? session.prompt;
		const inSaid = said === undefined ? undefined : matchIn(said, needle);
		// eslint-disable-next-line no-await-in-loop -- one session after another, printed as found
		const match = inSaid === undefined ? await searchSession(fileOf(session), query) : {snippet: inSaid, where: session.title === undefined ? 'the first message' : 'the title'};
		if (match === undefined) {
			continue;
		}

		found++;
		// eslint-disable-next-line no-await-in-loop -- each match printed as soon as it is found
		await (json ? io.write(jsonLine({...session, match})) : io.print(`${row(session)}\n    ${truncateToWidth(sanitizeInline(`${match.where}: ${match.snippet}`), MAX_CELL_COLUMNS)}\n`));
	}

	if (found === 0 && !json) {
		await io.print(`no session holds ${JSON.stringify(sanitizeInline(query))}\n`);
	}

	return 0;
}

/** Only the outcomes that are not ok: the ok and running cards are the rest of the card count. */
function notOk(counts: OutcomeCounts): OutcomeCounts {
	const shown = emptyOutcomeCounts();
	for (const outcome of cardOutcomes) {
		shown[outcome] = isNotOk(outcome) ? counts[outcome] : 0;
	}

	return shown;
}

/** `3 turns (1 failed) · 12 cards`: the turns when there are any, the cards when there are any. */
export function sessionCounts(session: Pick<SessionSummary, 'turns' | 'failedTurns' | 'cards'>): string {
	const parts: string[] = [];
	if ((session.turns ?? 0) > 0) {
		parts.push(`${plural(session.turns!, 'turn')}${(session.failedTurns ?? 0) > 0 ? ` (${formatCount(session.failedTurns!)} failed)` : ''}`);
	}

	if ((session.cards ?? 0) > 0 || parts.length === 0) {
		parts.push(plural(session.cards ?? 0, 'card'));
	}

	return parts.join(' · ');
}

/** The sessions in their order, each fork moved under its parent (newest fork first) when the parent is listed. */
export function withForks(sessions: readonly SessionSummary[]): Array<{readonly session: SessionSummary; readonly depth: number}> {
	const listed = new Set(sessions.map(session => session.id));
	const forks = new Map<string, SessionSummary[]>();
	for (const session of sessions) {
		if (session.forkOf !== undefined && listed.has(session.forkOf) && session.forkOf !== session.id) {
			forks.set(session.forkOf, [...forks.get(session.forkOf) ?? [], session]);
		}
	}

	const out: Array<{readonly session: SessionSummary; readonly depth: number}> = [];
	const seen = new Set<string>();
	const place = (session: SessionSummary, depth: number): void => {
		if (seen.has(session.id)) {
			return;
		}

		seen.add(session.id);
		out.push({session, depth});
		for (const fork of forks.get(session.id) ?? []) {
			place(fork, depth + 1);
		}
	};

	for (const session of sessions) {
		if (session.forkOf === undefined || !listed.has(session.forkOf) || session.forkOf === session.id) {
			place(session, 0);
		}
	}

	// A cycle of forks (a hand-edited header) is listed still, at the top.
	for (const session of sessions) {
		place(session, 0);
	}

	return out;
}

export async function sessionsCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, [{name: 'session-dir', value: true}, {name: 'json'}, {name: 'all'}, {name: 'search', value: true}, {name: 'help'}], 'sessions');
	if (parsed.flags.has('help')) {
		await printHelp(io, SESSIONS_HELP);
		return 0;
	}

	const flag = parsed.flags.get('session-dir');
	const root = sessionsRoot(typeof flag === 'string' ? flag : undefined, io.env, io.cwd);
	const onUnreadable = (dir: string, error: Error): void => {
		// One line per bad session, whatever its folder name holds.
		void io.printError(`${sanitizeInline(`cardterm: skipped ${dir}: ${error.message}`)}\n`);
	};

	const search = parsed.flags.get('search');
	const json = parsed.flags.has('json');
	if (parsed.flags.has('all')) {
		const {sessions: all, fileOf, release} = await allSessions(io, root, onUnreadable);
		try {
			if (typeof search === 'string') {
				return await searchSessions(io, all, search, json, allRow, fileOf);
			}

			if (json) {
				await io.write(joinOutput(all.map(session => jsonLine(session))));
			} else {
				await io.print(all.length === 0 ? `no saved sessions of ${io.cwd} by any agent\n` : `${all.map(session => allRow(session)).join('\n')}\n`);
			}

			return 0;
		} finally {
			await release();
		}
	}

	const sessions = await listSessions(root, {onUnreadable});
	if (typeof search === 'string') {
		return searchSessions(io, sessions, search, json, session => ownRow(session, 0));
	}

	if (json) {
		await io.write(joinOutput(sessions.map(session => jsonLine(session))));
		return 0;
	}

	if (sessions.length === 0) {
		await io.print(`no saved sessions in ${root}\n`);
		return 0;
	}

	await io.print(withForks(sessions).map(({session, depth}) => ownRow(session, depth)).join('\n') + '\n');
	return 0;
}

/** A row of `sessions`: time (a fork indented under its parent), folder, title or first prompt, counts, failures, id. */
function ownRow(session: SessionSummary, depth: number): string {
	const row = [
		`${'  '.repeat(depth)}${depth > 0 ? '↳ ' : ''}${minuteOf(session.createdAt)}`,
		session.cwd ?? '-',
		truncateToWidth(sanitizeInline(session.title ?? session.prompt ?? ''), WHAT_COLUMNS),
		sessionCounts(session),
		session.outcomes === undefined ? '' : outcomeTally(notOk(session.outcomes)),
		session.id,
	];
	return row.filter(cell => cell !== '').map(cell => truncateToWidth(sanitizeInline(cell), MAX_CELL_COLUMNS)).join('  ');
}
