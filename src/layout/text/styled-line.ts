/**
@module Styled lines: what layout produces and every surface draws. A span carries text, a style
and optionally a link target; escape bytes never appear in span text.
*/

/** The 16 ANSI foreground colours. */
export type AnsiColor =
	| 'black' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'white'
	| 'gray' | 'brightRed' | 'brightGreen' | 'brightYellow' | 'brightBlue' | 'brightMagenta' | 'brightCyan' | 'brightWhite';

/**
A colour a command asked for beyond the 16: an index 16–255 of the 256-colour palette, or 24-bit
RGB as `#rrggbb` (lower case). Written at the terminal's depth (color-depth.ts).
*/
export type ExtendedColor = number | `#${string}`;

/** A colour: one of the 16 (the theme only uses these), or an extended one from tool output. */
export type Color = AnsiColor | ExtendedColor;

/** Text attributes. Absent keys mean "off" / the terminal's default colour. */
export type Style = {
	readonly fg?: Color;
	/** Background: only tool output (SGR 40–47, 100–107, 48;5;n, 48;2;r;g;b) sets one; the theme never does. */
	readonly bg?: Color;
	readonly bold?: boolean;
	readonly dim?: boolean;
	readonly italic?: boolean;
	readonly underline?: boolean;
	readonly inverse?: boolean;
	readonly strikethrough?: boolean;
};

/** A run of text with one style. `link` is an http(s) or file URL, drawn as OSC 8 only at write time. */
export type Span = {readonly text: string; readonly style?: Style; readonly link?: string};

/**
One terminal row; its display width never exceeds the layout width.

`softWrap` marks a row that continues the previous one because the text was wider than the layout
width. Writers that own a real terminal row of exactly that width write it without a newline (after
padding a previous row that ends short, as word-wrapped prose does), so the terminal soft-wraps at
the same place and a copied line has no hard break in it.
*/
export type StyledLine = {readonly spans: readonly Span[]; readonly softWrap?: true};
