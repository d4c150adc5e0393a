/**
@module Child sessions of a subagent card. A delegated subagent runs as a session of its own, kept
beside its parent in the same project folder (`<root>/<project>/<child id>/session.jsonl`, like any
session there); its header names the parent (`parentSession: <parent id>`, `origin: "subagent"`,
contract.md §E3.7), and its first event is usually a `subagent/descriptor`. The parent's
`subagent` call does not always name the child, so a card is matched with a child (in this order):
- the child whose id the card names: in its arguments (a continued subagent), its result text (
  `started subagent <id>`) or its result's meta;
- else the first child created while the call ran (from its call to its result).
*/
import {readdir} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import type {Card} from '../../presentation/card.js';
import type {SessionHeader} from '../events/events.js';
import {safeStringify} from '../fold/call-facts.js';
import {resolveSessionLogPath, SESSION_LOG_FILE_NAMES} from '../reader/log-source.js';
import {openSessionLog} from '../reader/read-session-log.js';
import {foreignAgentOf} from '../foreign/contract-lines.js';

/** A child session found beside its parent's log. */
export type ChildSession = {readonly id: string; readonly path: string; readonly createdAt: number};

/** The names of the tools that run a subagent (cardterm's, and Claude Code's Task as its reader records it). */
const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['subagent', 'claude-code:Task', 'claude-code:Agent']);

/** Whether `card` runs a subagent (and so may have a child session). */
export function isSubagentCard(card: Card): boolean {
	return SUBAGENT_TOOLS.has(card.name);
}

/** Session folders looked at, at most (a project folder of a long-used harness holds many). */
const MAX_SIBLINGS = 10_000;

/**
The child sessions of the session whose log is `logPath` (header `parent`): the session folders
beside its own whose header names it as parent, oldest first. Unreadable folders are skipped; a log
that is not a session folder's `session.jsonl[.zst|.zstd]` has none.
*/
export async function findChildSessions(logPath: string, parent: SessionHeader): Promise<ChildSession[]> {
	if (foreignAgentOf(parent) === 'Claude Code') {
		return claudeCodeSubagents(logPath, parent.id);
	}

	// Only a log in a session folder of its own has siblings that are sessions.
	if (!SESSION_LOG_FILE_NAMES.includes(basename(logPath))) {
		return [];
	}

	const own = dirname(logPath);
	const project = dirname(own);
	let names: string[];
	try {
		names = (await readdir(project, {withFileTypes: true})).filter(entry => entry.isDirectory() && entry.name !== basename(own)).map(entry => entry.name).sort().slice(0, MAX_SIBLINGS);
	} catch {
		return [];
	}

	const children: ChildSession[] = [];
	for (const name of names) {
		// eslint-disable-next-line no-await-in-loop -- one header at a time keeps file descriptors few
		const child = await childHeader(join(project, name), parent.id);
		if (child !== undefined) {
			children.push(child);
		}
	}

	return children.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
}

/**
Claude Code keeps a session's subagents beside it: `<session id>/subagents/agent-<agent id>.jsonl`,
the agent id named by the Task card's result (so `childOfCard` finds it by name).
*/
async function claudeCodeSubagents(logPath: string, sessionId: string): Promise<ChildSession[]> {
	const folder = join(dirname(logPath), basename(sessionId), 'subagents');
	let names: string[];
	try {
		names = (await readdir(folder)).filter(name => /^agent-[\w-]{1,200}\.jsonl$/.test(name)).sort().slice(0, MAX_SIBLINGS);
	} catch {
		return [];
	}

	const children: ChildSession[] = [];
	for (const name of names) {
		try {
			/* eslint-disable no-await-in-loop -- one header at a time keeps file descriptors few */
			const log = await openSessionLog(join(folder, name));
			await log.close();
			/* eslint-enable no-await-in-loop */
			children.push({id: name.slice('agent-'.length, -'.jsonl'.length), path: join(folder, name), createdAt: log.header.createdAt});
		} catch {
			// An unreadable transcript is no child.
		}
	}

	return children;
}

async function childHeader(folder: string, parentId: string): Promise<ChildSession | undefined> {
	try {
		const path = await resolveSessionLogPath(folder);
		const log = await openSessionLog(path);
		const {header} = log;
		await log.close();
		return header.parentSession === parentId && header.origin === 'subagent' ? {id: header.id, path, createdAt: header.createdAt} : undefined;
	} catch {
		return undefined;
	}
}

/** The child session of a subagent card among `children` (see the module comment), or undefined. */
export function childOfCard(card: Card, children: readonly ChildSession[]): ChildSession | undefined {
	if (children.length === 0) {
		return undefined;
	}

	const named = namedText(card);
	const byName = children.find(child => named.includes(child.id));
	if (byName !== undefined || card.callTime === null) {
		return byName;
	}

	const start = card.callTime;
	const end = card.resultTime ?? Number.POSITIVE_INFINITY;
	return children.find(child => child.createdAt >= start && child.createdAt <= end);
}

/** What of a card may name its child: arguments, result text and meta. */
function namedText(card: Card): string {
	const parts = [card.argsRaw];
	for (const block of card.result?.content ?? []) {
		if (block.type === 'text') {
			parts.push(block.text);
		}
	}

	if (card.result?.meta !== undefined) {
		parts.push(safeStringify(card.result.meta));
	}

	return parts.join('\n');
}
