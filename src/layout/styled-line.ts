/**
@module Styled lines: what layout produces and every surface draws. A span carries text, a style
and optionally a link target; escape bytes never appear in span text.
*/

/** The 16 ANSI foreground colours. */
export type AnsiColor =
	| 'black' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'white'
	| 'gray' | 'brightRed' | 'brightGreen' | 'brightYellow' | 'brightBlue' | 'brightMagenta' | 'brightCyan' | 'brightWhite';

/** Text attributes. Absent keys mean "off" / the terminal's default colour. */
export type Style = {
	readonly fg?: AnsiColor;
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
width. Writers that own a real terminal row of exactly that width write it without a newline, so the
terminal soft-wraps at the same place and a copied line has no hard break in it.
*/
export type StyledLine = {readonly spans: readonly Span[]; readonly softWrap?: true};
