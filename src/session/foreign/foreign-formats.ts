/**
@module Which agent wrote a session file, told by its first record (by content, never by the
file's name), and the reader for it. A first record no format claims is not a foreign session: the
log reader judges it as a header of its own.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import {ClaudeCodeSession} from './claude-code-session.js';
import {CodexRollout} from './codex-rollout.js';
import type {ForeignFormatId} from '../../presentation/tool-name.js';
import type {ForeignReader} from './foreign-reader.js';
import {GeminiCliChat} from './gemini-cli-chat.js';
import {PiSession} from './pi-session.js';
import {isOpencodeExport, OpencodeExport, opencodeRecords} from './opencode-export.js';

type Fields = Readonly<Record<string, unknown>>;

/** A format: its id, the agent's name, whether a first record is its, and a reader. */
export type ForeignFormat = {
	readonly id: ForeignFormatId;
	readonly agent: string;
	readonly claims: (first: Fields) => boolean;
	readonly reader: () => ForeignReader;
	/**
	The records of a session saved as one JSON document (claimed as a whole), in the order its reader
	takes them; each is read on its own, so a record the reader slips on leaves the others.
	*/
	readonly documentRecords?: (document: Fields) => Fields[];
};

const isString = (value: unknown): value is string => typeof value === 'string';

export const FOREIGN_FORMATS: readonly ForeignFormat[] = [
	{
		id: 'pi',
		agent: 'pi',
		// pi's header is a "session" record too, but with a string timestamp and no createdAt.
		claims: first => first.type === 'session' && isString(first.timestamp) && first.createdAt === undefined,
		reader: () => new PiSession(),
	},
	{
		id: 'codex',
		agent: 'Codex',
		// Rollouts since 0.2x: `{timestamp, type: "session_meta", payload}`; earlier ones start with the bare meta.
		claims: first => first.type === 'session_meta' || (first.type === undefined && isString(first.id) && isString(first.timestamp) && 'instructions' in first),
		reader: () => new CodexRollout(),
	},
	{
		id: 'gemini-cli',
		agent: 'Gemini CLI',
		claims: first => isString(first.sessionId) && isString(first.projectHash) && isString(first.startTime),
		reader: () => new GeminiCliChat(),
		// The chat document of versions before the JSONL chats: the session's fields, then its messages as the JSONL records.
		documentRecords: document => [
			{sessionId: document.sessionId, projectHash: document.projectHash, startTime: document.startTime},
			...(Array.isArray(document.messages) ? document.messages.filter(message => isJsonObject(message)) : []),
		],
	},
	{
		id: 'opencode',
		agent: 'opencode',
		// `opencode export`: `{info: {id: "ses_…", directory, …}, messages}`.
		claims: isOpencodeExport,
		reader: () => new OpencodeExport(),
		documentRecords: opencodeRecords,
	},
	{
		id: 'claude-code',
		agent: 'Claude Code',
		// Every record of a transcript carries the session id; the first may be a summary or bookkeeping.
		claims: first => (isString(first.sessionId) && isString(first.type) && (isString(first.uuid) || isString(first.timestamp))) || (first.type === 'summary' && isString(first.leafUuid)),
		reader: () => new ClaudeCodeSession(),
	},
];

/** The format whose first record `value` is, or undefined. */
export function foreignFormatOf(value: unknown): ForeignFormat | undefined {
	if (!isJsonObject(value) || (value.type === 'session' && value.version === 0 && typeof value.createdAt === 'number')) {
		return undefined;
	}

	return FOREIGN_FORMATS.find(format => format.claims(value));
}
