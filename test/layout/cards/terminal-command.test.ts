import {describe, expect, it} from 'vitest';
import {layoutTerminalBody} from '../../../src/layout/cards/terminal-card.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {colorTheme} from '../../../src/layout/text/theme.js';

describe('terminal card command rows', () => {
	it('keeps the lines of a multi-line command and shows hidden characters in each escaped', () => {
		const body = layoutTerminalBody({call: {card: 'terminal', title: 'cat re\u200Bport.txt\nrm \u202Eevil'}}, {width: 80, theme: colorTheme, expansion: 'full'});
		expect(body.lines.map(line => lineText(line))).toEqual(['$ cat re\\u200bport.txt', 'rm \\u202eevil']);
	});
});
