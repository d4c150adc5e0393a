/**
@module What any error value says, read out once: its message, the provider's error `type` and
`code`, an HTTP status. Providers and their SDKs hand errors over in many shapes — an `Error` with a
`cause` chain, a plain `{type, message}` from an SSE `error` event, `{error: {message, type, code}}`
bodies (nested twice by some gateways), Gemini's `[{error: {code, message, status}}]` array, a bare
string, or a JSON text of any of these — and a person must never read `[object Object]`.

Reading is bounded (depth, visited set) so a circular or hostile object still gives a line.
*/

export type ErrorFacts = {
	/** One line; never empty. */
	readonly message: string;
	/** The provider's error type (`overloaded_error`, `invalid_request_error`, Gemini's `RESOURCE_EXHAUSTED`). */
	readonly type?: string;
	/** The provider's error code (`insufficient_quota`, `context_length_exceeded`, `invalid_api_key`). */
	readonly code?: string;
	/** An HTTP status the error names (a body's numeric `code`, an error's `status`/`statusCode`). */
	readonly status?: number;
};

/** How deep nested `error`, `cause` and array wrappers are followed. */
const MAX_DEPTH = 8;
/** Characters of a message kept (a provider may send a whole HTML page as its message). */
const MAX_MESSAGE = 2000;

type Found = {message?: string; type?: string; code?: string; status?: number};

/** The facts of `error`, whatever its shape. */
export function errorFacts(error: unknown): ErrorFacts {
	const found: Found = {};
	collect(error, found, new Set(), 0);
	const message = found.message ?? fallbackText(error);
	return {
		message: oneLine(message),
		...(found.type === undefined ? {} : {type: found.type}),
		...(found.code === undefined ? {} : {code: found.code}),
		...(found.status === undefined ? {} : {status: found.status}),
	};
}

/**
The outermost readable message wins, except that a wrapper's own message gives way to the
provider's (`{error: {message}}` inside it); types, codes and statuses are taken where first found.
*/
function collect(value: unknown, found: Found, seen: Set<unknown>, depth: number): void {
	if (depth > MAX_DEPTH || value === null || value === undefined) {
		return;
	}

	if (typeof value === 'string') {
		const parsed = jsonOf(value);
		if (parsed === undefined) {
			found.message ??= nonBlank(value);
		} else {
			collect(parsed, found, seen, depth + 1);
		}

		return;
	}

	if (typeof value !== 'object' || seen.has(value)) {
		return;
	}

	seen.add(value);
	if (Array.isArray(value)) {
		// Gemini answers some failures with an array of one error object.
		for (const item of value.slice(0, 4)) {
			collect(item, found, seen, depth + 1);
		}

		return;
	}

	const fields = readFields(value);
	// The provider's own error object, when this one wraps it (`{error: {...}}`, `{type: 'error', error: {...}}`).
	const inner = fields.error;
	if (typeof inner === 'object' && inner !== null) {
		collect(inner, found, seen, depth + 1);
	} else if (typeof inner === 'string') {
		found.message ??= nonBlank(inner);
	}

	found.message ??= nonBlank(stringOf(fields.message));
	found.type ??= nonBlank(stringOf(fields.type === 'error' ? undefined : fields.type));
	const code = fields.code;
	if (typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599) {
		found.status ??= code;
	} else {
		found.code ??= nonBlank(stringOf(code));
	}

	const status = fields.statusCode ?? fields.status;
	if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599) {
		found.status ??= status;
	} else if (typeof status === 'string' && /^[A-Z_]+$/.test(status)) {
		// Gemini's `status: "RESOURCE_EXHAUSTED"` is its error type.
		found.type ??= status;
	}

	// An SDK's call error keeps the provider's body as text: its fields are the provider's own words.
	if (typeof fields.responseBody === 'string') {
		const body = jsonOf(fields.responseBody);
		if (body !== undefined) {
			const fromBody: Found = {};
			collect(body, fromBody, seen, depth + 1);
			found.type ??= fromBody.type;
			found.code ??= fromBody.code;
			found.message ??= fromBody.message;
		}
	}

	collect(fields.cause, found, seen, depth + 1);
	// An SDK's validation error keeps the value it could not read.
	collect(fields.value, found, seen, depth + 1);
	collect(fields.data, found, seen, depth + 1);
}

/** The fields this module reads, each read once; a throwing getter reads as absent. */
function readFields(value: object): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	for (const key of ['error', 'message', 'type', 'code', 'status', 'statusCode', 'responseBody', 'cause', 'value', 'data']) {
		try {
			fields[key] = (value as Record<string, unknown>)[key];
		} catch {
			// A hostile getter: the field is not there.
		}
	}

	return fields;
}

function stringOf(value: unknown): string | undefined {
	return typeof value === 'string' ? value : (typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined);
}

function nonBlank(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}

/** A JSON object or array in `text`, or undefined (plain text stays text). */
function jsonOf(text: string): unknown {
	const trimmed = text.trim();
	if (!(trimmed.startsWith('{') || trimmed.startsWith('[')) || trimmed.length > 1_000_000) {
		return undefined;
	}

	try {
		const parsed: unknown = JSON.parse(trimmed);
		return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/** A value with no message anywhere: its JSON (circular parts elided), or its name. */
function fallbackText(value: unknown): string {
	if (typeof value === 'object' && value !== null) {
		try {
			const seen = new WeakSet<object>();
			const text = JSON.stringify(value, (_key, item: unknown) => {
				if (typeof item === 'object' && item !== null) {
					if (seen.has(item)) {
						return '[circular]';
					}

					seen.add(item);
				}

				return typeof item === 'bigint' ? String(item) : item;
			});
			if (text !== undefined && text !== '{}' && text !== '[]') {
				return text;
			}
		} catch {
			// A throwing getter or toJSON: the name below says what it was.
		}

		const name = (value as {constructor?: {name?: unknown}}).constructor?.name;
		return `unknown error (${typeof name === 'string' && name !== '' ? name : 'object'} without a message)`;
	}

	return value === undefined || value === null || String(value).trim() === '' ? 'unknown error' : String(value);
}

function oneLine(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line || 'unknown error';
}
