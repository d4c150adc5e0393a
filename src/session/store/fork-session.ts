/**
@module A fork (issue 20): a new session that starts from a point of a saved one — its events up to
that point copied into a log of its own, whose header names the parent (`parentSession`, `origin:
"fork"`, `forkEntry`: the seq the fork stops before, `forkPath`: the parent's log) as a subagent's
child names its parent (contract.md §E3.7). The parent's log is only read: rewinding or
forking never rewrites a log. A log of another producer that cardterm reads forks too (its events
as the reader lifts them); continuing the fork closes a turn the cut left open, as a resume does.
*/
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {SessionEvent, SessionHeader} from '../events/events.js';
import {makeDirectory} from './make-directory.js';

/** The saved session a fork starts from. */
export type ForkSource = {readonly path: string; readonly header: SessionHeader; readonly events: readonly SessionEvent[]};

/** Where a fork stands in the parent: its id, and the seq the fork stops before (`undefined`: the whole log). */
export type ForkParent = {readonly session: string; readonly entry: number | undefined};

/** The parent a header names when it is a fork's. */
export function forkParentOf(header: SessionHeader): ForkParent | undefined {
	if (header.origin !== 'fork' || typeof header.parentSession !== 'string') {
		return undefined;
	}

	return {session: header.parentSession, entry: Number.isSafeInteger(header.forkEntry) ? header.forkEntry as number : undefined};
}

/** Write the fork `id` of `source` under `root`, holding its events before seq `before` (all of them when `undefined`). */
export async function writeFork(options: {readonly root: string; readonly id: string; readonly now: number; readonly source: ForkSource; readonly before?: number}): Promise<ForkSource> {
	const {source, before} = options;
	const events = before === undefined ? [...source.events] : source.events.filter(event => event.seq < before);
	const {cwd} = source.header;
	const header: SessionHeader = {
		type: 'session',
		version: 0,
		id: options.id,
		createdAt: options.now,
		...(cwd === undefined ? {} : {cwd}),
		parentSession: source.header.id,
		origin: 'fork',
		...(before === undefined ? {} : {forkEntry: before}),
		forkPath: source.path,
	};
	const folder = join(options.root, options.id);
	await makeDirectory(folder);
	const path = join(folder, 'session.jsonl');
	// A new file only (`wx`): a fork never writes over a session.
	await writeFile(path, `${[header, ...events].map(line => JSON.stringify(line)).join('\n')}\n`, {flag: 'wx'});
	return {path, header, events};
}
