import {describe, expect, it} from 'vitest';
import {BUILTIN_COMMANDS} from '../../src/live/commands/builtin-commands.js';
import {helpRows} from '../../src/live/commands/help.js';
import {NATIVE_HELP_NOTES} from '../../src/live/native-driver.js';
import {helpLines as tableLines} from '../../src/live/notice-lines.js';
import {lineText} from '../../src/layout/text/spans.js';
import {displayWidth} from '../../src/layout/text/text-width.js';

// A native session's table (every built-in command).
const PROMPT_HELP = helpRows(BUILTIN_COMMANDS);
const helpLines = (width: number) => tableLines(PROMPT_HELP, NATIVE_HELP_NOTES, width);

// Rows may cut a word wider than the row: compare without any spacing.
const words = (text: string): string => text.replace(/\s+/gu, '');

describe('the /help table fits the width it is written at', () => {
	it.each([100, 60, 40, 24])('at %i columns no row is wider and nothing is cut', width => {
		const rows = helpLines(width).map(line => lineText(line));
		expect(Math.max(...rows.map(row => displayWidth(row)))).toBeLessThanOrEqual(width);
		const all = words(rows.join(' '));
		for (const [form, what] of PROMPT_HELP) {
			expect(all).toContain(words(form));
			expect(all).toContain(words(what));
		}
	});

	it('puts each command beside its description when there is room, and below it when not', () => {
		const [form, what] = PROMPT_HELP[0]!;
		const wide = helpLines(120).map(line => lineText(line));
		expect(wide.find(row => row.trimStart().startsWith(form))).toContain(what.slice(0, 10));
		const narrow = helpLines(30).map(line => lineText(line));
		const at = narrow.findIndex(row => row.trim() === form);
		expect(at).toBeGreaterThan(0);
		expect(narrow[at + 1]!.startsWith('      ')).toBe(true);
	});
});

describe('/help and the model', () => {
	it('lists /model, and says that it connects a model as well as switching', () => {
		const rows = helpLines(100).map(line => lineText(line));
		expect(rows.find(row => row.trimStart().startsWith('/model [PROVIDER:MODEL]'))).toContain('connect one, or switch to another');
		expect(words(rows.join(' '))).toContain(words('/model PROVIDER:MODEL connects one'));
	});
});

describe('the README\'s first screen', () => {
	it('says both modes: an agent with a model, command mode without one, and how to connect one', async () => {
		const {readFileSync} = await import('node:fs');
		const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
		// The first screen: what cardterm is and its quick start, up to the next section.
		const quickStart = readme.indexOf('\n## Quick start\n');
		expect(quickStart).toBeGreaterThan(0);
		const first = readme.slice(0, readme.indexOf('\n## ', quickStart + 1));
		expect(first.split('\n').length).toBeLessThan(60);
		expect(first).toContain('--model openai:gpt-4.1     # an agent');
		expect(first).toMatch(/command mode in the checkout/u);
		expect(first).toMatch(/Without a model it is the command mode above[^]*`\/model PROVIDER:MODEL` connects one/u);
	});
});

describe('an agent\'s rows in the table', () => {
	it('a huge description and a wide name are wrapped within the width, nothing cut', () => {
		const description = `${'very long words '.repeat(400)}END`;
		const rows = tableLines([['/日本語のコマンド', description], ['/x', 'short']], [], 60).map(line => lineText(line));
		expect(Math.max(...rows.map(row => displayWidth(row)))).toBeLessThanOrEqual(60);
		expect(words(rows.join(' '))).toContain(words(description));
		expect(rows.find(row => row.includes('/x'))).toContain('short');
	});
});

