import {layoutCard} from '../../src/layout/cards/layout-card.js';
import type {Expansion} from '../../src/layout/text/layout-options.js';
import {lineText} from '../../src/layout/text/spans.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';
import {NARROW_CHARACTERS} from '../../src/layout/text/text-width.js';
import {colorTheme, monochromeTheme} from '../../src/layout/text/theme.js';
import type {Card} from '../../src/presentation/card.js';
import {CALL_TIME, SESSION_CWD} from './fixtures.js';

/** Layout options of the fixtures: fixed clock (65 s after the call) and session cwd. */
export function options(width: number, extra: {color?: boolean; expansion?: Expansion; now?: number} = {}) {
	return {
		width,
		theme: extra.color === false ? monochromeTheme : colorTheme,
		now: extra.now ?? CALL_TIME + 65_000,
		sessionCwd: SESSION_CWD,
		...(extra.expansion === undefined ? {} : {expansion: extra.expansion}),
	};
}

/** The rows' texts. */
export function texts(lines: readonly StyledLine[]): string[] {
	return lines.map(line => lineText(line));
}

/** A card's rows as texts at `width`. */
export function cardTexts(card: Card, width = 80, extra: {color?: boolean; expansion?: Expansion; now?: number} = {}): string[] {
	return texts(layoutCard(card, options(width, extra)));
}

/** Every character of `NARROW_CHARACTERS` (its `\\xHH-\\xHH` and `\\uHHHH[-\\uHHHH]` ranges). */
export function narrowCharacters(): string[] {
	return [...NARROW_CHARACTERS.matchAll(/\\x([\da-f]{2})-\\x([\da-f]{2})|\\u([\da-f]{4})(?:-\\u([\da-f]{4}))?/g)].flatMap(match => {
		const first = Number.parseInt(match[1] ?? match[3]!, 16);
		const last = Number.parseInt(match[2] ?? match[4] ?? match[3]!, 16);
		return Array.from({length: last - first + 1}, (_, index) => String.fromCharCode(first + index));
	});
}
