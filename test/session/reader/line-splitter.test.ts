import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {LineSplitter, type SplitRecord} from '../../../src/session/reader/line-splitter.js';

/** The lines of `bytes` as a plain split at newline bytes: each decoded alone, with its line number, byte offset and length. */
function reference(bytes: Buffer): Array<{line: number; offset: number; length: number; text: string}> {
	const lines = [];
	let start = 0;
	for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
		lines.push({line: lines.length + 1, offset: start, length: newline - start, text: bytes.toString('utf8', start, newline)});
		start = newline + 1;
	}

	return lines;
}

/** The records of `bytes` pushed in pieces cut at `cuts`. */
function split(bytes: Buffer, cuts: readonly number[], maxLineBytes?: number): SplitRecord[] {
	const splitter = new LineSplitter(maxLineBytes === undefined ? {} : {maxLineBytes});
	const records: SplitRecord[] = [];
	let from = 0;
	for (const cut of [...cuts].sort((a, b) => a - b)) {
		records.push(...splitter.push(bytes.subarray(from, Math.max(from, cut))));
		from = Math.max(from, cut);
	}

	records.push(...splitter.push(bytes.subarray(from)));
	return records;
}

describe('LineSplitter', () => {
	it('gives each line as a decode of its own bytes would, however the input is cut: multi-byte characters, invalid UTF-8, empty lines', () => {
		// Bytes of ASCII, newlines, the lead and continuation bytes of 2–4 byte sequences, and bytes no UTF-8 holds.
		const byte = fc.constantFrom(0x61, 0x20, 0x0a, 0x0a, 0xc3, 0xa9, 0xe6, 0xbc, 0xa2, 0xf0, 0x9f, 0x99, 0x82, 0x80, 0xff, 0xfe);
		fc.assert(fc.property(fc.array(byte, {maxLength: 200}), fc.array(fc.nat(200), {maxLength: 6}), (values, cuts) => {
			const bytes = Buffer.from(values);
			const records = split(bytes, cuts);
			expect(records.map(record => (record.kind === 'line' ? {line: record.line, offset: record.offset, length: record.length, text: record.text} : record))).toEqual(reference(bytes));
		}), {numRuns: 2000});
	});

	it('reports a line past the bound as overlong and keeps the lines after it, however the input is cut', () => {
		const byte = fc.constantFrom(0x61, 0x0a, 0x0a, 0xc3, 0xa9, 0xe6, 0xbc, 0xa2, 0xff);
		fc.assert(fc.property(fc.array(byte, {maxLength: 120}), fc.array(fc.nat(120), {maxLength: 6}), (values, cuts) => {
			const bytes = Buffer.from(values);
			const lines = reference(bytes);
			const expected: unknown[] = lines.map(line => (line.length > 8 ? {kind: 'overlong', line: line.line, offset: line.offset, limit: 8} : line));
			// An unfinished last line is reported the moment it passes the bound.
			const tailAt = bytes.lastIndexOf(10) + 1;
			if (bytes.length - tailAt > 8) {
				expected.push({kind: 'overlong', line: lines.length + 1, offset: tailAt, limit: 8});
			}

			const records = split(bytes, cuts, 8).map(record => (record.kind === 'line' ? {line: record.line, offset: record.offset, length: record.length, text: record.text} : record));
			expect(records).toEqual(expected);
		}), {numRuns: 2000});
	});
});
