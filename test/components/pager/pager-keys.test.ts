/**
The pager's key table walked both ways, without Ink: every key `?` shows is bound, reaches its
command through the real key parser and does something; every key the pager takes is one `?` shows.
*/
import {isDeepStrictEqual} from 'node:util';
import {describe, expect, it} from 'vitest';
import {KeyStream} from '../../../components/input/key-stream.js';
import type {KeyPress} from '../../../components/input/keys.js';
import {commandOf, keyLabel, PAGER_COMMANDS, PAGER_KEYS, type PagerCommand} from '../../../components/pager/pager-keys.js';
import {initialPagerState, keyEffect, reducePager, type PagerState} from '../../../components/pager/pager-state.js';
import {asEntries} from '../../../src/presentation/entry.js';
import {arrayEntrySource} from '../../../src/transcript/entry-source.js';
import {contextFor, echoCard, failedCard, rowsLayout} from './pager-fixtures.js';

/** What an xterm sends for each named key, Space and Ctrl+letter; any other label is typed as itself. */
const NAMED_BYTES: Readonly<Record<string, string>> = {'↑': '\u001B[A', '↓': '\u001B[B', PgUp: '\u001B[5~', PgDn: '\u001B[6~', Home: '\u001B[H', End: '\u001B[F', Enter: '\r', Esc: '\u001B', Space: ' '};
const bytesOf = (label: string): string => NAMED_BYTES[label] ?? (label.startsWith('Ctrl+') ? String.fromCharCode(label.charCodeAt(5) - 64) : label);

/** The keys an entry of the table shows in `?`: its `keys` text split at `, ` and ` / `. */
const shownKeys = (keys: string): string[] => keys.split(', ').flatMap(part => part.split(' / '));
const boundKeys = (on: (typeof PAGER_KEYS)[number]['on']): string[] => Object.values(on).flat();
/** The presses a chunk of input is, as the pager's key hook reads them (pastes included). */
const pressesOf = (bytes: string): KeyPress[] => new KeyStream().feed(bytes);
const onePress = (bytes: string): KeyPress => {
	const presses = pressesOf(bytes);
	expect(presses, JSON.stringify(bytes)).toHaveLength(1);
	return presses[0]!;
};

describe('the pager key table', () => {
	it('binds exactly the keys each row shows in ?, each once', () => {
		const seen: string[] = [];
		for (const row of PAGER_KEYS) {
			expect(boundKeys(row.on).toSorted(), row.keys).toEqual(shownKeys(row.keys).toSorted());
			seen.push(...boundKeys(row.on));
		}

		expect(new Set(seen).size).toBe(seen.length);
	});

	it('gives each shown key its command when a terminal sends it, through the real key parser', () => {
		for (const row of PAGER_KEYS) {
			for (const [command, labels] of Object.entries(row.on)) {
				for (const label of labels) {
					const press = onePress(bytesOf(label));
					expect(keyLabel(press), label).toBe(label);
					expect(commandOf(press), label).toBe(command);
				}
			}
		}
	});

	it('binds every command to a key', () => {
		const bound = new Set(PAGER_KEYS.flatMap(row => Object.keys(row.on)));
		expect([...bound].toSorted()).toEqual([...PAGER_COMMANDS].toSorted());
	});

	it('takes no key that ? does not show: every byte, Alt and Ctrl keys, the other named keys, a paste', () => {
		const shown = new Set(PAGER_KEYS.flatMap(row => shownKeys(row.keys)));
		const chunks = [
			...Array.from({length: 0x80}, (_, code) => String.fromCharCode(code)),
			...Array.from({length: 26}, (_, letter) => `\u001B${String.fromCharCode(0x61 + letter)}`),
			'\u001B[C', '\u001B[D', '\u001B[3~', '\u001B[Z', '\u001BOP', '\u001B[1;5A', '\u001B[2~', 'é', '日', '\u001B[200~q\u001B[201~',
		];
		let taken = 0;
		for (const chunk of chunks) {
			for (const press of pressesOf(chunk)) {
				const command = commandOf(press);
				if (command !== undefined) {
					taken++;
					expect(shown.has(keyLabel(press)!), JSON.stringify(chunk)).toBe(true);
				}
			}
		}

		// Every typed key of the table was among them.
		expect(taken).toBeGreaterThanOrEqual(PAGER_KEYS.flatMap(row => boundKeys(row.on)).filter(label => label.length === 1 || label === 'Space' || label.startsWith('Ctrl+')).length);
		// A letter's Ctrl or Alt form is not the letter: Ctrl+O in Ctrl+O's pager never starts $EDITOR.
		expect(commandOf(onePress('\u000F'))).toBeUndefined();
		expect(commandOf(onePress('\u001Bj'))).toBeUndefined();
		expect(commandOf(onePress('\u001B[200~q\u001B[201~'))).toBeUndefined();
		// Named keys keep their meaning with a modifier, as terminals send Shift+↓ or Alt+Enter.
		expect(commandOf(onePress('\u001B[1;2B'))).toBe('next');
	});

	it('does something with every bound command on the entries: a change of state or an effect for the view', () => {
		const cards = Array.from({length: 30}, (_, index) => (index % 7 === 3 ? failedCard(index) : echoCard(index)));
		const source = {...arrayEntrySource(asEntries(cards)), damage: () => ({total: 1, kept: []})};
		const context = contextFor(source, {height: 10, layout: rowsLayout(2), damaged: 1});
		const opened = initialPagerState('start', source, context.height, context.layout);
		const middle: PagerState = {...opened, cursor: 15, top: {card: 12, row: 0}, search: {query: 'echo', editing: false, wrapped: false}};
		for (const command of PAGER_COMMANDS as readonly PagerCommand[]) {
			const next = reducePager(middle, {type: 'key', command}, context);
			const effect = keyEffect(middle, command, context);
			expect(!isDeepStrictEqual(next, middle) || effect !== undefined, command).toBe(true);
		}
	});
});
