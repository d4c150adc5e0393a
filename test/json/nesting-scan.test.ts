import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {scanJsonNesting} from '../../src/json/nesting-scan.js';
import {MAX_LOG_NESTING, parseLogJson} from '../../src/session/reader/log-json.js';

describe('scanJsonNesting', () => {
	it('counts depth and containers outside strings only', () => {
		expect(scanJsonNesting('[[[]]]', 3, 10)).toBeUndefined();
		expect(scanJsonNesting('[[[[]]]]', 3, 10)).toEqual({kind: 'depth', limit: 3});
		expect(scanJsonNesting('[[],[],[]]', 3, 3)).toEqual({kind: 'containers', limit: 3});
		// Brackets inside strings, escaped quotes and backslashes do not count.
		expect(scanJsonNesting(JSON.stringify({a: '[[[[[[', b: 'say \\"[[[[\\" \\\\', c: ['\\', '"[{']}), 2, 10)).toBeUndefined();
		expect(scanJsonNesting('{"a":"\\\\"}[[[', 2, 10)).toEqual({kind: 'depth', limit: 2});
		// Invalid JSON is scanned too: an unclosed string hides what follows it.
		expect(scanJsonNesting('"[[[[[[', 1, 1)).toBeUndefined();
	});

	it('agrees with JSON.parse on the depth of arbitrary values', () => {
		const depthOf = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);
		const samples: unknown[] = [{a: [1, {b: '[{"'}]}, [[['x']]], 'plain', {k: {k: {k: {}}}}, [[], [[]], [[[]]]]];
		for (const value of samples) {
			const text = JSON.stringify(value);
			const depth = depthOf(value);
			expect([text, scanJsonNesting(text, depth, 100)]).toEqual([text, undefined]);
			if (depth > 0) {
				expect([text, scanJsonNesting(text, depth - 1, 100)?.kind]).toEqual([text, 'depth']);
			}
		}
	});
});

describe('scanJsonNesting against a plain walk', () => {
	/** The rule spelled out: brackets outside strings, depth and count, the first bound passed. */
	const reference = (text: string, maxDepth: number, maxContainers: number): string | undefined => {
		let depth = 0;
		let containers = 0;
		let inString = false;
		for (let at = 0; at < text.length; at++) {
			const char = text[at];
			if (inString) {
				if (char === '\\') {
					at++;
				} else if (char === '"') {
					inString = false;
				}
			} else if (char === '"') {
				inString = true;
			} else if (char === '[' || char === '{') {
				depth++;
				containers++;
				if (depth > maxDepth) {
					return 'depth';
				}

				if (containers > maxContainers) {
					return 'containers';
				}
			} else if ((char === ']' || char === '}') && depth > 0) {
				depth--;
			}
		}

		return undefined;
	};

	it('finds the same excess for any text of brackets, quotes and backslashes, whether or not brackets are few', () => {
		fc.assert(fc.property(fc.string({unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a'), maxLength: 60}), fc.nat(8), fc.nat(12), (text, maxDepth, maxContainers) => {
			expect(scanJsonNesting(text, maxDepth, maxContainers)?.kind).toBe(reference(text, maxDepth, maxContainers));
		}), {numRuns: 2000});
	});
});

describe('parseLogJson', () => {
	it(`parses ${MAX_LOG_NESTING} levels and refuses one more before parsing`, () => {
		const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
		expect(parseLogJson(nested(MAX_LOG_NESTING)).ok).toBe(true);
		expect(parseLogJson(nested(MAX_LOG_NESTING + 1))).toEqual({ok: false, problem: `nested deeper than ${MAX_LOG_NESTING}`});
		expect(parseLogJson('{nope')).toEqual({ok: false, problem: 'not valid JSON'});
	});
});
