/**
@module `cardterm sessions`: saved sessions, newest first — time, cwd, title, cards, failures —
and the newest session of a directory for `replay --last`.
*/
import {createReadStream} from 'node:fs';
import {readdir, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {sanitizeInline} from '../layout/sanitize.js';
import {SessionLogError} from '../session/log-errors.js';
import {openSessionLog} from '../session/read-session-log.js';
import type {CliIo} from './cli-io.js';
import {parseArgs} from './parse-args.js';
import {sessionsRoot} from './session-paths.js';

export const SESSIONS_HELP = `usage: cardterm sessions [--session-dir DIR] [--json]

Lists saved sessions, newest first: time, working directory, title, cards and failed cards.`;

export type SessionSummary = {
	readonly id: string;
	readonly path: string;
	readonly createdAt: number;
	readonly cwd: string | undefined;
	readonly title: string | undefined;
	readonly cards: number;
	readonly failures: number;
};

const LOG_NAMES = ['session.jsonl', 'session.jsonl.zstd', 'session.jsonl.zst'];

/** Every readable session under `root`, newest first. Unreadable ones are skipped. */
export async function listSessions(root: string): Promise<SessionSummary[]> {
	let entries: string[];
	try {
		entries = await readdir(root);
	} catch {
		return [];
	}

	const summaries = await Promise.all(entries.map(async entry => summarize(join(root, entry), entry)));
	return summaries.filter((summary): summary is SessionSummary => summary !== undefined).sort((a, b) => b.createdAt - a.createdAt);
}

async function summarize(folder: string, id: string): Promise<SessionSummary | undefined> {
	for (const name of LOG_NAMES) {
		const path = join(folder, name);
		// eslint-disable-next-line no-await-in-loop -- at most three names, first hit wins
		if (!await stat(path).then(info => info.isFile(), () => false)) {
			continue;
		}

		try {
			// eslint-disable-next-line no-await-in-loop
			const log = await openSessionLog(path);
			await log.close();
			const {cards, failures, title} = name === 'session.jsonl' ? await countCards(path) : {cards: 0, failures: 0, title: undefined};
			return {id, path, createdAt: log.header.createdAt, cwd: log.header.cwd, title: title ?? (typeof log.header.title === 'string' ? log.header.title : undefined), cards, failures};
		} catch (error) {
			if (error instanceof SessionLogError) {
				return undefined;
			}

			throw error;
		}
	}

	return undefined;
}

/** Cheap counts from a scan of the raw text: calls, error results, the last title. */
async function countCards(path: string): Promise<{cards: number; failures: number; title: string | undefined}> {
	let cards = 0;
	let failures = 0;
	let title: string | undefined;
	let carry = '';
	for await (const chunk of createReadStream(path, {encoding: 'utf8'})) {
		const lines = (carry + (chunk as string)).split('\n');
		carry = lines.pop() ?? '';
		for (const line of lines) {
			if (line.startsWith('{"type":"tool/call"')) {
				cards++;
			} else if (line.startsWith('{"type":"tool/result"') && line.includes('"isError":true')) {
				failures++;
			} else if (line.startsWith('{"type":"session/title"')) {
				try {
					title = (JSON.parse(line) as {data?: {title?: string}}).data?.title ?? title;
				} catch {}
			}
		}
	}

	return {cards, failures, title};
}

/** The newest session log recorded in `cwd`, for `replay --last`. */
export async function newestSessionLog(cwd: string, sessionDir: string | undefined): Promise<string> {
	const root = sessionsRoot(sessionDir, process.env, cwd);
	const newest = (await listSessions(root)).find(summary => summary.cwd === cwd);
	if (newest === undefined) {
		throw Object.assign(new Error(`no saved session for ${cwd} in ${root}`), {exitCode: 65});
	}

	return newest.path;
}

export async function sessionsCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, [{name: 'session-dir', value: true}, {name: 'json'}, {name: 'help'}], 'sessions');
	if (parsed.flags.has('help')) {
		io.stdout.write(`${SESSIONS_HELP}\n`);
		return 0;
	}

	const flag = parsed.flags.get('session-dir');
	const root = sessionsRoot(typeof flag === 'string' ? flag : undefined, io.env, io.cwd);
	const sessions = await listSessions(root);
	if (parsed.flags.has('json')) {
		await io.write(sessions.map(session => `${JSON.stringify(session)}\n`).join(''));
		return 0;
	}

	if (sessions.length === 0) {
		await io.write(`no saved sessions in ${root}\n`);
		return 0;
	}

	const rows = sessions.map(session => [
		new Date(session.createdAt).toISOString().slice(0, 16).replace('T', ' '),
		session.cwd ?? '-',
		session.title ?? '',
		`${session.cards} cards`,
		session.failures > 0 ? `${session.failures} failed` : '',
		session.id,
	]);
	await io.write(rows.map(row => row.filter(cell => cell !== '').map(cell => sanitizeInline(cell)).join('  ')).join('\n') + '\n');
	return 0;
}
