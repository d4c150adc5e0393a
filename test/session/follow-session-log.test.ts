import {spawn} from 'node:child_process';
import {appendFileSync, readFileSync, truncateSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {followSessionLog} from '../../src/session/follow-session-log.js';
import type {SessionEvent, SessionHeader} from '../../src/session/events.js';
import {SessionLogError, type LogDiagnostic} from '../../src/session/log-errors.js';
import {fixture, readAll, useTempDir, writeTemp} from './helpers.js';

const header: SessionHeader = {type: 'session', version: 0, id: 's-f', createdAt: 1790000000000};
const turnLine = (seq: number) => `${JSON.stringify({type: 'turn/start', seq, time: 1000 + seq, data: {turn: seq + 1}})}\n`;

let dir: string;
useTempDir((created) => {
	dir = created;
});

/** Follows `path` until an event with seq `lastSeq` arrives, calling `onEvent` for each; then aborts. */
async function followUntil(path: string, lastSeq: number, onEvent: (event: SessionEvent) => void = () => undefined): Promise<{events: SessionEvent[]; diagnostics: LogDiagnostic[]; header: SessionHeader | undefined}> {
	const controller = new AbortController();
	const events: SessionEvent[] = [];
	const diagnostics: LogDiagnostic[] = [];
	let seenHeader: SessionHeader | undefined;
	for await (const event of followSessionLog(path, {signal: controller.signal, onDiagnostic: d => diagnostics.push(d), onHeader: value => {
		seenHeader = value;
	}})) {
		events.push(event);
		onEvent(event);
		if (event.seq === lastSeq) {
			controller.abort();
		}
	}

	return {events, diagnostics, header: seenHeader};
}

describe('followSessionLog', () => {
	it('yields existing events, then lines a child process appends at 1 000 a second, torn writes included', async () => {
		const path = writeTemp(dir, 'session.jsonl', `${JSON.stringify(header)}\n${turnLine(0)}${turnLine(1)}`);
		const total = 1000;
		const script = writeTemp(dir, 'append.mjs', `
import {appendFileSync} from 'node:fs';
const line = seq => JSON.stringify({type: 'turn/start', seq, time: 1000 + seq, data: {turn: seq + 1}}) + '\\n';
let text = '';
for (let seq = 2; seq < ${total}; seq += 1) text += line(seq);
// 20 bursts of ~50 lines every 50 ms, each cut in the middle of a line.
const size = Math.ceil(text.length / 20);
let at = 0;
const timer = setInterval(() => {
	appendFileSync(process.argv[2], text.slice(at, at + size));
	at += size;
	if (at >= text.length) clearInterval(timer);
}, 50);
`);
		let child: ReturnType<typeof spawn> | undefined;
		const result = await followUntil(path, total - 1, event => {
			if (event.seq === 1) {
				child = spawn(process.execPath, [script, path], {stdio: 'inherit'});
			}
		});
		expect(child).toBeDefined();
		expect(result.header).toEqual(header);
		expect(result.diagnostics).toEqual([]);
		expect(result.events.map(event => event.seq)).toEqual(Array.from({length: total}, (_, seq) => seq));
		expect(result.events[total - 1]).toEqual({type: 'turn/start', seq: total - 1, time: 1000 + total - 1, data: {turn: total}});
	});

	it('waits for the header of an empty file and holds a torn tail back until its newline arrives', async () => {
		const path = writeTemp(dir, 'session.jsonl', '');
		const steps = [
			() => {
				appendFileSync(path, `${JSON.stringify(header)}\n${turnLine(0)}`);
			},
			() => {
				appendFileSync(path, turnLine(1).slice(0, 10));
				// The follower can only yield seq 2 after the first half of seq 1 got its other half.
				setTimeout(() => {
					appendFileSync(path, `${turnLine(1).slice(10)}${turnLine(2)}`);
				}, 20);
			},
		];
		const timer = setTimeout(steps[0], 10);
		const result = await followUntil(path, 2, event => {
			if (event.seq === 0) {
				steps[1]();
			}
		});
		clearTimeout(timer);
		expect(result.diagnostics).toEqual([]);
		expect(result.events.map(event => event.seq)).toEqual([0, 1, 2]);
	});

	it('follows a zstd log as its frames arrive, even when a frame arrives in pieces', async () => {
		const bytes = readFileSync(fixture('basic.jsonl.zst'));
		const path = writeTemp(dir, 'session.jsonl.zst', bytes.subarray(0, 40));
		let at = 40;
		const feed = () => {
			if (at < bytes.length) {
				appendFileSync(path, bytes.subarray(at, at + 97));
				at += 97;
				setTimeout(feed, 5);
			}
		};

		setTimeout(feed, 5);
		const result = await followUntil(path, 14);
		expect(result.diagnostics).toEqual([]);
		expect(result.events).toEqual((await readAll(fixture('basic.jsonl'))).events);
	});

	it('drops held-back bytes that a writer truncated while repairing a torn tail', async () => {
		const path = writeTemp(dir, 'session.jsonl', `${JSON.stringify(header)}\n${turnLine(0)}{"garbage":tr`);
		const result = await followUntil(path, 1, event => {
			if (event.seq === 0) {
				setTimeout(() => {
					truncateSync(path, Buffer.byteLength(`${JSON.stringify(header)}\n${turnLine(0)}`));
					appendFileSync(path, turnLine(1));
				}, 10);
			}
		});
		expect(result.events.map(event => event.seq)).toEqual([0, 1]);
		expect(result.diagnostics).toEqual([]);
	});

	it('throws a SessionLogError for a bad header', async () => {
		const path = writeTemp(dir, 'session.jsonl', '{"type":"session","version":7,"id":"x","createdAt":1}\n');
		const error = await followSessionLog(path).next().then(() => undefined, (thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionLogError);
		expect((error as Error).message).toBe(`${path}:1: session log version 7 is newer than this cardterm supports (version 0); upgrade cardterm to read it`);
	});

	it('follows the log inside a session folder', async () => {
		writeTemp(dir, 'session.jsonl', `${JSON.stringify(header)}\n${turnLine(0)}`);
		expect((await followUntil(dir, 0)).events.map(event => event.seq)).toEqual([0]);
	});
});
