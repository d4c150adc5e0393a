import {describe, expect, it} from 'vitest';
import {argumentSummary} from '../../../src/layout/cards/argument-summary.js';

describe('argumentSummary', () => {
	it('puts the most telling string fields first, then other strings, then scalars', () => {
		expect(argumentSummary({timeout: 30, label: 'x', prompt: 'Find the bug', sessionId: 's-1'})).toBe('prompt Find the bug · sessionId s-1 · label x · timeout 30');
	});

	it('keeps four fields, flattens whitespace, cuts long values and skips objects', () => {
		const summary = argumentSummary({code: `const a = 1;\n\treturn a;${'x'.repeat(200)}`, a: 'a', b: 'b', c: 'c', d: 'd', nested: {deep: true}});
		expect(summary.startsWith('code const a = 1; return a;xxx')).toBe(true);
		expect(summary).toContain('…');
		expect(summary.split(' · ')).toHaveLength(4);
		expect(argumentSummary({nested: {deep: true}, list: [1, 2]})).toBe('');
		expect(argumentSummary({queries: ['vitest', 'ink']})).toBe('queries vitest, ink');
	});

	it('escapes control and invisible characters from the log', () => {
		expect(argumentSummary({text: 'a\u001B]0;title\u0007b\u200Bc'})).toBe('text a\\x1b]0;title\\x07b\\u200bc');
		expect(argumentSummary('raw string')).toBe('raw string');
		expect(argumentSummary(undefined)).toBe('');
	});
});
