/**
@module The pager's cards for `cardterm watch`: a log another process is writing, folded as
`followSessionLog` reads it. When the path gets another log (renamed over, deleted and created
again, overwritten in place) or is truncated, the cards start over from the new content's header;
the status line says what the path holds (`following`, `log deleted · waiting`, `log replaced ·
reopened`, `log truncated · reread`, `follow stopped: …`). A path with no log yet is waited for, as
`tail -F` does (`waiting for LOG`); once the log's last entry is a turn's end, no card runs and no
live process holds its lock, the writer has finished (`writer finished`; `writer gone · turn not
ended` when a lock that was held went without a turn end). New events make it `following` again.
*/
import {stat} from 'node:fs/promises';
import type {PresenterLookup} from '../presentation/presenters.js';
import type {SessionHeader} from '../session/events/events.js';
import {SessionFold} from '../session/fold/fold.js';
import {followSessionLog, type FollowState} from '../session/reader/follow-session-log.js';
import {writerHoldsLock} from '../session/recorder/log-lock.js';
import {resolveSessionLogPath} from '../session/reader/log-source.js';
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

/** How often a missing path is looked for, and the writer's lock checked (ms). */
const CHECK_INTERVAL_MS = 500;

/** What the writer is doing, as far as the log and its lock tell. */
type WriterState = 'writing' | 'finished' | 'gone';

/**
Starts following `source`; resolves once its header is read (a bad one rejects with
`SessionLogError`) — or at once, waiting, when nothing is at the path yet.
*/
export async function watchLog(source: string, options: {readonly signal: AbortSignal; readonly presenters: (header: SessionHeader) => PresenterLookup; readonly checkIntervalMs?: number}): Promise<WatchedLog> {
	const interval = options.checkIntervalMs ?? CHECK_INTERVAL_MS;
	let header: SessionHeader | undefined;
	let state: FollowState = 'following';
	let writer: WriterState = 'writing';
	let headerRead: () => void = () => undefined;
	const headerKnown = new Promise<void>(resolve => {
		headerRead = resolve;
	});
	// No card comes before the header, and each header (the first, and a re-read log's) starts a fold
	// with presenters for its own working directory.
	const cards = new FoldedEntrySource(new SessionFold(options.presenters({type: 'session', version: 0, id: source, createdAt: 0}), {context: true}));
	const name = (): string => (typeof header?.title === 'string' ? header.title : (header?.id ?? source));
	const relabel = (): void => {
		const shown = state === 'following' && writer !== 'writing' ? (writer === 'finished' ? 'writer finished' : 'writer gone · turn not ended') : stateText[state];
		const label = `${name()} · ${shown}`;
		if (label !== cards.label()) {
			cards.setLabel(label);
		}
	};

	const follow = async (): Promise<void> => {
		const path = await resolveSessionLogPath(source).catch(() => source);
		const events = followSessionLog(source, {
			signal: options.signal,
			onDiagnostic(diagnostic) {
				cards.report(diagnostic);
			},
			onHeader(value) {
				header = value;
				cards.reset(new SessionFold(options.presenters(value), {context: true}));
				relabel();
				headerRead();
			},
			onState(next) {
				state = next;
				if (next === 'replaced' || next === 'truncated') {
					// Until the new content's header arrives there are no cards.
					cards.reset(new SessionFold(options.presenters(header!), {context: true}));
				}

				relabel();
			},
		});
		const checking = watchWriter(path, cards, interval, options.signal, next => {
			writer = next;
			relabel();
		});
		await cards.consume(events);
		checking.stop();
		if (cards.error !== undefined) {
			cards.setLabel(`${name()} · follow stopped: ${cards.error.message}`);
		}

		headerRead();
	};

	if (!(await pathExists(source))) {
		// Like `tail -F`: wait for the log to appear, with the pager already open.
		cards.setLabel(`waiting for ${source}`);
		const done = waitForPath(source, interval, options.signal).then(async appeared => (appeared ? follow() : undefined));
		return {cards, header: () => header, done};
	}

	const done = follow();
	await headerKnown;
	if (header === undefined) {
		throw cards.error ?? new Error(`${source}: follow ended before the header was read`);
	}

	return {cards, header: () => header, done};
}

async function pathExists(path: string): Promise<boolean> {
	return stat(path).then(() => true, () => false);
}

/** Resolves true once something is at `path`, false when `signal` aborts first. */
async function waitForPath(path: string, interval: number, signal: AbortSignal): Promise<boolean> {
	while (!signal.aborted) {
		// eslint-disable-next-line no-await-in-loop -- polling until the file is there
		if (await pathExists(path)) {
			return true;
		}

		// eslint-disable-next-line no-await-in-loop -- polling until the file is there
		await new Promise<void>(resolve => {
			const timer = setTimeout(done, interval);
			function done(): void {
				clearTimeout(timer);
				signal.removeEventListener('abort', done);
				resolve();
			}

			signal.addEventListener('abort', done);
		});
	}

	return false;
}

/**
Checks, every `interval` ms, whether the writer has finished: the last entry a turn's end, no card
running, and no live process holding the log's lock. Tells `onChange` each change of that answer.
*/
function watchWriter(path: string, cards: FoldedEntrySource, interval: number, signal: AbortSignal, onChange: (state: WriterState) => void): {stop(): void} {
	let current: WriterState = 'writing';
	let checking = false;
	// A log whose lock was never seen (another producer, or written before the pager opened) cannot
	// tell a writer that died mid-turn from one still writing: only a turn's end says finished.
	let lockSeen = false;
	const check = async (): Promise<void> => {
		if (checking || signal.aborted) {
			return;
		}

		checking = true;
		try {
			const held = await writerHoldsLock(path);
			lockSeen ||= held;
			const last = cards.count() === 0 ? undefined : cards.entry(cards.count() - 1);
			const ended = last?.entry === 'turn' && cards.counts().running === 0;
			const next: WriterState = held ? 'writing' : (ended ? 'finished' : (lockSeen ? 'gone' : 'writing'));
			if (next !== current) {
				current = next;
				onChange(next);
			}
		} finally {
			checking = false;
		}
	};

	const timer = setInterval(() => {
		void check();
	}, interval);
	// A check of its own must not keep the process alive.
	timer.unref();
	void check();
	return {
		stop() {
			clearInterval(timer);
		},
	};
}
