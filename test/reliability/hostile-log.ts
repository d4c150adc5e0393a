/**
Turns a template session into log bytes whose string fields carry hostile bytes: raw invalid UTF-8,
escape sequences and controls (JSON-escaped where JSON requires it, so the line still parses and the
reader, not the JSON parser, decides what they become). Structural fields (ids, tool names, types)
are kept so the real presenters run.
*/
import type {SessionEvent, SessionHeader} from '../../src/session/events/events.js';

/** Keys whose values stay as recorded: they route events to cards and presenters. */
const structural = new Set(['callId', 'toolCallId', 'type', 'role', 'name', 'kind', 'parentCallId', 'rootCallId', 'subCallId', 'stream', 'status', 'card', 'shape']);

const token = (index: number) => `~~HOSTILE${index}~~`;
const tokenPattern = /~~HOSTILE(\d+)~~/g;

/** Replaces string leaves not under a structural key with `replace(index)`. */
function replaceLeaves(value: unknown, replace: () => string, key?: string): unknown {
	if (typeof value === 'string') {
		return key !== undefined && structural.has(key) ? value : replace();
	}

	if (Array.isArray(value)) {
		return value.map(item => replaceLeaves(item, replace));
	}

	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, replaceLeaves(item, replace, name)]));
	}

	return value;
}

/** Bytes inside a JSON string literal: what JSON forbids raw is `\u`-escaped, everything else (0x80–0xFF too) stays raw. */
function jsonStringBytes(bytes: Uint8Array): Buffer {
	const parts: Buffer[] = [];
	for (const byte of bytes) {
		if (byte < 0x20 || byte === 0x22 || byte === 0x5c) {
			parts.push(Buffer.from(`\\u${byte.toString(16).padStart(4, '0')}`));
		} else {
			parts.push(Buffer.from([byte]));
		}
	}

	return Buffer.concat(parts);
}

/**
The log: the header, then every event with its data's string leaves replaced round-robin by `pool`
(raw bytes), and its tool-call argument strings' leaves by the same bytes decoded as text.
*/
export function hostileLogBytes(header: SessionHeader, events: readonly SessionEvent[], pool: readonly Uint8Array[]): Buffer {
	let next = 0;
	const pick = () => next++ % Math.max(1, pool.length);
	const decoder = new TextDecoder();
	const lines: Buffer[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
	for (const event of events) {
		let data = replaceLeaves(event.data, () => token(pick())) as Record<string, unknown>;
		if (event.type === 'tool/call' && typeof (event.data as {arguments?: unknown}).arguments === 'string') {
			const raw = (event.data as {arguments: string}).arguments;
			let args: unknown;
			try {
				args = JSON.parse(raw);
			} catch {
				args = raw;
			}

			const hostileArgs = replaceLeaves(args, () => (pool.length === 0 ? '' : decoder.decode(pool[pick()])));
			data = {...data, arguments: JSON.stringify(hostileArgs) ?? ''};
		}

		const line = JSON.stringify({...event, data});
		const pieces: Buffer[] = [];
		let last = 0;
		for (const match of line.matchAll(tokenPattern)) {
			pieces.push(Buffer.from(line.slice(last, match.index)), jsonStringBytes(pool[Number(match[1])] ?? new Uint8Array()));
			last = match.index + match[0].length;
		}

		pieces.push(Buffer.from(`${line.slice(last)}\n`));
		lines.push(Buffer.concat(pieces));
	}

	return Buffer.concat(lines);
}
