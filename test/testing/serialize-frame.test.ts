import {describe, expect, it} from 'vitest';
import {serializeFrame} from '../../src/testing/serialize-frame.js';

describe('serializeFrame', () => {
	it('writes one JSON-quoted row per line followed by its style runs', () => {
		expect(serializeFrame([
			{spans: [{text: '●', style: {fg: 'green'}}, {text: ' '}, {text: 'bash', style: {bold: true}}, {text: ' npm test'}]},
		], '# terminal ok')).toBe('# terminal ok\n0| "● bash npm test"\n  style 0-0 fg=green\n  style 2-5 bold\n');
	});

	it('marks soft-wrapped rows with a tilde', () => {
		expect(serializeFrame([{spans: [{text: 'abc'}]}, {spans: [{text: 'de'}], softWrap: true}])).toBe('0| "abc"\n1~| "de"\n');
	});

	it('merges runs of identical style across spans and counts wide characters as two cells', () => {
		expect(serializeFrame([{spans: [{text: '日本', style: {dim: true}}, {text: 'x', style: {dim: true}}, {text: 'y', style: {fg: 'red', bold: true, dim: true, italic: true, underline: true, inverse: true, strikethrough: true}}]}]))
			.toBe('0| "日本xy"\n  style 0-4 dim\n  style 5-5 fg=red bold dim italic underline inverse strike\n');
	});

	it('keeps a run with a link apart from the same style without one', () => {
		expect(serializeFrame([{spans: [{text: 'ab', style: {underline: true}, link: 'https://a.example/'}, {text: 'c', style: {underline: true}}]}]))
			.toBe('0| "abc"\n  style 0-1 underline link=https://a.example/\n  style 2-2 underline\n');
	});

	it('compresses blank rows into ranges', () => {
		expect(serializeFrame([{spans: []}, {spans: [{text: 'a'}]}, {spans: []}, {spans: [{text: ''}]}, {spans: []}])).toBe('0| <blank>\n1| "a"\n2-4| <blank>\n');
	});

	it('shows escapes in text as JSON escapes', () => {
		expect(serializeFrame([{spans: [{text: 'a"b\\c'}]}])).toBe('0| "a\\"b\\\\c"\n');
	});
});
