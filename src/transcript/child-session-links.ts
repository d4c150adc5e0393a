/**
@module The child sessions of a log's subagent cards, for the pager: found once in the background
(the folders beside the log are read when it opens, so the first frame does not wait), then each
subagent card says where its child is, and a child opens as an entry source of its own (with its
own children, for a nested pager). A live log (the interactive session's, a watched one) gets
children while it is read: a subagent card whose child is not found yet has the folders read again
(at most every `rescanMs`), and the cards are told when a child turns up; its folders are first
read when a subagent card asks, not when it opens.
*/
import type {ChildLink} from '../layout/cards/child-session-row.js';
import type {TranscriptEntry} from '../presentation/entry.js';
import type {PresenterLookup} from '../presentation/presenters.js';
import {childOfCard, type ChildSession, findChildSessions, isSubagentCard} from '../session/store/child-sessions.js';
import type {SessionHeader} from '../session/events/events.js';
import type {EntrySource} from './entry-source.js';
import {openIndexedEntrySource} from './indexed-entry-source.js';
import {resolveSessionLogPath} from '../session/reader/log-source.js';

/** A child session opened for a nested view. */
export type OpenedChild = {readonly source: EntrySource & {close(): void}; readonly title: string; readonly links: ChildSessionLinks};

export type ChildSessionLinks = {
	/** Where the child of a subagent card is; undefined for other entries (and until the folders are read). */
	linkOf(entry: TranscriptEntry): ChildLink | undefined;
	/** Opens the child `id` (a found link's) as an entry source. */
	open(id: string): Promise<OpenedChild>;
	/** Called once the folders beside the log were read. */
	subscribe(listener: () => void): () => void;
};

/** How often a live log's folders are read again, at most, while a subagent card has no child. */
export const RESCAN_MS = 2000;

/**
The links of the log at `logPath` (a resolved log file) with header `header`. `live`: the log is
still being written, so its children may appear later (see the module comment).
*/
export function childSessionLinks(logPath: string, header: SessionHeader, presenters: (header: SessionHeader) => PresenterLookup, options: {readonly live?: boolean; readonly rescanMs?: number; readonly now?: () => number} = {}): ChildSessionLinks {
	let children: readonly ChildSession[] | undefined;
	const listeners = new Set<() => void>();
	const now = options.now ?? Date.now;
	let scanning = false;
	let scannedAt = Number.NEGATIVE_INFINITY;
	const scan = (): void => {
		scanning = true;
		scannedAt = now();
		void findChildSessions(logPath, header).catch(() => []).then(found => {
			scanning = false;
			const changed = children === undefined || found.map(child => child.id).join('\n') !== children.map(child => child.id).join('\n');
			children = found;
			if (changed) {
				for (const listener of listeners) {
					listener();
				}
			}
		});
	};

	// One read again at a time, `rescanMs` after the last (unref'd: an open pager alone keeps nothing alive).
	let timer: ReturnType<typeof setTimeout> | undefined;
	const rescanSoon = (): void => {
		if (scanning || timer !== undefined) {
			return;
		}

		timer = setTimeout(() => {
			timer = undefined;
			scan();
		}, Math.max(0, scannedAt + (options.rescanMs ?? RESCAN_MS) - now()));
		timer.unref?.();
	};

	// A live log's folders are read once a subagent card asks (a session that runs none never reads them).
	if (options.live !== true) {
		scan();
	}

	return {
		linkOf(entry) {
			if (entry.entry !== 'card' || !isSubagentCard(entry.card)) {
				return undefined;
			}

			if (children === undefined) {
				if (!scanning) {
					scan();
				}

				return undefined;
			}

			const child = childOfCard(entry.card, children);
			if (child === undefined && options.live === true) {
				rescanSoon();
			}

			return child === undefined ? {found: false} : {found: true, id: child.id};
		},
		async open(id) {
			const child = children?.find(candidate => candidate.id === id);
			if (child === undefined) {
				throw new Error(`child session ${id} is not beside this log`);
			}

			const source = await openIndexedEntrySource(child.path, {presenters});
			const title = typeof source.header.title === 'string' ? source.header.title : `child ${source.header.id}`;
			// The original path: a zstd child is read from a temporary copy, whose folder holds no siblings.
			return {source, title, links: childSessionLinks(child.path, source.header, presenters)};
		},
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}

/**
The links of a log another process writes (`watch`): made for the header of the log at `source`
now, and made again when the path gets another log; live, so children that appear later are found.
*/
export function followedChildSessionLinks(source: string, header: () => SessionHeader | undefined, presenters: (header: SessionHeader) => PresenterLookup): ChildSessionLinks {
	let current: {readonly header: SessionHeader; links?: ChildSessionLinks} | undefined;
	const listeners = new Set<() => void>();
	const notify = (): void => {
		for (const listener of listeners) {
			listener();
		}
	};

	const links = (): ChildSessionLinks | undefined => {
		const now = header();
		if (now !== undefined && current?.header !== now) {
			const made: {readonly header: SessionHeader; links?: ChildSessionLinks} = {header: now};
			current = made;
			void resolveSessionLogPath(source).catch(() => source).then(path => {
				if (current === made) {
					made.links = childSessionLinks(path, now, presenters, {live: true});
					made.links.subscribe(notify);
				}
			});
		}

		return current?.links;
	};

	return {
		linkOf: entry => links()?.linkOf(entry),
		async open(id) {
			const found = links();
			if (found === undefined) {
				throw new Error(`child session ${id} is not beside this log`);
			}

			return found.open(id);
		},
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}
