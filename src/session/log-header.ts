/**
@module The header line of a session log (presentation-events.md §3.7, line 1). Any problem with it
makes the whole log unreadable, so it throws `SessionLogError` instead of reporting a diagnostic.
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {quoteLogValue, SessionLogError} from './log-errors.js';
import {SESSION_LOG_VERSION, type SessionHeader} from './events.js';

/** The largest time a `Date` holds (ECMA-262 §21.4.1.1), in ms either side of the epoch. */
const MAX_EPOCH_MS = 8.64e15;

/** Parses and checks line 1 of `file`. Throws `SessionLogError` naming file, line 1 and the reason. */
export function parseHeaderLine(text: string, file: string): SessionHeader {
	const fail = (reason: string): never => {
		throw new SessionLogError(file, 1, reason);
	};

	let value: unknown;
	try {
		// A UTF-8 byte-order mark is the only thing tolerated before the JSON.
		value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
	} catch {
		return fail('missing header: line 1 is not valid JSON');
	}

	if (!isPlainRecord(value)) {
		return fail('missing header: line 1 is not a JSON object');
	}

	if (value.type !== 'session') {
		const found = typeof value.type === 'string' ? `a ${quoteLogValue(value.type)} event` : 'an object without "type": "session"';
		return fail(`missing header: line 1 is ${found}, not the session header {"type":"session",…}`);
	}

	const version = value.version;
	if (version !== SESSION_LOG_VERSION) {
		if (typeof version === 'number' && Number.isFinite(version) && version > SESSION_LOG_VERSION) {
			return fail(`session log version ${version} is newer than this cardterm supports (version ${SESSION_LOG_VERSION}); upgrade cardterm to read it`);
		}

		return fail(`unsupported session log version ${version === undefined ? 'undefined' : quoteLogValue(version)} (this cardterm reads version ${SESSION_LOG_VERSION})`);
	}

	if (typeof value.id !== 'string') {
		return fail('invalid header: "id" must be a string');
	}

	if (typeof value.createdAt !== 'number' || !Number.isFinite(value.createdAt)) {
		return fail('invalid header: "createdAt" must be a number (epoch ms)');
	}

	// Beyond ±8.64e15 ms a Date is invalid: such a time cannot be shown, so it is no creation time.
	if (Math.abs(value.createdAt) > MAX_EPOCH_MS) {
		return fail(`invalid header: "createdAt" must be epoch ms within ±8.64e15 (got ${value.createdAt})`);
	}

	for (const key of ['cwd', 'title'] as const) {
		if (value[key] !== undefined && typeof value[key] !== 'string') {
			return fail(`invalid header: "${key}" must be a string when present`);
		}
	}

	return value as SessionHeader;
}
