/**
@module A one-line summary of a call's arguments, for the header of a card whose tool has no
presenter (`terminal_send`, `subagent`, `run_code` of another harness): the most telling string
fields first (what runs, where, what is asked), then other short scalars, `key value` joined by
` · `. The header cuts it to the width; the full arguments are in the card's expansion.
*/
import {sanitizeInline} from '../text/sanitize.js';

/** Field names that say most about a call, most telling first. */
const TELLING = ['command', 'cmd', 'code', 'script', 'prompt', 'query', 'queries', 'text', 'input', 'message', 'url', 'path', 'file_path', 'pattern', 'session', 'sessionId', 'session_id', 'name', 'description', 'task'];

/** At most this many characters of one value are kept (the header cuts the rest anyway). */
const VALUE_CHARS = 120;
const FIELDS = 4;

function scalarText(value: unknown): string | undefined {
	if (typeof value === 'string') {
		const flat = value.replace(/\s+/g, ' ').trim();
		return flat === '' ? undefined : (flat.length > VALUE_CHARS ? `${flat.slice(0, VALUE_CHARS)}…` : flat);
	}

	if (typeof value === 'number' || typeof value === 'boolean') {
		return String(value);
	}

	if (Array.isArray(value) && value.length > 0 && value.every(item => typeof item === 'string')) {
		return scalarText(value.join(', '));
	}

	return undefined;
}

/** The summary, sanitized for one row; empty when no field is a scalar. */
export function argumentSummary(args: unknown): string {
	if (typeof args !== 'object' || args === null || Array.isArray(args)) {
		return scalarText(args) === undefined ? '' : sanitizeInline(scalarText(args)!);
	}

	const fields = args as Record<string, unknown>;
	const keys = Object.keys(fields);
	const ordered = [
		...TELLING.filter(key => keys.includes(key) && typeof fields[key] === 'string'),
		...keys.filter(key => !TELLING.includes(key) && typeof fields[key] === 'string'),
		...TELLING.filter(key => keys.includes(key) && typeof fields[key] !== 'string'),
		...keys.filter(key => !TELLING.includes(key) && typeof fields[key] !== 'string'),
	];
	const parts: string[] = [];
	for (const key of ordered) {
		const text = scalarText(fields[key]);
		if (text !== undefined) {
			parts.push(`${key} ${text}`);
			if (parts.length === FIELDS) {
				break;
			}
		}
	}

	return sanitizeInline(parts.join(' · '));
}
