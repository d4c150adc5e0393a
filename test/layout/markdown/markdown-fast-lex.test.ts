import fc from 'fast-check';
import {Lexer, type Token} from 'marked';
import {describe, expect, test} from 'vitest';
import {fastLex} from '../../../src/layout/markdown/markdown-fast-lex.js';
import {clampNesting} from '../../../src/layout/markdown/markdown-lex.js';

/** What lexBlock gets from marked for one block within the bounds. */
function markedTokens(text: string): Token[] {
	// A copy without the array's `links` property: only the tokens are compared.
	return [...new Lexer().lex(clampNesting(text))];
}

/** Fragments near every edge of the fast shapes: prose, delimiters, line starts, autolinks, breaks. */
const fragment = fc.constantFrom(
	'word', 'Word', 'a', 'B', '7', ' ', ' ', '  ', '\n', '\n- ', '- ', '-', '* ', '+ ', '1. ', '1) ', '# ', '> ', '    ', '\t',
	'**', '*', '_', '__', '~', '~~', '`', '``', '[', ']', '(', ')', '!', '<', '>', '&amp;', '&', '@', '|', '\\',
	'.', ',', ';', ':', '?', '—', 'é', '漢', 'http://x.y', 'https:', 'www.x', 'mailto:', '===', '---', '\r', '\u00A0', '\u0085', '\u2028', '\u200B', '\uFEFF', '\u001B', '❤️', '```',
	'src/a-b.ts', 'x_y', '**bold**', '`code`', ' `a b` ', ' **two words** ',
);

/** Fragments after a line start the fast shapes allow (a letter, or `- ` and a letter), so many samples reach the inline rules. */
const text = fc.tuple(fc.constantFrom('', 'Word ', '- Word ', 'a'), fc.array(fragment, {maxLength: 24})).map(([start, parts]) => start + parts.join(''));

/** What comes between two words: mostly what the fast path takes, now and then what it must not. */
const joint = fc.oneof(
	{arbitrary: fc.constantFrom(' ', ' ', ' in `src/a_b.ts` ', ' — **bold** ', ' **A1 b**, ', ', ', '.\n', ' `x*y` ', ' `a`. '), weight: 12},
	{arbitrary: fc.constantFrom(' word**', ' *em* ', ' http://a.b ', '  \n', '\n\n', ' &amp; '), weight: 1},
);

/** Texts of the shapes the fast path takes, with syntax dropped in now and then. */
const prose = fc.tuple(
	fc.array(fc.tuple(fc.constantFrom('Alpha', 'beta', 'Gamma', 'delta', 'x'), joint), {minLength: 1, maxLength: 10}),
	fc.boolean(),
).map(([words, list]) => {
	const body = words.map(([word, joint]) => `${word}${joint}`).join('').trimEnd();
	return list ? body.split('\n').map(line => `- ${line.trimStart()}`).join('\n') : body;
});

const samples = () => fc.oneof({arbitrary: text, weight: 1}, {arbitrary: prose, weight: 2});

describe('fastLex', () => {
	test('the samples below reach the fast path often enough to prove something', () => {
		const drawn = fc.sample(samples(), {numRuns: 2000, seed: 1});
		const taken = drawn.filter(sample => fastLex(sample) !== undefined).length;
		expect(taken).toBeGreaterThan(drawn.length / 5);
	});

	test('the tokens it gives are exactly marked\'s, and lexBlock\'s nesting clamp leaves such a text alone', () => {
		fc.assert(fc.property(samples(), sample => {
			const fast = fastLex(sample);
			if (fast !== undefined) {
				expect(clampNesting(sample)).toBe(sample);
				expect(fast).toStrictEqual(markedTokens(sample));
			}
		}), {numRuns: 20_000});
	});

	test('it takes the commonest shapes of a model\'s prose: sentences with code spans and bold words, a tight list', () => {
		const samples = [
			'Registry token config cache theme registry cursor.',
			'Value index card in `src/layout/search-stream.txt` — **event** worker.\nSecond line of the same paragraph.',
			'- first item\n- second with `code` in it\n- third',
			'Config **A1 b**, then more text.',
		];
		for (const sample of samples) {
			const fast = fastLex(sample);
			expect(fast).toBeDefined();
			expect(fast).toStrictEqual(markedTokens(sample));
		}
	});

	test('anything else is left to marked', () => {
		for (const sample of ['# Heading', 'a *em* b', 'a __b__ c', 'see [x](y)', 'a  \nb', 'x\n- y', 'see http://a.b', 'a & b', '1. one', '- a\n-b', 'a\\*b', 'Title\n===', 'a **b** c**', 'x `a` `` y', '- a\n\n- b', '']) {
			expect(fastLex(sample)).toBeUndefined();
		}
	});
});
