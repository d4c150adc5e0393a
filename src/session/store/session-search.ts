/**
@module Searching a saved session's content (`cardterm sessions --search TEXT`): the person's and the
model's messages, each call's arguments and each result's text, of cardterm's logs and of every other
agent's session file alike (they are read as the contract's events). Case-insensitive, plain text.
A file is read until its first match, and no further than `MAX_SEARCH_BYTES` of events' text.
*/
import {stringsOf} from '../../json/strings-of.js';
import {openSessionLog} from '../reader/read-session-log.js';

/** The most text of one session searched: a huge log is not read whole for one query. */
export const MAX_SEARCH_BYTES = 64 * 1024 * 1024;

/** Characters shown either side of a match. */
const SNIPPET_SIDE = 40;

/** Where a session matched: the text around the first match, on one line. */
export type SessionMatch = {readonly snippet: string; readonly where: string};

/** The first match of `query` (lowercased by the caller's `needle`) in `text`, as a snippet. */
export function matchIn(text: string, needle: string): string | undefined {
	const at = text.toLowerCase().indexOf(needle);
	if (at < 0) {
		return undefined;
	}

	const start = Math.max(0, at - SNIPPET_SIDE);
	const end = Math.min(text.length, at + needle.length + SNIPPET_SIDE);
	return `${start > 0 ? '…' : ''}${text.slice(start, end).replaceAll(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/** What an event's texts are, for the events a transcript shows as the person's, the model's or a call's. */
const SEARCHED: Readonly<Record<string, string>> = {
	'user/message': 'a message of the person',
	'assistant/message': 'an answer',
	'tool/call': 'a call',
	'tool/result': 'a result',
};

/** The first place `query` occurs in the session at `path`, or undefined (also when the file cannot be read as a session). */
export async function searchSession(path: string, query: string): Promise<SessionMatch | undefined> {
	const needle = query.toLowerCase();
	let log;
	try {
		log = await openSessionLog(path, {onDiagnostic: () => undefined});
	} catch {
		return undefined;
	}

	let read = 0;
	try {
		for await (const event of log.events) {
			const where = SEARCHED[event.type];
			for (const text of where === undefined ? [] : stringsOf(event.data)) {
				const snippet = matchIn(text, needle);
				if (snippet !== undefined) {
					return {snippet, where};
				}

				read += text.length;
			}

			if (read > MAX_SEARCH_BYTES) {
				return undefined;
			}
		}
	} finally {
		// Leaving the loop early closes the file (the generator's finally); an unread one is closed here.
		await log.events.return();
	}

	return undefined;
}
