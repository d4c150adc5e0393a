import {describe, expect, it} from 'vitest';
import {RecentVerdicts} from '../../src/tools/recent-verdicts.js';
import {defineTool} from '../../src/tools/define-tool.js';

describe('RecentVerdicts', () => {
	it('judges an object once while it is among the newest, by identity, and again once it is not', () => {
		const recent = new RecentVerdicts(2);
		const judged: object[] = [];
		const judge = (key: {ok: boolean}): boolean => {
			judged.push(key);
			return key.ok;
		};

		const a = {ok: true};
		const b = {ok: false};
		const c = {ok: true};
		expect([recent.verdict(a, judge), recent.verdict(b, judge), recent.verdict(a, judge), recent.verdict(b, judge)]).toEqual([true, false, true, false]);
		expect(judged).toEqual([a, b]);
		// An equal object is another object; a third pushes the oldest out.
		expect(recent.verdict({ok: false}, judge)).toBe(false);
		expect(recent.verdict(c, judge)).toBe(true);
		expect(recent.verdict(a, judge)).toBe(true);
		expect(judged).toEqual([a, b, {ok: false}, c, a]);
	});
});

describe('defineTool presenters', () => {
	it('validate a call\'s arguments once for its pending and its settled card, and still refuse invalid ones', () => {
		const tool = defineTool({
			name: 'echo',
			description: 'echo',
			parameters: {text: {type: 'string', required: true}},
			output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
			execute: async ({text}) => text,
			presentCall: ({text}) => ({card: 'generic', title: text}),
			presentResult: () => ({card: 'generic', content: []}),
		});
		let reads = 0;
		const args = {get text(): string {
			reads++;
			return 'hi';
		}};
		expect(tool.presentCall?.(args)).toEqual({card: 'generic', title: 'hi'});
		const readsAtCall = reads;
		expect(tool.presentResult?.(args, {content: [], isError: false})).toEqual({card: 'generic', content: []});
		// The result's presenter reads nothing more for validation (its own body reads nothing).
		expect(reads).toBe(readsAtCall);
		expect(tool.presentCall?.({text: 1})).toBeUndefined();
	});
});
