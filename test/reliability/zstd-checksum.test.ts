/**
Promise 2, compressed logs (issue 11 item 7): a zstd frame whose content does not match its XXH64
checksum is a named damaged region, never silently altered text. Seeds: basic.jsonl.zst (made with
the zstd CLI, three frames with checksums) flipped at every bit; checksum-mismatch.jsonl.zst is that
file with one bit flipped (byte 571, "Let me look." becomes "Let me mook."), which `zstd -t` rejects.
The streaming reader, the log index and the pager's card index must report the same regions.
*/
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import {afterAll, describe, expect, it} from 'vitest';
import {openIndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {indexSessionLog} from '../../src/session/reader/log-index.js';
import type {LogDiagnostic} from '../../src/session/reader/log-errors.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {fixture} from '../session/helpers.js';
import {replay} from './replay-check.js';

const dir = mkdtempSync(join(tmpdir(), 'cardterm-zstd-sum-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

type Read = {readonly events: SessionEvent[]; readonly diagnostics: LogDiagnostic[]} | {readonly refused: string};

async function read(bytes: Buffer): Promise<Read> {
	const diagnostics: LogDiagnostic[] = [];
	try {
		const log = await openSessionLog(Readable.from([bytes]), {name: 'case.jsonl.zst', onDiagnostic: d => diagnostics.push(d)});
		const events: SessionEvent[] = [];
		for await (const event of log.events) {
			events.push(event);
		}

		return {events, diagnostics};
	} catch (error) {
		return {refused: (error as Error).message};
	}
}

const original = readFileSync(fixture('basic.jsonl.zst'));

describe('a zstd log with a damaged frame', () => {
	it('reads every event as written or names the damage, for a bit flipped in each byte of a zstd-made log', async () => {
		const clean = await read(original);
		expect('events' in clean && clean.diagnostics).toEqual([]);
		const bySeq = new Map(('events' in clean ? clean.events : []).map(event => [event.seq, JSON.stringify(event)]));
		let mismatches = 0;
		const breaches: string[] = [];
		for (let byte = 0; byte < original.length; byte++) {
			// One bit per byte, a different one from byte to byte (all 8 per byte take ~100 s on a busy machine).
			const bit = (byte * 3) % 8;
			const damaged = Buffer.from(original);
			damaged[byte] ^= 1 << bit;
			// eslint-disable-next-line no-await-in-loop -- one case at a time
			const result = await read(damaged);
			if ('refused' in result) {
				continue;
			}

			// No altered event: each one read is the one written with its seq; events left out are explained.
			const altered = result.events.filter(event => JSON.stringify(event) !== bySeq.get(event.seq)).length;
			const unexplained = result.events.length !== bySeq.size && result.diagnostics.length === 0;
			if (altered > 0 || unexplained) {
				breaches.push(`byte ${byte} bit ${bit}: ${altered} altered events${unexplained ? ', events missing without a diagnostic' : ''}`);
			}

			mismatches += result.diagnostics.some(d => d.reason.includes('checksum mismatch')) ? 1 : 0;
		}

		expect(breaches).toEqual([]);
		// Most flips land in literals, where only the checksum can tell.
		expect(mismatches).toBeGreaterThan(original.length / 2);
	}, 120_000);

	it('names the frame on stderr as FILE:LINE and replays the other frames (the committed fixture, which zstd -t rejects)', async () => {
		const path = fixture('checksum-mismatch.jsonl.zst');
		const zstd = spawnSync('zstd', ['-t', '-q', path], {encoding: 'utf8'});
		if (zstd.error === undefined) {
			// The zstd CLI is not needed, but where it is installed it agrees that the file is damaged.
			expect(zstd.status).not.toBe(0);
		}

		const outcome = await replay(path, '--json');
		expect(outcome.code).toBe(0);
		expect(outcome.out).not.toContain('mook');
		expect(outcome.err).toMatch(new RegExp(`^${path.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}:8: zstd frame 3: checksum mismatch \\(content hashes to 0x[0-9a-f]{8}, the frame says 0x[0-9a-f]{8}\\): its \\d+ bytes of text were dropped; reading goes on with the next frame\\n`));
		expect(outcome.err).toContain(`cardterm: 1 damaged line skipped in ${path}\n`);
	});

	it('is reported alike by the reader, the log index and the pager\'s card index', async () => {
		const path = join(dir, 'bad.jsonl.zst');
		writeFileSync(path, readFileSync(fixture('checksum-mismatch.jsonl.zst')));
		const reader: LogDiagnostic[] = [];
		const log = await openSessionLog(path, {onDiagnostic: d => reader.push(d)});
		for await (const _ of log.events) {
			// Drain.
		}

		const indexed: LogDiagnostic[] = [];
		const index = await indexSessionLog(path, {onDiagnostic: d => indexed.push(d)});
		await index.dispose();
		const paged: LogDiagnostic[] = [];
		const source = await openIndexedEntrySource(path, {presenters: header => referencePresenters(header.cwd ?? '/'), onDiagnostic: d => paged.push(d)});
		await source.ready;
		source.close();
		expect(reader.map(d => d.reason)).toEqual([expect.stringContaining('zstd frame 3: checksum mismatch')]);
		expect(indexed).toEqual(reader);
		expect(paged).toEqual(reader);
	});
});
