/**
@module The event types a reader knows (contract.md §E3.2). A type outside this list and not
marked `ignorable` is reported once; the types the card layer ignores are known and never reported.
*/

/** Types the card layer consumes (§E3.2). */
const CONSUMED_EVENT_TYPES: ReadonlySet<string> = new Set([
	'turn/start',
	'turn/end',
	'step/start',
	'step/end',
	'user/message',
	'assistant/chunk',
	'assistant/message',
	'tool/call',
	'tool/result',
	'tool/code-dispatch-start',
	'tool/code-dispatch',
	'todo/write',
	'approval/asked',
	'approval/decided',
	// Shown as transcript entries: a steering message, and notices (entry-facts.ts words them).
	'steering/message',
	'session/title',
	'llm/retry',
	'plan/mode',
	'goal/change',
	'sandbox/mode',
	'approval/policy',
	'permission/preset',
	'subagent/descriptor',
	// A compaction's summary (or its end) is its card; its start and prunes are read by it.
	'compaction/start',
	'compaction/prune',
	'compaction/summary',
	'compaction/end',
]);

/** Types a producer writes that no view shows (§E3.2 "everything else"). */
const IGNORED_EVENT_TYPES: ReadonlySet<string> = new Set([
	'request/header',
	'request/context',
	'agent/inbox/spliced',
	'session/end-seed',
	'cardterm/tool-progress',
]);

/** Families of known types, matched by prefix (`hook/invoked`, `compaction/start`, …); most are notices. */
const IGNORED_EVENT_PREFIXES: readonly string[] = ['compaction/', 'hook/', 'command/', 'tool-workflow/', 'cardterm/'];

/** Packed chunk rows (§E3.7): one line standing for several `assistant/chunk` events. */
export const PACKED_CHUNK_TYPES: ReadonlySet<string> = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);

/** Whether a reader knows `type`, as consumed or as deliberately ignored. */
export function isKnownEventType(type: string): boolean {
	return CONSUMED_EVENT_TYPES.has(type) || IGNORED_EVENT_TYPES.has(type) || IGNORED_EVENT_PREFIXES.some(prefix => type.startsWith(prefix));
}
