/**
`cache: false` (print mode: each entry is drawn once): the same rows as a cached layout, and none of
the layout caches read or filled.
*/
import {beforeEach, describe, expect, it} from 'vitest';
import {clearLayoutCache, layoutCacheSize} from '../../../src/layout/cards/layout-card.js';
import {layoutEntry} from '../../../src/layout/entries/layout-entry.js';
import type {Expansion} from '../../../src/layout/text/layout-options.js';
import {clearMarkdownCache, markdownCacheSize, markdownLayoutStats} from '../../../src/layout/markdown/markdown-layout.js';
import type {TranscriptEntry} from '../../../src/presentation/entry.js';
import {serializeFrame} from '../../../src/testing/serialize-frame.js';
import {markdownCases} from '../markdown-cases.js';
import {options} from '../helpers.js';
import {snapshotCases} from '../snapshot-cases.js';

const base = {seq: 1, time: 1_790_000_000_000, revision: 0};
const assistant = (text: string, reasoning = ''): TranscriptEntry => ({entry: 'assistant', ...base, turn: 1, step: 1, text, reasoning, interrupted: false, streaming: false, preparing: []});

/** Cards of every kind and state, and an answer of every Markdown construct (with and without reasoning). */
function entries(): TranscriptEntry[] {
	return [
		...snapshotCases().map((item): TranscriptEntry => ({entry: 'card', card: item.card})),
		...markdownCases.map(item => assistant(item.text)),
		...markdownCases.map(item => assistant(item.text, 'First thought.\nSecond thought.')),
		{entry: 'user', ...base, source: 'user', text: 'Turn DEBUG off and check the tests.\n\n- keep the API'},
		{entry: 'notice', ...base, source: 'plugin lint', summary: 'lint context', detail: 'line one\nline two'},
	];
}

const expansions: ReadonlyArray<Expansion | undefined> = [undefined, 'summary', 'bounded', 'full'];

describe('layoutEntry with cache: false', () => {
	beforeEach(() => {
		clearLayoutCache();
		clearMarkdownCache();
	});

	it('draws the rows a cached layout draws, at every width and expansion', () => {
		for (const entry of entries()) {
			for (const width of [40, 80, 120]) {
				for (const expansion of expansions) {
					const extra = expansion === undefined ? {} : {expansion};
					const once = layoutEntry(entry, {...options(width, extra), cache: false});
					expect(serializeFrame(once)).toBe(serializeFrame(layoutEntry(entry, options(width, extra))));
				}
			}
		}
	});

	it('neither reads nor fills the card and Markdown caches', () => {
		const all = entries();
		for (const entry of all) {
			layoutEntry(entry, {...options(80), cache: false});
		}

		expect(layoutCacheSize()).toBe(0);
		expect(markdownCacheSize()).toEqual({blocks: 0, messages: 0});
		// Laid out again without the caches: every block is laid out again, none is found.
		const before = markdownLayoutStats.blocksLaidOut;
		const answer = all.find(entry => entry.entry === 'assistant')!;
		layoutEntry(answer, {...options(80), cache: false});
		layoutEntry(answer, {...options(80), cache: false});
		const perLayout = (markdownLayoutStats.blocksLaidOut - before) / 2;
		expect(perLayout).toBeGreaterThan(0);
		layoutEntry(answer, {...options(80), cache: false});
		expect(markdownLayoutStats.blocksLaidOut - before).toBe(3 * perLayout);
	});
});
