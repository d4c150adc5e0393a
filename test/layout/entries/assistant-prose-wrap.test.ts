/**
The model's answer and its reasoning are prose, and so are the person's messages: fully expanded,
each wraps between words (issue 12), and its rows joined give back each line's text.
*/
import {describe, expect, test} from 'vitest';
import {layoutEntry} from '../../../src/layout/entries/layout-entry.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {AssistantEntry, UserEntry} from '../../../src/presentation/entry.js';

function answer(text: string, reasoning: string): AssistantEntry {
	return {entry: 'assistant', seq: 1, time: 0, turn: 1, step: 1, text, reasoning, interrupted: false, streaming: false, preparing: [], revision: 0};
}

describe('layoutEntry of an assistant entry', () => {
	test('wraps expanded reasoning and the answer between words, rows ending with the space they broke at', () => {
		const rows = layoutEntry(answer('tick1z tick2z tick3z', 'think1 think2 think3'), {width: 14, theme: colorTheme, now: 0, expansion: 'full'});
		expect(rows.map(row => lineText(row))).toEqual(['think1 think2 ', 'think3', 'tick1z tick2z ', 'tick3z']);
		expect(rows.map(row => row.softWrap === true)).toEqual([false, true, false, true]);
		expect(rows[1]!.spans[0]!.style).toEqual(colorTheme.reasoning);
	});
});

describe('layoutEntry of a user entry', () => {
	test('wraps the message between words after its marker; a word wider than a row is cut where the row has room', () => {
		const message: UserEntry = {entry: 'user', seq: 1, time: 0, source: 'user', text: 'fix the config test now\nsrc/config.test.ts', revision: 0};
		const rows = layoutEntry(message, {width: 14, theme: colorTheme, now: 0, expansion: 'full'});
		expect(rows.map(row => lineText(row))).toEqual(['› fix the ', 'config test ', 'now', 'src/config.tes', 't.ts']);
		expect(rows.map(row => row.softWrap === true)).toEqual([false, true, true, false, true]);
	});
});
