/**
@module The pager's cards for `cardterm watch`: a log another process is writing, folded as
`followSessionLog` reads it. When the path gets another log (renamed over, deleted and created
again, overwritten in place) or is truncated, the cards start over from the new content's header;
the status line says what the path holds (`following`, `log deleted · waiting`, `log replaced ·
reopened`, `log truncated · reread`, `follow stopped: …`).
*/
import type {PresenterLookup} from '../presentation/presenters.js';
import type {SessionHeader} from '../session/events.js';
import {SessionFold} from '../session/fold.js';
import {followSessionLog, type FollowState} from '../session/follow-session-log.js';
import {FoldedEntrySource} from './folded-entry-source.js';

/** A watched log: its cards, its header when read, and the fold running until `signal` aborts. */
export type WatchedLog = {
	readonly cards: FoldedEntrySource;
	/** The header of the log at the path now (a replaced log's is the new one). */
	header(): SessionHeader | undefined;
	/** Settles when following ends: aborted, or stopped by an error (`cards.error`). */
	readonly done: Promise<void>;
};

const stateText: Readonly<Record<FollowState, string>> = {
	following: 'following',
	deleted: 'log deleted · waiting',
	replaced: 'log replaced · reopened · following',
	truncated: 'log truncated · reread · following',
};

/** Starts following `source`; resolves once its header is read (a bad one rejects with `SessionLogError`). */
export async function watchLog(source: string, options: {readonly signal: AbortSignal; readonly presenters: (header: SessionHeader) => PresenterLookup}): Promise<WatchedLog> {
	let header: SessionHeader | undefined;
	let state: FollowState = 'following';
	let headerRead: () => void = () => undefined;
	const headerKnown = new Promise<void>(resolve => {
		headerRead = resolve;
	});
	// No card comes before the header, and each header (the first, and a re-read log's) starts a fold
	// with presenters for its own working directory.
	const cards = new FoldedEntrySource(new SessionFold(options.presenters({type: 'session', version: 0, id: source, createdAt: 0})));
	const name = (): string => (typeof header?.title === 'string' ? header.title : (header?.id ?? source));
	const relabel = (): void => {
		cards.setLabel(`${name()} · ${stateText[state]}`);
	};

	const events = followSessionLog(source, {
		signal: options.signal,
		onDiagnostic(diagnostic) {
			cards.report(diagnostic);
		},
		onHeader(value) {
			header = value;
			cards.reset(new SessionFold(options.presenters(value)));
			relabel();
			headerRead();
		},
		onState(next) {
			state = next;
			if (next === 'replaced' || next === 'truncated') {
				// Until the new content's header arrives there are no cards.
				cards.reset(new SessionFold(options.presenters(header!)));
			}

			relabel();
		},
	});
	const done = cards.consume(events).then(() => {
		if (cards.error !== undefined) {
			cards.setLabel(`${name()} · follow stopped: ${cards.error.message}`);
		}

		headerRead();
	});
	await headerKnown;
	if (header === undefined) {
		throw cards.error ?? new Error(`${source}: follow ended before the header was read`);
	}

	return {cards, header: () => header, done};
}
