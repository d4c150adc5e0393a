/**
The person's message with `@` references (issue 31), from the logged `user/message` to rows: the
text is the person's own (the attached text is not shown), each reference a chip in it, and a row
per reference saying what was attached and how much, or what was not and why. What a log holds is
foreign: hostile tokens and reasons are sanitized, ill-formed facts left out.
*/
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {layoutEntry} from '../../../src/layout/entries/layout-entry.js';
import {entryToJson} from '../../../src/presentation/entry-json.js';
import type {UserEntry} from '../../../src/presentation/entry.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {options, texts} from '../helpers.js';

function userEntry(data: Record<string, unknown>): UserEntry {
	const fold = new SessionFold(referencePresenters('/work'));
	fold.apply({type: 'user/message', seq: 0, time: 0, data: {id: 'u-1', role: 'user', source: {kind: 'user'}, ...data}} as unknown as SessionEvent);
	const entry = fold.entries[0];
	expect(entry?.entry).toBe('user');
	return entry as UserEntry;
}

const logged = {
	content: [
		{type: 'text', text: 'explain @src/app.ts:40-80 and @gone.ts'},
		{type: 'text', text: '<path>/work/src/app.ts</path>\n<type>file</type>\n<content>\n40: ATTACHED-TEXT\n</content>', reference: 0},
	],
	references: [
		{token: 'src/app.ts:40-80', kind: 'file', attached: {lines: 41, bytes: 1640, tokens: 410, range: {start: 40, end: 80}}},
		{token: 'gone.ts', refused: 'not found'},
		{token: 'no-facts'},
		'not an object',
	],
};

describe('a message with references', () => {
	it('shows the person\'s text with chips, and a row per reference', () => {
		const entry = userEntry(logged);
		expect(entry.text).toBe('explain @src/app.ts:40-80 and @gone.ts');
		expect(entry.references).toHaveLength(2);
		const rows = layoutEntry(entry, options(80));
		expect(texts(rows)).toEqual([
			'› explain @src/app.ts:40-80 and @gone.ts',
			'  ⎿ @src/app.ts:40-80 lines 40-80 · 41 lines · 1.6 KB · ~410 tokens',
			'  ⎿ @gone.ts not attached: not found',
		]);
		const chips = rows[0]!.spans.filter(each => each.style === options(80).theme.link).map(each => each.text);
		expect(chips).toEqual(['@src/app.ts:40-80', '@gone.ts']);
		expect(JSON.stringify(entryToJson(entry))).toContain('"references":[{"token":"src/app.ts:40-80"');
	});

	it('a message without references is as before', () => {
		const entry = userEntry({content: [{type: 'text', text: 'mail me@example.com'}]});
		expect(entry.references).toBeUndefined();
		expect(texts(layoutEntry(entry, options(80)))).toEqual(['› mail me@example.com']);
	});

	it('escape sequences in a logged token or reason are shown, never acted on', () => {
		const entry = userEntry({content: [{type: 'text', text: 'x @\u001B[2Jevil'}], references: [{token: '\u001B[2Jevil', refused: 'gone\u001B]0;pwned\u0007'}]});
		const shown = texts(layoutEntry(entry, options(80))).join('\n');
		expect(shown).not.toContain('\u001B');
		expect(shown).not.toContain('\u0007');
	});
});
