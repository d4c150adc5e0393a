/**
@module `cardterm watch LOG|ID`: the pager on a log another process is writing, following its end.
*/
import {stat} from 'node:fs/promises';
import {OPENCODE_PREFIX} from '../../host/opencode-sessions.js';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {colorFlagOf} from '../print/output-options.js';
import {parseArgs, stringFlag, UsageError} from '../environment/parse-args.js';
import {logOrSessionId, sessionsRoot} from '../environment/session-paths.js';
import {withScreenEnvironment} from '../environment/screen-environment.js';

export const WATCH_HELP = `usage: cardterm watch LOG|ID [--session-dir DIR] [--color|--no-color]

Shows a session that another process is writing (plain or zstd log, a session folder, or a session
id as cardterm sessions lists them), live: new cards appear as their events are appended, running
cards tick, and damaged lines are counted as they arrive (! lists them).
A LOG that does not exist yet is waited for, as tail -F does ("waiting for LOG"). The status line says
"writer finished" once the last turn has ended and no process holds the log's lock. The view follows
the newest cards until you move; G follows again. ? lists the keys; q quits.`;

const flags = [{name: 'color'}, {name: 'no-color'}, {name: 'session-dir', value: true}, {name: 'help'}] as const;

export async function watchCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'watch');
	if (parsed.flags.has('help')) {
		await printHelp(io, WATCH_HELP);
		return 0;
	}

	const [log, ...extra] = parsed.positionals;
	if (log === undefined || extra.length > 0) {
		throw new UsageError('watch: usage: cardterm watch LOG');
	}

	if (!io.isTTY) {
		throw new UsageError('watch: needs a terminal (use replay --print for text)');
	}

	const source = await logOrSessionId(log, sessionsRoot(stringFlag(parsed, 'session-dir'), io.env, io.cwd));
	if (source.startsWith(OPENCODE_PREFIX) && !await stat(source).then(() => true, () => false)) {
		// What `opencode export` prints is the session as it was: nothing to follow.
		throw new UsageError(`watch: ${log} is read through opencode export, a copy of the session as it was (nothing to follow); replay ${log} reads it`);
	}

	const {openPagerOnLog} = await withScreenEnvironment(async () => import('../pager/pager-command.js'));
	return openPagerOnLog(source, {colorFlag: colorFlagOf(parsed), follow: true});
}
