/**
@module The `hooks` of the config files, in Claude Code's shape (people bring theirs along):
  {"hooks": {"PreToolUse": [{"matcher": "bash|write", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]}}
Events: `PreToolUse` and `PostToolUse` (the matcher is a pattern over the tool's name, whole and
case-insensitive: `Bash` matches bash; empty or `*` matches every tool), `Stop` (a turn ended) and
`Notification` (a question waits for the person). `timeout` is in seconds (default 60). What cannot
be read is a warning naming it; the rest is kept. A project's hooks run only once the person
allowed them (`hookConsentKey`, the rule MCP servers follow).
*/
import {createHash} from 'node:crypto';
import {isPlainRecord} from '../json/is-plain-record.js';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'Stop', 'Notification'] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One hook command as the session runs it. */
export type HookEntry = {
	readonly event: HookEvent;
	/** The tool-name pattern (tool events only); absent: every tool. */
	readonly matcher?: string;
	readonly command: string;
	readonly timeoutMs: number;
	/** The file it came from, for messages. */
	readonly from: string;
	/** A project's file named it: it runs only with the person's consent. */
	readonly byProject: boolean;
};

/** Seconds a hook may run when its entry names no `timeout` (Claude Code's default). */
const DEFAULT_TIMEOUT_S = 60;
/** The longest `timeout` taken, in seconds: a day. */
const MAX_TIMEOUT_S = 86_400;

/** The hooks of one file's `hooks` value, and what in it could not be read. */
export function readHooks(value: unknown, from: string, byProject: boolean): {readonly entries: readonly HookEntry[]; readonly warnings: readonly string[]} {
	const entries: HookEntry[] = [];
	const warnings: string[] = [];
	if (value === undefined) {
		return {entries, warnings};
	}

	if (!isPlainRecord(value)) {
		return {entries, warnings: [`${from}: "hooks" ignored: it must be an object of events (${HOOK_EVENTS.join(', ')})`]};
	}

	for (const [event, groups] of Object.entries(value)) {
		const known = HOOK_EVENTS.find(name => name === event);
		if (known === undefined) {
			warnings.push(`${from}: hooks."${event}" ignored: cardterm runs ${HOOK_EVENTS.join(', ')}`);
			continue;
		}

		if (!Array.isArray(groups)) {
			warnings.push(`${from}: hooks.${event} ignored: it must be an array of {"matcher", "hooks"}`);
			continue;
		}

		for (const [index, group] of groups.entries()) {
			const where = `hooks.${event}[${index}]`;
			const matcher = isPlainRecord(group) ? group.matcher : undefined;
			const commands = isPlainRecord(group) ? group.hooks : undefined;
			if (!Array.isArray(commands) || (matcher !== undefined && typeof matcher !== 'string')) {
				warnings.push(`${from}: ${where} ignored: it must be {"matcher": "TOOL|TOOL", "hooks": [{"type": "command", "command": "…"}]}`);
				continue;
			}

			for (const [at, hook] of commands.entries()) {
				const command = isPlainRecord(hook) ? hook.command : undefined;
				const timeout = isPlainRecord(hook) ? hook.timeout ?? DEFAULT_TIMEOUT_S : undefined;
				if (!isPlainRecord(hook) || (hook.type !== undefined && hook.type !== 'command') || typeof command !== 'string' || command.trim() === '' || typeof timeout !== 'number' || !(timeout > 0 && timeout <= MAX_TIMEOUT_S)) {
					warnings.push(`${from}: ${where}.hooks[${at}] ignored: it must be {"type": "command", "command": "…", "timeout": SECONDS (1 to ${MAX_TIMEOUT_S})}`);
					continue;
				}

				const pattern = typeof matcher === 'string' && matcher.trim() !== '' && matcher.trim() !== '*' && (known === 'PreToolUse' || known === 'PostToolUse') ? matcher.trim() : undefined;
				entries.push({event: known, ...(pattern === undefined ? {} : {matcher: pattern}), command, timeoutMs: Math.round(timeout * 1000), from, byProject});
			}
		}
	}

	return {entries, warnings};
}

/** The key a project's hook is allowed under: its event, matcher and command (a changed hook asks again). */
export function hookConsentKey(entry: HookEntry): string {
	const digest = createHash('sha256').update(JSON.stringify([entry.event, entry.matcher ?? '', entry.command])).digest('hex').slice(0, 16);
	return `hook:${entry.event}#${digest}`;
}
