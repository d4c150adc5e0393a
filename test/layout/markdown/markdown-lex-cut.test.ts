import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {lexCut, MARKDOWN_LEX_CHARS, MARKDOWN_LEX_DELIMITERS} from '../../../src/layout/markdown/markdown-lex.js';

/** The bound walked a character at a time: where the delimiter past the bound, or the character bound, falls. */
function reference(text: string): number {
	let delimiters = 0;
	const limit = Math.min(text.length, MARKDOWN_LEX_CHARS);
	let index = 0;
	for (; index < limit; index++) {
		if ('*_~[]<>`'.includes(text[index]!) && ++delimiters > MARKDOWN_LEX_DELIMITERS) {
			break;
		}
	}

	if (index >= text.length) {
		return text.length;
	}

	const lineBreak = text.lastIndexOf('\n', index - 1);
	if (lineBreak > 0) {
		return lineBreak;
	}

	const code = text.charCodeAt(index - 1);
	return code >= 0xd8_00 && code <= 0xdb_ff ? index - 1 : index;
}

describe('lexCut', () => {
	test('it cuts where a walk over every character cuts, around both bounds', () => {
		const piece = fc.constantFrom('a', 'word ', '*', '_', '`', '[', '>', '\n', '😀', 'x'.repeat(600), '*'.repeat(300), 'a_'.repeat(200));
		fc.assert(fc.property(fc.array(piece, {maxLength: 40}).map(parts => parts.join('')), text => {
			expect(lexCut(text)).toBe(reference(text));
		}), {numRuns: 2000});
	});
});
