/**
@module The child sessions of a log's subagent cards, for the pager: found once in the background
(the folders beside the log are read when it opens, so the first frame does not wait), then each
subagent card says where its child is, and a child opens as an entry source of its own (with its
own children, for a nested pager).
*/
import type {ChildLink} from '../layout/child-session-row.js';
import type {TranscriptEntry} from '../presentation/entry.js';
import type {PresenterLookup} from '../presentation/presenters.js';
import {childOfCard, type ChildSession, findChildSessions, isSubagentCard} from '../session/child-sessions.js';
import type {SessionHeader} from '../session/events.js';
import type {EntrySource} from './entry-source.js';
import {openIndexedEntrySource} from './indexed-entry-source.js';

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

/** The links of the log at `logPath` (a resolved log file) with header `header`. */
export function childSessionLinks(logPath: string, header: SessionHeader, presenters: (header: SessionHeader) => PresenterLookup): ChildSessionLinks {
	let children: readonly ChildSession[] | undefined;
	const listeners = new Set<() => void>();
	void findChildSessions(logPath, header).catch(() => []).then(found => {
		children = found;
		for (const listener of listeners) {
			listener();
		}
	});
	return {
		linkOf(entry) {
			if (children === undefined || entry.entry !== 'card' || !isSubagentCard(entry.card)) {
				return undefined;
			}

			const child = childOfCard(entry.card, children);
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
