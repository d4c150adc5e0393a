import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {encodeOutput, joinOutput, type TerminalOutput} from '../../src/layout/terminal-sink.js';

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
