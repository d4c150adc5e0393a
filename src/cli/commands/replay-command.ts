/**
@module `cardterm replay LOG`: the pager on a TTY, otherwise the transcript as text (`--print`) or
one JSON object per card (`--json`).
*/
import {referencePresenters} from '../../acp/reference-presenters.js';
import {encodeOutput, JsonLines, OutputBatch, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import {SessionFold} from '../../session/fold/fold.js';
import {formatDiagnostic, isNote, type LogDiagnostic} from '../../session/reader/log-errors.js';
import {openSessionLog} from '../../session/reader/read-session-log.js';
import {parseArgs, stringFlag, UsageError, type ParsedArgs} from '../environment/parse-args.js';
import {opencodeLog} from '../environment/opencode-log.js';
import {logOrSessionId, sessionsRoot} from '../environment/session-paths.js';
import type {CliIo} from '../environment/cli-io.js';
import {printHelp} from '../environment/terminal-text.js';
import {colorFlagOf, outputOptions, PRINT_FLAGS} from '../print/output-options.js';
import {TranscriptStream} from '../print/transcript-stream.js';
import {entryJsonValue} from '../print/entry-json-output.js';
import {resolveSessionLogPath} from '../../session/reader/log-source.js';

export const REPLAY_HELP = `usage: cardterm replay LOG|--last [--print] [--json] [--width N] [--expand none|auto|all] [--color|--no-color]

Replays a session log as cards: the pager on a terminal, text when stdout is not a terminal or with
--print, one JSON object per card with --json. LOG is a .jsonl or .jsonl.zstd file, a session folder,
a session id (as cardterm sessions lists them), opencode:ID (an opencode session as sessions --all
lists it, read through opencode export), or - for stdin. --last opens the newest session of the
current directory.
Text to a terminal wraps at its width; to a pipe or a file each line stays whole (grep works) unless
--width N asks for rows of N columns.
Damaged lines are reported on stderr and skipped; an unreadable header exits 65.`;

const flags = [
	{name: 'print'},
	...PRINT_FLAGS,
	{name: 'expand', value: true},
	{name: 'last'},
	{name: 'help'},
	{name: 'session-dir', value: true},
] as const;

export async function replayCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'replay');
	if (parsed.flags.has('help')) {
		await printHelp(io, REPLAY_HELP);
		return 0;
	}

	if (parsed.positionals.length > 1) {
		throw new UsageError('replay: one LOG at a time');
	}

	const sessionDir = stringFlag(parsed, 'session-dir');
	const readable = await opencodeLog(await logOrSessionId(await io.resolveLog(parsed.positionals[0], parsed.flags.has('last'), sessionDir), sessionsRoot(sessionDir, io.env, io.cwd)), io);
	try {
		return await replaySource(readable.source, parsed, io);
	} finally {
		await readable.release();
	}
}

/** Replays one readable LOG (a path, a session folder, or `-`). */
async function replaySource(source: string, parsed: ParsedArgs, io: CliIo): Promise<number> {
	const json = parsed.flags.has('json');
	// Read before the pager opens, so a bad --width or --expand is a usage error there too.
	const checked = outputOptions(parsed, io, 'replay', process.cwd());
	const print = parsed.flags.has('print') || !io.isTTY;
	if (!json && !print) {
		return io.openPager(source, {colorFlag: colorFlagOf(parsed)});
	}

	let bad = 0;
	let notes = 0;
	const onDiagnostic = (diagnostic: LogDiagnostic): void => {
		if (isNote(diagnostic.kind)) {
			notes++;
		} else {
			bad++;
		}

		void io.printError(`${formatDiagnostic(diagnostic)}\n`);
	};

	const onWaiting = (message: string): void => {
		void io.printError(`cardterm: ${message}\n`);
	};

	const log = await openSessionLog(source === '-' ? io.stdin : source, {onDiagnostic, onWaiting});
	const workspace = log.header.cwd ?? process.cwd();
	const fold = new SessionFold(referencePresenters(workspace));
	// `--json` loads none of the row layout; printing loads it, and reads child sessions beside a saved log.
	const printEntry = json
		? undefined
		: await (await import('../print/print-output.js')).printOutput({...checked, sessionCwd: workspace, now: Date.now()}, source === '-' ? undefined : {logPath: await resolveSessionLogPath(source), header: log.header, presenters: found => referencePresenters(found.cwd ?? workspace)});
	// A chunk waits while a subagent's child session is read to be inlined under its card.
	const chunks: Array<TerminalOutput | Promise<TerminalOutput>> = [];
	const jsonLines = new JsonLines();
	// Rows are encoded as they come while no chunk waits (then they queue behind it, in order).
	const rows = new OutputBatch();
	let buffered = 0;
	const flushChunks = async (): Promise<void> => {
		if (jsonLines.units > 0) {
			await io.write(jsonLines.take());
		}

		if (rows.bytes > 0) {
			await io.write(rows.take());
		}

		if (chunks.length > 0) {
			// Promise.all only when a chunk waits: it costs a promise per chunk.
			const parts = chunks.every(chunk => typeof chunk === 'string') ? chunks as TerminalOutput[] : await Promise.all(chunks);
			await io.write(encodeOutput(parts));
			chunks.length = 0;
		}

		buffered = 0;
	};

	const write = printEntry === undefined
		? (entry: TranscriptEntry): void => {
			jsonLines.add(entryJsonValue(entry));
			buffered = jsonLines.units;
		}
		: (entry: TranscriptEntry): void => {
			const text = printEntry(entry);
			if (typeof text === 'string' && chunks.length === 0) {
				rows.add(text);
				buffered = rows.bytes;
			} else {
				chunks.push(text);
				buffered += typeof text === 'string' ? text.length : 1024;
			}
		};

	const stream = new TranscriptStream(fold, write);
	// A chunk's events at a time: an await per event (`log.events`) cost more than folding small events.
	for await (const events of log.eventBatches) {
		for (const event of events) {
			fold.apply(event);
			stream.advance();
			if (buffered > 1 << 20) {
				// eslint-disable-next-line no-await-in-loop -- the output drains before more is read
				await flushChunks();
			}
		}
	}

	stream.finish();
	await flushChunks();
	if (bad > 0) {
		await io.printError(`cardterm: ${bad} damaged line${bad === 1 ? '' : 's'} skipped in ${log.file}\n`);
	}

	if (notes > 0) {
		await io.printError(`cardterm: ${notes} note${notes === 1 ? '' : 's'} on ${log.file} (seq gaps or result formats cardterm does not read; no line was damaged)\n`);
	}

	return 0;
}
