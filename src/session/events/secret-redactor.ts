/**
@module Secret values out of a session's events: every string of an event (tool output, arguments,
errors, messages, notices) has each known secret value replaced by `[REDACTED:NAME]`, before the log,
the model's context or a screen sees it, so live and replay agree. A value is matched as it is and
as JSON escapes it (a call's `arguments` is JSON text). Live output comes in pieces: the end of a
piece that could begin a secret is held back until the next piece of its stream shows whether it
does (held text is dropped when the call's result arrives, which carries the whole output).

Values shorter than `MIN_SECRET_CHARS` are not redacted: they would cut through ordinary words, and
no provider issues keys that short.
*/
import type {EventDraft} from './event-log.js';

/** Shortest value redacted. */
export const MIN_SECRET_CHARS = 8;

/** A secret: the variable that holds it (named in the replacement) and its value. */
export type Secret = {readonly name: string; readonly value: string};

type Form = {readonly text: string; readonly replacement: string};

const PROGRESS = 'cardterm/tool-progress';

export class SecretRedactor {
	/** Each value as it is and JSON-escaped, longest first (a value inside another is replaced after it). */
	readonly #forms: readonly Form[];
	/** Live output held back per call and stream: it could be the start of a secret. */
	readonly #held = new Map<string, string>();

	constructor(secrets: readonly Secret[]) {
		const forms = new Map<string, string>();
		for (const {name, value} of secrets) {
			if (value.length < MIN_SECRET_CHARS) {
				continue;
			}

			const replacement = `[REDACTED:${name}]`;
			forms.set(value, replacement);
			forms.set(JSON.stringify(value).slice(1, -1), replacement);
		}

		this.#forms = [...forms].map(([text, replacement]) => ({text, replacement})).sort((a, b) => b.text.length - a.text.length);
	}

	/** Whether there is anything to redact. */
	get active(): boolean {
		return this.#forms.length > 0;
	}

	/** `text` with every secret replaced. */
	redactText(text: string): string {
		let result = text;
		for (const form of this.#forms) {
			if (result.includes(form.text)) {
				result = result.replaceAll(form.text, form.replacement);
			}
		}

		return result;
	}

	/** `draft` with every string redacted (the same object when nothing changed). */
	redactEvent(draft: EventDraft): EventDraft {
		if (draft.type === PROGRESS) {
			return this.#redactProgress(draft);
		}

		if (draft.type === 'tool/result') {
			// Checked by the writer after this: a draft of the wrong shape must fail there, with its message.
			this.#forget((draft.data as {message?: {source?: {callId?: unknown}}}).message?.source?.callId);
		}

		return this.#redactValue(draft) as EventDraft;
	}

	#redactValue(value: unknown): unknown {
		if (typeof value === 'string') {
			return this.redactText(value);
		}

		if (typeof value !== 'object' || value === null) {
			return value;
		}

		if (Array.isArray(value)) {
			let copy: unknown[] | undefined;
			for (let index = 0; index < value.length; index++) {
				const item: unknown = value[index];
				const redacted = this.#redactValue(item);
				if (redacted !== item) {
					copy ??= [...value];
					copy[index] = redacted;
				}
			}

			return copy ?? value;
		}

		// Only plain data is walked: what a producer's `toJSON` makes is written as it makes it.
		const prototype = Object.getPrototypeOf(value) as unknown;
		if (prototype !== Object.prototype && prototype !== null) {
			return value;
		}

		let copy: Record<string, unknown> | undefined;
		const record = value as Record<string, unknown>;
		// `for…in` over a plain object: no array of entries per object walked (every event is).
		for (const key in record) {
			const item = record[key];
			const redacted = this.#redactValue(item);
			if (redacted !== item) {
				copy ??= {...record};
				copy[key] = redacted;
			}
		}

		return copy ?? value;
	}

	/** A piece of live output: what was held before it, redacted, less a new end that could begin a secret. */
	#redactProgress(draft: Extract<EventDraft, {readonly type: typeof PROGRESS}>): EventDraft {
		const {callId, stream, text} = draft.data;
		if (typeof text !== 'string') {
			return this.#redactValue(draft) as EventDraft;
		}

		const key = `${callId ?? ''}\u0000${stream ?? ''}`;
		const joined = this.redactText((this.#held.get(key) ?? '') + text);
		const hold = this.#startOfSecretAtEnd(joined);
		if (hold === 0) {
			this.#held.delete(key);
		} else {
			this.#held.set(key, joined.slice(joined.length - hold));
		}

		const shown = hold === 0 ? joined : joined.slice(0, joined.length - hold);
		return shown === text ? draft : {...draft, data: {...draft.data, text: shown}};
	}

	/**
	The length of the longest end of `text` that is the start of a secret (and not a whole one). Only
	the places holding a secret's first character are tried, earliest first: a few in real output,
	however long the secret (a PEM key is kilobytes).
	*/
	#startOfSecretAtEnd(text: string): number {
		let longest = 0;
		for (const {text: secret} of this.#forms) {
			const first = secret[0]!;
			for (let at = text.indexOf(first, Math.max(0, text.length - secret.length + 1)); at !== -1 && text.length - at > longest; at = text.indexOf(first, at + 1)) {
				if (secret.startsWith(text.slice(at))) {
					longest = text.length - at;
					break;
				}
			}
		}

		return longest;
	}

	#forget(callId: unknown): void {
		if (typeof callId !== 'string') {
			return;
		}

		for (const key of this.#held.keys()) {
			if (key.startsWith(`${callId}\u0000`)) {
				this.#held.delete(key);
			}
		}
	}
}

/**
Shapes of secrets found in text itself, for a session shared with others (`cardterm export`): the
keys of the common providers, bearer tokens, private keys, and `NAME=value` lines whose name says
secret (a `.env` file a tool read). Each is a `Secret` named by its shape, so the one redactor
replaces it as it replaces an environment variable's value. The patterns are bounded: a log is
hostile input.
*/
export const SECRET_SHAPES: ReadonlyArray<{readonly name: string; readonly pattern: RegExp; readonly group?: number}> = [
	// A key starts a word and holds a digit: `disk-usage-of-the-whole-cluster` is no key.
	{name: 'anthropic-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-(?=[A-Za-z0-9_-]{0,400}\d)[A-Za-z0-9_-]{20,400}/g},
	{name: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-)?(?=[A-Za-z0-9_-]{0,400}\d)[A-Za-z0-9_-]{20,400}/g},
	{name: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g},
	{name: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g},
	{name: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/g},
	{name: 'slack-token', pattern: /(?<![A-Za-z0-9])xox[abposr]-(?=[A-Za-z0-9-]{0,255}\d)[A-Za-z0-9-]{10,255}/g},
	{name: 'stripe-key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{16,255}/g},
	{name: 'bearer-token', pattern: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{20,2000}=*)/g, group: 1},
	{name: 'private-key', pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]{1,16384}?-----END [A-Z ]{0,40}PRIVATE KEY-----/g},
	{name: 'env-value', pattern: /^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]{0,100}(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[ \t]*=[ \t]*["']?([^\s"'#]{8,2000})/gm, group: 1},
];

/** The secrets of known shapes in `text` (each value once, named by its shape). */
export function secretsOfShape(text: string): Secret[] {
	const found = new Map<string, string>();
	for (const {name, pattern, group} of SECRET_SHAPES) {
		for (const match of text.matchAll(pattern)) {
			const value = match[group ?? 0];
			if (value !== undefined && value.length >= MIN_SECRET_CHARS && !found.has(value)) {
				found.set(value, name);
			}
		}
	}

	return [...found].map(([value, name]) => ({name, value}));
}
