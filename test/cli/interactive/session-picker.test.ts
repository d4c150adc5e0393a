import {describe, expect, it} from 'vitest';
import {matchingSessions, pickerKeys} from '../../../src/cli/interactive/session-picker.js';
import type {SessionSummary} from '../../../src/session/store/session-store.js';

describe('pickerKeys', () => {
	it('moves with arrows and j/k, within the list', () => {
		expect(pickerKeys({index: 0}, '\u001B[B\u001B[Bj', 3)).toEqual({index: 2});
		expect(pickerKeys({index: 2}, 'k\u001BOA\u001B[A\u001B[A', 3)).toEqual({index: 0});
	});

	it('picks on Enter and quits on Ctrl+C, Ctrl+D and Esc', () => {
		expect(pickerKeys({index: 1}, '\r', 3)).toEqual({index: 1, answer: 'pick'});
		expect(pickerKeys({index: 1}, '\u0003', 3)).toEqual({index: 1, answer: 'quit'});
		expect(pickerKeys({index: 1}, '\u0004', 3)).toEqual({index: 1, answer: 'quit'});
		expect(pickerKeys({index: 1}, '\u001B', 3)).toEqual({index: 1, answer: 'quit'});
	});

	it('takes an Esc read together with what follows it, and skips sequences it does not use', () => {
		// An Esc, then a terminal's reply to a query (device attributes) in the same read.
		expect(pickerKeys({index: 0}, '\u001B\u001B[?1;2c', 3)).toEqual({index: 0, answer: 'quit'});
		// A key the picker does not use (F5, Home) is not an Esc.
		expect(pickerKeys({index: 0}, '\u001B[15~\u001B[H', 3)).toEqual({index: 0});
	});
	it('filters with / as one types: the highlight goes back to the first kept, Backspace takes back, Esc clears then quits, Enter picks among the kept', () => {
		const sessions = [
			{id: 's-1', title: undefined, prompt: 'Fix the parser'},
			{id: 's-2', title: 'Release notes', prompt: 'write notes'},
			{id: 's-3', title: undefined, prompt: 'parser: add tests'},
		] as unknown as SessionSummary[];
		const count = (query: string): number => matchingSessions(sessions, query).length;
		expect(matchingSessions(sessions, 'PARSER').map(session => session.id)).toEqual(['s-1', 's-3']);
		expect(matchingSessions(sessions, 's-2').map(session => session.id)).toEqual(['s-2']);
		const typed = pickerKeys({index: 2}, '/parsj', count);
		// j is typed into the filter while it is being typed: no session holds "parsj".
		expect(typed).toEqual({index: 0, query: 'parsj', typing: true});
		expect(count(typed.query!)).toBe(0);
		expect(pickerKeys(typed, '\r', count)).toEqual(typed);
		const back = pickerKeys(typed, '\u007F\u001B[B', count);
		expect(back).toEqual({index: 1, query: 'pars', typing: true});
		expect(pickerKeys(back, '\r', count)).toEqual({index: 1, query: 'pars', answer: 'pick'});
		expect(matchingSessions(sessions, 'pars')[1]!.id).toBe('s-3');
		expect(pickerKeys(back, '\u001B', count)).toEqual({index: 0});
		expect(pickerKeys(back, '\u001B\u001B', count)).toEqual({index: 0, answer: 'quit'});
		// A wide character is one key.
		expect(pickerKeys({index: 0}, '/日本\u007F', count)).toEqual({index: 0, query: '日', typing: true});
	});
});
