import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {layoutCard} from '../../src/layout/cards/layout-card.js';
import {renderLines} from '../../src/layout/terminal/render-lines.js';
import {lineText} from '../../src/layout/text/spans.js';
import {colorTheme, monochromeTheme} from '../../src/layout/text/theme.js';
import {displayWidth} from '../../src/layout/text/text-width.js';
import type {Card} from '../../src/presentation/card.js';
import {CALL_TIME, makeCard, text} from './fixtures.js';

/** Pieces that attack a terminal, mixed with arbitrary code points. */
const hostile = fc.constantFrom(
	'\u001B[2J', '\u001B]0;title\u0007', '\u001B]52;c;aGk=\u001B\\', '\u001BP1$q\u001B\\', '\u001B_x\u001B\\', '\u001B^x\u001B\\', '\u001BXx\u001B\\',
	'\u009B31m', '\u009D0;t\u009C', '\u0085', '\u001B', '\u001B[', '\u001B]8;;http://x\u001B\\', '\u001B[38;5;9m', '\u001B[?1049h', '\u001B[10;10H',
	'\r', '\b', '\t', '\n', '\r\n', '\u0000', '\u0007', '\u007F', '\u202E', '\u2066', '\u200B', '\uFEFF', '\uD800', '\uDFFF', '\uFFFD',
	'日本', '👩\u200D💻', '❤\uFE0F', '🇯🇵', 'e\u0301',
);
const untrusted = fc.array(fc.oneof(fc.string({unit: 'binary', maxLength: 12}), hostile), {maxLength: 12}).map(parts => parts.join(''));

/** Every card kind, with untrusted text in every field a tool or model controls. */
function cards(s: readonly string[]): Card[] {
	const [a = '', b = '', c = '', d = ''] = s;
	const url = `https://example.com/${a}`;
	return [
		makeCard({name: a, callView: {card: 'generic', title: b, rawInput: c, content: text(d)}}),
		makeCard({name: 'x', callView: {card: 'generic', title: a}, result: {content: [...text(b), {type: c} as never], isError: true, error: {name: c, code: d}}}),
		makeCard({name: 'bash', callView: {card: 'terminal', title: a, description: b, cwd: c}, progress: {text: d, truncated: true}}),
		makeCard({name: 'bash', callView: {card: 'terminal', title: a, description: b, cwd: c}, result: {content: text(`${d}\n[killed by signal: SIGTERM]`), view: {card: 'terminal', title: c, output: d, signal: a}}}),
		makeCard({name: 'grep', args: {pattern: a}, callView: {card: 'generic', title: b}, result: {content: text(c), view: {card: 'search', shape: 'matches', title: c, files: [{path: b, matches: [{lineNumber: 3, line: d}, {lineNumber: 40, line: a + d}]}], truncated: true, total: 9}}}),
		makeCard({name: 'glob', callView: {card: 'generic', title: b}, result: {content: text(c), view: {card: 'search', shape: 'paths', paths: [a, b, c], truncated: false, total: 3}}}),
		makeCard({name: 'web_search', args: {queries: [a, b]}, callView: {card: 'generic', title: b}, result: {content: text(c), view: {card: 'web', kind: 'search', answer: d, sources: [{url, title: b}, {url: a}, {url: `javascript:${b}`, title: c}], truncated: true}}}),
		makeCard({name: 'web_fetch', callView: {card: 'generic', title: b}, result: {content: text(`Fetched ${url} (HTTP 500)\n\n${d}`), view: {card: 'web', kind: 'fetch', url, statusCode: 500, truncated: true}}}),
		makeCard({name: 'read', callView: {card: 'generic', title: b}, result: {content: text(c), view: {card: 'read', path: a, offset: 1, totalLines: 2, lang: 'ts', lines: [{number: 1, text: c}, {number: 2, text: d}]}}}),
		makeCard({name: 'edit', callView: {card: 'diff', title: a, diffs: [{path: b, oldText: c, newText: d}, {path: a, oldText: null, newText: b}]}}),
	];
}

const allowedColor = /\u001B\[[0-9;]*m/g;
const allowedLink = /\u001B\]8;;[\u0021-\u007E]*\u001B\\/g;
// Anything that could drive a terminal or reorder a row once the allowed sequences are removed.
const forbidden = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;

describe('escape safety', () => {
	it('lets only cardterm’s own SGR (and OSC 8 when hyperlinks are on) reach the output, in rows that fit the width', () => {
		// From 2 columns: a wide character cannot fit a 1-column terminal at all.
		fc.assert(fc.property(fc.array(untrusted, {minLength: 4, maxLength: 4}), fc.integer({min: 2, max: 120}), fc.boolean(), fc.boolean(), (strings, width, color, hyperlinks) => {
			for (const card of cards(strings)) {
				const lines = layoutCard(card, {width, theme: color ? colorTheme : monochromeTheme, now: CALL_TIME + 5000, expansion: 'full', sessionCwd: '/home/u/proj'});
				for (const line of lines) {
					expect(displayWidth(lineText(line))).toBeLessThanOrEqual(width);
				}

				const output = renderLines(lines, {color, hyperlinks, width});
				const rest = (hyperlinks ? output.replace(allowedLink, '') : output).replace(allowedColor, '');
				expect(color ? rest : output).not.toMatch(forbidden);
				if (!color) {
					expect(output).not.toContain('\u001B');
				}
			}
		}), {numRuns: 60});
	});
});
