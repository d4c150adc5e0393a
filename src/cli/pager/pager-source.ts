/**
@module Where the pager's cards come from: a saved file opens on a lazy card index (newest cards
first), stdin and FIFOs are folded as they stream, and watch mode folds a followed log. Each source keeps the
log's damaged lines for the pager's `!` list.
*/
import type {SessionHeader} from '../../session/events/events.js';
import {SessionFold} from '../../session/fold/fold.js';
import {isRegularLogFile, resolveSessionLogPath, STDIN_NAME} from '../../session/reader/log-source.js';
import {childSessionLinks, followedChildSessionLinks, type ChildSessionLinks} from '../../transcript/child-session-links.js';
import {writeText} from '../../layout/terminal/terminal-sink.js';
import {openSessionLog} from '../../session/reader/read-session-log.js';
import {FoldedEntrySource} from '../../transcript/folded-entry-source.js';
import {openIndexedEntrySource, type IndexedEntrySource} from '../../transcript/indexed-entry-source.js';
import {referencePresenters} from '../../acp/reference-presenters.js';
import {watchLog} from '../../transcript/watch-entry-source.js';

/** An opened pager source. */
export type PagerSource = {
	readonly cards: IndexedEntrySource | FoldedEntrySource;
	/** The log's header (watch mode: of the log at the path now). */
	readonly header: () => SessionHeader | undefined;
	/** Settles when a streamed fold ends (stdin; watch mode once `signal` aborts). */
	readonly consuming: Promise<void>;
	/** Releases the file (after `signal` aborted). */
	readonly close: () => void;
	/** The child sessions of its subagent cards (a saved or watched log file). */
	readonly childSessions?: ChildSessionLinks;
};

/** Opens `source` (a log path or folder, or `-`: `stdin`) for the pager; `follow` watches it. A bad header throws `SessionLogError`. */
export async function openPagerSource(source: string, options: {readonly follow: boolean; readonly signal: AbortSignal; readonly stdin?: NodeJS.ReadableStream}): Promise<PagerSource> {
	const presenters = (header: SessionHeader) => referencePresenters(header.cwd ?? process.cwd());
	if (options.follow) {
		const watched = await watchLog(source, {signal: options.signal, presenters});
		// The log is still written: children that start later are found as their cards show.
		const childSessions = followedChildSessionLinks(source, watched.header, presenters);
		return {cards: watched.cards, header: watched.header, consuming: watched.done, close: () => undefined, childSessions};
	}

	if (source !== '-' && await isRegularLogFile(source)) {
		const indexed = await openIndexedEntrySource(source, {presenters});
		const childSessions = childSessionLinks(await resolveSessionLogPath(source), indexed.header, presenters);
		return {cards: indexed, header: () => indexed.header, consuming: Promise.resolve(), close: () => indexed.close(), childSessions};
	}

	let folded: FoldedEntrySource | undefined;
	// Stdin and FIFOs are folded as they stream. Damaged lines come with events, after the header: the
	// source exists by then. Before the pager takes the screen, a FIFO without a writer says so while it waits.
	const log = await openSessionLog(source === '-' ? options.stdin ?? source : source, {
		...(source === '-' ? {name: STDIN_NAME} : {}),
		signal: options.signal,
		onDiagnostic: diagnostic => folded?.report(diagnostic),
		onWaiting(message) {
			void writeText(process.stderr, `cardterm: ${message}\n`);
		},
	});
	folded = new FoldedEntrySource(new SessionFold(presenters(log.header), {context: true}));
	return {cards: folded, header: () => log.header, consuming: folded.consume(log.events), close: () => undefined};
}
