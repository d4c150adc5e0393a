/**
@module `cardterm sessions`: saved sessions, newest first — time, cwd, title, cards, failures —
and the newest session of a directory for `replay --last`.
*/
import {sanitizeInline} from '../layout/sanitize.js';
import {joinOutput, jsonLine} from '../layout/terminal-sink.js';
import {listSessions} from '../session/session-store.js';
import type {CliIo} from './cli-io.js';
import {parseArgs} from './parse-args.js';
import {sessionsRoot} from './session-paths.js';

export const SESSIONS_HELP = `usage: cardterm sessions [--session-dir DIR] [--json]

Lists saved sessions, newest first: time, working directory, title, cards and failed cards.`;

/** The newest session log recorded in `cwd`, for `replay --last`. */
export async function newestSessionLog(cwd: string, sessionDir: string | undefined): Promise<string> {
	const root = sessionsRoot(sessionDir, process.env, cwd);
	const newest = (await listSessions(root, {counts: false})).find(summary => summary.cwd === cwd);
	if (newest === undefined) {
		throw Object.assign(new Error(`no saved session for ${cwd} in ${root}`), {exitCode: 65});
	}

	return newest.path;
}

export async function sessionsCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, [{name: 'session-dir', value: true}, {name: 'json'}, {name: 'help'}], 'sessions');
	if (parsed.flags.has('help')) {
		await io.print(`${SESSIONS_HELP}\n`);
		return 0;
	}

	const flag = parsed.flags.get('session-dir');
	const root = sessionsRoot(typeof flag === 'string' ? flag : undefined, io.env, io.cwd);
	const sessions = await listSessions(root, {onUnreadable(dir, error) {
		void io.printError(`cardterm: skipped ${dir}: ${error.message}\n`);
	}});
	if (parsed.flags.has('json')) {
		await io.write(joinOutput(sessions.map(session => jsonLine(session))));
		return 0;
	}

	if (sessions.length === 0) {
		await io.print(`no saved sessions in ${root}\n`);
		return 0;
	}

	const rows = sessions.map(session => [
		new Date(session.createdAt).toISOString().slice(0, 16).replace('T', ' '),
		session.cwd ?? '-',
		session.title ?? '',
		`${session.cards ?? 0} cards`,
		(session.failures ?? 0) > 0 ? `${session.failures} failed` : '',
		session.id,
	]);
	await io.print(rows.map(row => row.filter(cell => cell !== '').map(cell => sanitizeInline(cell)).join('  ')).join('\n') + '\n');
	return 0;
}
