/**
Promise 2, compressed logs (issue 11 item 8): a decompression bomb — 320 KiB of zstd RLE blocks that
stand for 10 GiB — is refused once it expands past ZSTD_EXPANSION_ALLOWANCE + MAX_ZSTD_EXPANSION ×
its compressed bytes, and memory stays bounded while it is decoded: the decoder is cut at block
ends, so nothing holds more than a block of output beyond the line and window bounds. Before, it
took 45 s and 2.2 GB of RSS (outside the V8 heap, so a heap cap did not help).
The child-process case needs dist/ (npm run build; `npm test` builds it).
*/
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {logRecords, type LogRecord} from '../../src/session/reader/log-records.js';
import {MAX_WINDOW_PER_BYTE, MAX_ZSTD_EXPANSION, WINDOW_ALLOWANCE_BYTES, ZSTD_EXPANSION_ALLOWANCE, ZstdStreamDecoder} from '../../src/session/reader/zstd-decoder.js';
import {builtEntry} from '../app/e2e-helpers.js';
import {checkOutcome} from './replay-check.js';
import {emptyFrame, rawFrame, rleBombFrame, TEN_GIB_BLOCKS} from './zstd-frames.js';

/** RSS growth allowed over replaying a small log: the bounds add up to ~200 MB (line, window, frame). */
const RSS_GROWTH_LIMIT_MB = 512;

const dir = mkdtempSync(join(tmpdir(), 'cardterm-bomb-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const header = '{"type":"session","version":0,"id":"bomb","createdAt":1,"cwd":"/w"}\n';
/** A valid header frame, then 10 GiB of "x" in one frame: one endless line. */
const bomb = Buffer.concat([rawFrame(header), rleBombFrame(TEN_GIB_BLOCKS, 0x78)]);

async function * chunked(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
	for (let at = 0; at < bytes.length; at += size) {
		yield bytes.subarray(at, at + size);
	}
}

describe('a zstd decompression bomb', () => {
	it('is refused after at most the allowance plus 1024 bytes per compressed byte, a block at a time', () => {
		const decoder = new ZstdStreamDecoder();
		let decompressed = 0;
		let largest = 0;
		let pushed = 0;
		for (let at = 0; at < bomb.length && decoder.corrupt === undefined; at += 64 * 1024) {
			const chunk = bomb.subarray(at, at + 64 * 1024);
			pushed += chunk.length;
			for (const piece of decoder.push(chunk)) {
				if (piece instanceof Uint8Array) {
					decompressed += piece.length;
					largest = Math.max(largest, piece.length);
				}
			}
		}

		expect(decoder.corrupt).toMatch(/^zstd frame 2 expands past the limit of 67108864 bytes plus 1024 per compressed byte \(\d+ bytes from \d+\): refused as a decompression bomb$/);
		expect(decompressed).toBeLessThanOrEqual(ZSTD_EXPANSION_ALLOWANCE + MAX_ZSTD_EXPANSION * pushed);
		// Cut at block ends: no piece is more than a block (fzstd may join the few tiny blocks of a frame's first 18 bytes).
		expect(largest).toBeLessThanOrEqual(4 * 128 * 1024);
	});

	it('of empty frames that each ask for a 128 MiB window is refused after the window allowance, not decoded frame by frame', async () => {
		// fzstd allocates and zeroes each frame's window: 1 000 such frames (9 KB) took 11 s before.
		const frames = Buffer.concat([rawFrame(header), ...Array.from({length: 100_000}, () => emptyFrame(17))]);
		const records: LogRecord[] = [];
		for await (const record of logRecords(chunked(frames), {name: 'windows.jsonl.zst'})) {
			records.push(record);
		}

		expect(records.map(record => record.kind)).toEqual(['line', 'zstd-corrupt']);
		const refused = records[1] as {message: string};
		const frame = Number(/^zstd frame (\d+):/.exec(refused.message)?.[1]);
		expect(refused.message).toContain('refused as a decompression bomb');
		// The windows allocated (frames 2 to the refused one, which is not) stay within the allowance plus the per-byte share of the bytes read.
		const read = rawFrame(header).length + 9 * (frame - 1);
		expect((frame - 2) * 128 * 1024 * 1024).toBeLessThanOrEqual(WINDOW_ALLOWANCE_BYTES + MAX_WINDOW_PER_BYTE * read);
		expect(frame).toBeLessThan(20);
	});

	it('ends the records with one named line and the refusal', async () => {
		const records: LogRecord[] = [];
		for await (const record of logRecords(chunked(bomb), {name: 'bomb.jsonl.zst'})) {
			records.push(record);
		}

		expect(records.map(record => [record.kind, record.line])).toEqual([['line', 1], ['overlong', 2], ['zstd-corrupt', 2]]);
	});

	it(`is refused by replay in a child process whose RSS grows less than ${RSS_GROWTH_LIMIT_MB} MB`, context => {
		const bin = fileURLToPath(new URL('../../bin/cardterm', import.meta.url));
		if (!existsSync(builtEntry)) {
			context.skip('dist/ is not built (npm run build); the in-process cases above still ran');
		}

		// Peak RSS (KiB) of the child, written when it exits.
		const probe = join(dir, 'max-rss.cjs');
		writeFileSync(probe, 'process.on("exit", () => require("node:fs").writeFileSync(process.env.CARDTERM_RSS_FILE, String(process.resourceUsage().maxRSS)));\n');
		const run = (path: string) => {
			const rssFile = join(dir, 'rss.txt');
			const child = spawnSync(process.execPath, ['--require', probe, bin, 'replay', path, '--json'], {encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20, env: {...process.env, NO_COLOR: '1', CARDTERM_RSS_FILE: rssFile}});
			return {code: child.status ?? -1, out: child.stdout, err: child.stderr, signal: child.signal, rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024};
		};

		const small = join(dir, 'small.jsonl.zst');
		writeFileSync(small, rawFrame(header));
		const baseline = run(small);
		expect(baseline.code).toBe(0);
		const path = join(dir, 'bomb.jsonl.zst');
		writeFileSync(path, bomb);
		const result = run(path);
		expect(checkOutcome(result, path, '--json', `10 GiB bomb (signal ${String(result.signal)})`)).toBe('replayed');
		expect(result.err).toContain('refused as a decompression bomb');
		expect(result.rssMb - baseline.rssMb).toBeLessThan(RSS_GROWTH_LIMIT_MB);
		console.log(`bomb: peak RSS ${result.rssMb.toFixed(0)} MB, small log ${baseline.rssMb.toFixed(0)} MB`);
	}, 180_000);
});
