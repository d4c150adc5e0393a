import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {compileLinearRegex, PatternSyntaxError, programSizeBound} from '../../src/regex/linear-regex.js';
import {fuzzCases, fuzzSeed} from '../reliability/hostile-text.js';

const compile = (pattern: string) => compileLinearRegex(pattern, 20_000);
/** The compiled program's size: the work bound of scanning the empty string. */
const programSize = (pattern: string) => compile(pattern).testWork('');
const ranges = (pattern: string, text: string) => compile(pattern).scan(text, {maxMatches: 100, maxWork: Number.POSITIVE_INFINITY}).ranges;

describe('linear regex: matching', () => {
	it.each([
		['^x|(a+)+$', `${'a'.repeat(5000)}!`, false],
		['^x|(a+)+$', 'a'.repeat(5000), true],
		['(a|aa)+$', `${'a'.repeat(5000)}!`, false],
		['(x+x+)+y', 'x'.repeat(5000), false],
		['(.*a){12}', 'b'.repeat(5000), false],
		['(\\w+\\s?)+$', `${'word '.repeat(1000)}!`, false],
	])('runs the backtracking-catastrophic %s in one pass over the line', (pattern, line, expected) => {
		const regex = compile(pattern);
		expect(regex.test(line)).toBe(expected);
		const scan = regex.scan(line, {maxMatches: 1, maxWork: Number.POSITIVE_INFINITY});
		expect(scan.ranges.length).toBe(expected ? 1 : 0);
		// One search, charged once for the whole line (a backtracking engine would never finish these lines).
		expect(scan.work).toBe(regex.testWork(line));
	});

	it('speaks ripgrep\'s dialect where JavaScript\'s RegExp does not', () => {
		const cases: Array<[string, string, boolean]> = [
			['a.b', 'a\rb', true],
			['a.b', 'a\u2028b', true],
			['\\pL+', 'é', true],
			['\\p{Greek}', 'α', true],
			['[[:alpha:]]', '1a', true],
			['\\Afoo', 'foo', true],
			['foo\\z', 'foo', true],
			['a(?i)B', 'ab', true],
			['(?i:A)b', 'aB', false],
			['(?P<name>x)', 'x', true],
			['\\x{41}', 'A', true],
			['\\u0041', 'A', true],
			['\\u{1F600}', '😀', true],
			['\\U0001F600', '😀', true],
			['\\\\u0041', '\\u0041', true],
			['[]a]', ']', true],
			['(?i)straße', 'STRASSE', false],
			['(?i)é', 'É', true],
		];
		expect(cases.map(([pattern, text]) => compile(pattern).test(text))).toEqual(cases.map(([, , expected]) => expected));
	});

	it('gives non-empty match ranges in UTF-16 offsets, leftmost first', () => {
		expect(ranges('b', '😀b😀b')).toEqual([[2, 3], [5, 6]]);
		expect(ranges('x*', 'axxbx')).toEqual([[1, 3], [4, 5]]);
		expect(ranges('', 'abc')).toEqual([]);
		expect(compile('a').scan('aaaa', {maxMatches: 2, maxWork: Number.POSITIVE_INFINITY}).ranges).toEqual([[0, 1], [1, 2]]);
	});

	it('charges each search the rest of the line and stops before the work limit', () => {
		// `.*z|a` rescans to the end of the line for every `a` it finds: quadratic, and charged so.
		const regex = compile('.*z|a');
		const line = 'a'.repeat(2000);
		const size = regex.testWork('');
		const all = regex.scan(line, {maxMatches: 5000, maxWork: Number.POSITIVE_INFINITY});
		expect(all.ranges.length).toBe(2000);
		expect(all.work).toBe(size * Array.from({length: 2001}, (_, index) => 2001 - index).reduce((sum, rest) => sum + rest, 0));
		const limited = regex.scan(line, {maxMatches: 5000, maxWork: size * (2001 + 2000)});
		expect(limited).toEqual({ranges: [[0, 1], [1, 2]], work: size * (2001 + 2000)});
		expect(regex.scan(line, {maxMatches: 5000, maxWork: size * 2000})).toEqual({ranges: [], work: 0});
	});
});

describe('linear regex: what it refuses', () => {
	const refusal = (pattern: string, max = 20_000) => {
		try {
			compileLinearRegex(pattern, max);
		} catch (error) {
			expect(error).toBeInstanceOf(PatternSyntaxError);
			return (error as Error).message;
		}

		throw new Error(`${pattern} compiled`);
	};

	it('names look-around, backreferences, unsupported flags and plain syntax errors', () => {
		expect(refusal('a(?=b)')).toBe('uses look-around `(?=`, which ripgrep\'s dialect does not support');
		expect(refusal('(?<!a)b')).toBe('uses look-around `(?<!`, which ripgrep\'s dialect does not support');
		expect(refusal('(a)\\1')).toBe('uses a backreference `\\1`, which ripgrep\'s dialect does not support');
		expect(refusal('(?ix)a b')).toBe('uses the inline flag "x", which the built-in engine does not support');
		expect(refusal('a(?-u)b')).toBe('uses the inline flag "u", which the built-in engine does not support');
		expect(refusal('(unclosed')).toBe('is not a valid regular expression: missing closing ): `(unclosed`');
		expect(refusal('a{1001}')).toBe('is not a valid regular expression: invalid repeat count: `{1001}`');
		expect(refusal(`${'('.repeat(5000)}a${')'.repeat(5000)}`)).toBe('is not a valid regular expression: expression nests too deeply');
	});

	it('refuses a pattern whose counted repetitions expand it past the limit before compiling it', () => {
		expect(programSizeBound('(?:\\pL{30}){30}')).toBeGreaterThan(900);
		expect(refusal('(?:\\pL{30}){30}', 500)).toMatch(/^is too large: it compiles to about \d+ instructions, more than the 500 allowed$/);
		expect(programSize('(?:\\pL{30}){30}')).toBeLessThanOrEqual(programSizeBound('(?:\\pL{30}){30}'));
	});

	it('bounds the compiled size from above for any pattern RE2 takes', () => {
		const token = fc.constantFrom('a', 'b', '.', '\\d', '\\pL', '\\x{41}', '[a-z]', '[^]x]', '[[:alpha:]]', '(', ')', '(?:', '(?i)', '|', '*', '+', '?', '{2}', '{1,3}', '{4,}', '{0,}', '{0}', '^', '$');
		fc.assert(fc.property(fc.array(token, {maxLength: 16}), (tokens) => {
			const pattern = tokens.join('');
			let size: number;
			try {
				size = programSize(pattern);
			} catch (error) {
				expect(error).toBeInstanceOf(PatternSyntaxError);
				return;
			}

			expect(size).toBeLessThanOrEqual(programSizeBound(pattern));
		}), {numRuns: fuzzCases(500), seed: fuzzSeed()});
	});
});
