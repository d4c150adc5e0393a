import {describe, expect, it} from 'vitest';
import {blockPlaceholder, contentRows} from '../../src/layout/cards/body-text.js';
import {monochromeTheme} from '../../src/layout/text/theme.js';
import type {ContentBlock} from '../../src/tools/content.js';

describe('placeholders of non-text content blocks', () => {
	it('show an image name from the log with its escape sequences as visible text', () => {
		const block: ContentBlock = {type: 'image', attachment: {attachmentId: 'a1', mediaType: 'image/png', bytes: 3, width: 3, height: 4, name: '\u001B]0;pwned\u0007x\u202E.png'}};
		expect(blockPlaceholder(block)).toBe('[image \\x1b]0;pwned\\x07x\\u202e.png 3×4]');
	});

	it('show an unknown block type from the log with its escape sequences as visible text', () => {
		const rows = contentRows([{type: '\u001B[2J\u009B1A'} as unknown as ContentBlock], {}, {width: 80, theme: monochromeTheme, expansion: 'full'});
		expect(rows.map(row => row.spans.map(item => item.text))).toEqual([['[\\x1b[2J\\x9b1A]']]);
	});
});
