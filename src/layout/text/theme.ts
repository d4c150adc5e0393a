/**
@module Colour roles. Layout names a role, never a colour; the theme maps roles onto the 16 ANSI
colours and attributes. Colour only where it carries meaning: the header's status, diff −/+,
failed exits, signals, search matches, links.
*/
import type {Style} from './styled-line.js';

/** Every role a layout may use. */
export type Theme = {
	readonly name: 'color' | 'monochrome' | 'plain';
	readonly running: Style;
	readonly ok: Style;
	readonly error: Style;
	readonly cancelled: Style;
	readonly interrupted: Style;
	/** Tool name in the header. */
	readonly toolName: Style;
	/** Card title in the header. */
	readonly title: Style;
	/** The one recessed tone of card bodies. */
	readonly body: Style;
	/** Secondary text: fold markers, footers, durations, gutters. */
	readonly muted: Style;
	/** A pending input (raw arguments) shown in the default tone. */
	readonly input: Style;
	readonly added: Style;
	readonly removed: Style;
	/** The changed part of an added / removed line. */
	readonly addedWord: Style;
	readonly removedWord: Style;
	/** A file path heading a group (diff, search). */
	readonly path: Style;
	/** Highlighted search match. */
	readonly match: Style;
	/** A tool's own truncation notice. */
	readonly warning: Style;
	/** A command's stderr (after bash's `[stderr]` separator), apart from its stdout. */
	readonly stderr: Style;
	readonly link: Style;
	/** Focus / selection (pager cursor). */
	readonly selected: Style;
	/** The `›` before what the person said, and their text. */
	readonly userMarker: Style;
	readonly userText: Style;
	/** The model's reasoning, recessed. */
	readonly reasoning: Style;
	/** Notices and turn boundaries: present, but out of the way. */
	readonly notice: Style;
	/** A Markdown heading of the first two levels (the first also underlined); its `#` marker is not drawn. */
	readonly markdownHeading: Style;
	/** A Markdown heading of level three and below. */
	readonly markdownSubheading: Style;
	/** Markdown inline code: distinct from emphasis (italic), strong (bold) and links. */
	readonly markdownCode: Style;
	/** Text inside a Markdown block quote, so a soft-wrapped row without the gutter still reads as quoted. */
	readonly markdownQuote: Style;
};

/** The default theme: 16 ANSI colours, no backgrounds, readable on light and dark terminals. */
export const colorTheme: Theme = Object.freeze<Theme>({
	name: 'color',
	running: {fg: 'yellow'},
	ok: {fg: 'green'},
	error: {fg: 'red'},
	cancelled: {fg: 'magenta'},
	interrupted: {fg: 'gray'},
	toolName: {bold: true},
	title: {},
	body: {dim: true},
	muted: {dim: true},
	input: {},
	added: {fg: 'green'},
	removed: {fg: 'red'},
	addedWord: {fg: 'green', inverse: true},
	removedWord: {fg: 'red', inverse: true},
	path: {bold: true},
	match: {fg: 'yellow', bold: true},
	warning: {fg: 'yellow'},
	stderr: {fg: 'red', dim: true},
	link: {fg: 'blue', underline: true},
	selected: {inverse: true},
	userMarker: {fg: 'cyan', bold: true},
	userText: {bold: true},
	reasoning: {dim: true, italic: true},
	notice: {dim: true},
	markdownHeading: {bold: true, fg: 'magenta'},
	markdownSubheading: {bold: true},
	markdownCode: {fg: 'cyan'},
	markdownQuote: {italic: true},
});

/** `NO_COLOR` / `--no-color`: attributes only, no colours; meaning is carried by glyphs and −/+. */
export const monochromeTheme: Theme = Object.freeze<Theme>({
	name: 'monochrome',
	running: {},
	ok: {},
	error: {bold: true},
	cancelled: {},
	interrupted: {},
	toolName: {bold: true},
	title: {},
	body: {},
	muted: {},
	input: {},
	added: {},
	removed: {},
	addedWord: {underline: true},
	removedWord: {strikethrough: true},
	path: {bold: true},
	match: {bold: true},
	warning: {},
	stderr: {italic: true},
	link: {underline: true},
	selected: {inverse: true},
	userMarker: {bold: true},
	userText: {bold: true},
	reasoning: {italic: true},
	notice: {},
	markdownHeading: {bold: true},
	markdownSubheading: {bold: true},
	markdownCode: {inverse: true},
	markdownQuote: {italic: true},
});

/**
Rows written as plain text (print with colour off): every role unstyled, and layout skips the work
whose only product is a style (a diff's word highlights; syntax colours are colour-only already).
The rows' text is the same under every theme (test/cli/print/plain-rows.test.ts).
*/
export const plainTheme: Theme = Object.freeze<Theme>({
	...Object.fromEntries(Object.keys(monochromeTheme).map(role => [role, Object.freeze({})])) as Omit<Theme, 'name'>,
	name: 'plain',
});
