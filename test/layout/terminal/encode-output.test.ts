import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {encodeOutput, joinOutput, jsonLine, JsonLines, OutputBatch, type TerminalOutput} from '../../../src/layout/terminal/terminal-sink.js';

const parts = (texts: readonly string[]): TerminalOutput[] => texts as TerminalOutput[];

describe('encodeOutput', () => {
	it('gives the UTF-8 bytes of the joined parts: ASCII, CJK, emoji beyond the BMP, an empty batch', () => {
		const batch = parts(['{"a":1}\n', '表示幅\n', '🙂 done\n', '', 'é']);
		expect(Buffer.from(encodeOutput(batch)).toString('utf8')).toBe('{"a":1}\n表示幅\n🙂 done\né');
		expect(encodeOutput(parts([])).length).toBe(0);
	});

	it('agrees byte for byte with encoding the joined string, for any parts (lone surrogates included)', () => {
		fc.assert(fc.property(fc.array(fc.string({unit: 'binary'}), {maxLength: 20}), texts => {
			const batch = parts(texts);
			expect(Buffer.compare(Buffer.from(encodeOutput(batch)), Buffer.from(joinOutput(batch), 'utf8'))).toBe(0);
		}), {numRuns: 300});
	});
});

describe('OutputBatch', () => {
	it('holds the UTF-8 bytes of the parts added since the last take, for any parts (lone surrogates included)', () => {
		const batch = new OutputBatch();
		fc.assert(fc.property(fc.array(fc.string({unit: 'binary'}), {maxLength: 20}), texts => {
			for (const text of texts) {
				batch.add(text as TerminalOutput);
			}

			const expected = Buffer.from(joinOutput(parts(texts)), 'utf8');
			expect(batch.bytes).toBe(expected.length);
			expect(Buffer.compare(Buffer.from(batch.take()), expected)).toBe(0);
			expect(batch.bytes).toBe(0);
		}), {numRuns: 300});
	});

	it('grows past its first buffer: parts of MBs, short and counted (beyond 64 Ki units), ASCII and not', () => {
		const texts = ['a'.repeat(1 << 20), '漢'.repeat(70_000), 'é🙂'.repeat(300_000), 'end\n'];
		const batch = new OutputBatch();
		for (const text of texts) {
			batch.add(text as TerminalOutput);
		}

		expect(Buffer.from(batch.take()).toString('utf8')).toBe(texts.join(''));
		expect(batch.take().length).toBe(0);
	});
});

describe('JsonLines', () => {
	/** What the batch must equal: each value's `jsonLine`, joined. */
	const oneByOne = (values: readonly unknown[]): string => values.map(value => jsonLine(value)).join('');

	it('writes printable ASCII lines as JSON.stringify gives them, and empties on take', () => {
		const lines = new JsonLines();
		lines.add({entry: 'user', text: 'ls -la'});
		lines.add([1, 'two', null]);
		expect(lines.units).toBe('{"entry":"user","text":"ls -la"}\n[1,"two",null]\n'.length);
		expect(Buffer.from(lines.take()).toString('utf8')).toBe('{"entry":"user","text":"ls -la"}\n[1,"two",null]\n');
		expect(lines.units).toBe(0);
		expect(lines.take().length).toBe(0);
	});

	it('escapes what the rule escapes when a line of the batch needs it: DEL, ESC, C1, bidi controls, lone surrogates', () => {
		const values = [{text: 'plain'}, {text: 'del \u007F here'}, {text: 'esc \u001B[31m red'}, {text: 'c1 \u009B2J'}, {text: 'bidi \u202E txet'}, {text: 'lone \uD800'}, {text: 'café 漢字 🙂'}];
		const lines = new JsonLines();
		for (const value of values) {
			lines.add(value);
		}

		const written = Buffer.from(lines.take()).toString('utf8');
		expect(written).toBe(oneByOne(values));
		expect(written).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202E]/);
		expect(written.split('\n').slice(0, -1).map(line => JSON.parse(line))).toEqual(values.map(value => JSON.parse(JSON.stringify(value))));
		// DEL is ASCII: a batch of ASCII alone is still checked for it.
		const ascii = new JsonLines();
		ascii.add({text: 'del \u007F only'});
		expect(Buffer.from(ascii.take()).toString('utf8')).toBe(String.raw`{"text":"del \u007f only"}` + '\n');
	});

	it('makes room when escapes make lines longer than the batch was sized for', () => {
		// A C1 control is one unit (two bytes) and six once escaped: twice the three bytes a unit allowed.
		// Past 64 Ki units a line's room is counted rather than bounded: one such line, escaped and not.
		const values = [{text: '\u009B'.repeat(5000)}, {text: 'after'}, {text: '\u202E'.repeat(3000)}, {text: `${'é'.repeat(70_000)}\u009B`}, {text: '漢'.repeat(70_000)}, {text: 'end'}];
		const lines = new JsonLines();
		for (const value of values) {
			lines.add(value);
		}

		expect(Buffer.from(lines.take()).toString('utf8')).toBe(oneByOne(values));
	});

	it('agrees byte for byte with one jsonLine per value, for any strings', () => {
		fc.assert(fc.property(fc.array(fc.string({unit: 'binary'}), {maxLength: 12}), texts => {
			const lines = new JsonLines();
			for (const text of texts) {
				lines.add({text});
			}

			expect(Buffer.from(lines.take()).toString('utf8')).toBe(oneByOne(texts.map(text => ({text}))));
		}), {numRuns: 300});
	});
});
