/**
@module Writing styled rows as text: ANSI (each styled span opened with its SGR and closed with a
reset, OSC 8 around linked spans only when hyperlinks are on) or plain text. Span text is already
sanitized by layout, so the only escape sequences in the output are the ones written here, and link
targets are re-validated before they are written.
*/
import type {Card} from '../../presentation/card.js';
import {layoutCard} from '../cards/layout-card.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {safeLinkTarget} from '../text/link-target.js';
import {spansWidth} from '../text/spans.js';
import {colorParameters, styleAtDepth, type ColorDepth} from './color-depth.js';
import type {StyledLine, Style} from '../text/styled-line.js';
import {controlSequence, type TerminalOutput} from './terminal-sink.js';
import {displayWidth, graphemes} from '../text/text-width.js';

/** How rows are written. */
export type RenderOptions = {
	/** Write SGR styles. Off: plain text. */
	readonly color: boolean;
	/** Write OSC 8 hyperlinks around linked spans (only with colour on, and only if the terminal supports them). */
	readonly hyperlinks?: boolean;
	/**
	The width of the terminal row being written to. A soft-wrapped row continues its predecessor
	without a newline, so the terminal wraps at the same place and a copied line has no break: a
	predecessor that ends short of the width (prose wrapped between words) is padded with spaces to it
	first; one wider than the width ends with a newline. Absent: every row ends with a newline.
	*/
	readonly width?: number;
	/**
	Join every soft-wrapped row to its predecessor, whatever the widths: output that is not a terminal
	(a pipe, a file) gets each logical line whole, so `grep` finds it (rows cut exactly, so nothing is lost).
	*/
	readonly unwrap?: boolean;
	/** How many colours the terminal shows (cli/environment/terminal-env.ts `colorDepth`); default the 16. */
	readonly depth?: ColorDepth;
};

/** The SGR parameters of a style at the terminal's colour depth, or '' for the default style. */
export function sgrParameters(style: Style | undefined, depth: ColorDepth = 'ansi16'): string {
	if (style === undefined) {
		return '';
	}

	const shown = styleAtDepth(style, depth);
	const codes: Array<number | string> = [];
	if (shown.bold) {
		codes.push(1);
	}

	if (shown.dim) {
		codes.push(2);
	}

	if (shown.italic) {
		codes.push(3);
	}

	if (shown.underline) {
		codes.push(4);
	}

	if (shown.inverse) {
		codes.push(7);
	}

	if (shown.strikethrough) {
		codes.push(9);
	}

	if (shown.fg !== undefined) {
		codes.push(colorParameters(shown.fg, false));
	}

	if (shown.bg !== undefined) {
		codes.push(colorParameters(shown.bg, true));
	}

	return codes.join(';');
}

function renderRow(line: StyledLine, options: RenderOptions): string {
	let out = '';
	if (!options.color) {
		for (const item of line.spans) {
			out += item.text;
		}

		return out;
	}

	for (const item of line.spans) {

		const parameters = sgrParameters(item.style, options.depth);
		let text = parameters === '' ? item.text : `\u001B[${parameters}m${item.text}\u001B[0m`;
		const link = options.hyperlinks === true && item.link !== undefined ? safeLinkTarget(item.link) : undefined;
		if (link !== undefined) {
			text = `\u001B]8;;${link}\u001B\\${text}\u001B]8;;\u001B\\`;
		}

		out += text;
	}

	return out;
}

/** Whether the terminal would wrap `previous` exactly before `next`'s first character at `width`. */
function fillsRow(previous: StyledLine, next: StyledLine, width: number): boolean {
	const used = spansWidth(previous.spans);
	const first = next.spans.find(item => item.text !== '')?.text;
	const firstWidth = first === undefined ? 1 : displayWidth(graphemes(first)[0] ?? ' ');
	return used <= width && used + firstWidth > width;
}

/**
What is written between a row and the one before it. A hard row: a newline. A soft-wrapped row: with
`unwrap`, nothing (the logical line whole, exactly its text); on a terminal of `width` columns,
nothing when the terminal wraps there itself, spaces to the width when the predecessor ends short of
it (the terminal then wraps before the row, and a copy gets those spaces), else a newline.
*/
function rowJoint(previous: StyledLine, next: StyledLine, options: RenderOptions): string {
	if (next.softWrap !== true) {
		return '\n';
	}

	if (options.unwrap === true) {
		return '';
	}

	const {width} = options;
	if (width === undefined || width <= 0) {
		return '\n';
	}

	if (fillsRow(previous, next, width)) {
		return '';
	}

	const used = spansWidth(previous.spans);
	return used < width ? ' '.repeat(width - used) : '\n';
}

/**
Rows as text: ANSI when `color`, plain otherwise; each row ends with a newline except a soft-wrapped
row continuing its predecessor (on a terminal of `width` columns, padded to it; with `unwrap`, joined as is).
*/
export function renderLines(lines: readonly StyledLine[], options: RenderOptions): TerminalOutput {
	let out = '';
	for (let index = 0; index < lines.length; index++) {
		if (index > 0) {
			out += rowJoint(lines[index - 1]!, lines[index]!, options);
		}

		out += renderRow(lines[index]!, options);
	}

	// Span text is sanitized by layout and links re-validated here: the only sequences are ours.
	return controlSequence(lines.length === 0 ? '' : `${out}\n`);
}

/** A card laid out and written as text in one step. */
export function renderCardText(card: Card, options: LayoutOptions & RenderOptions): TerminalOutput {
	return renderLines(layoutCard(card, options), {color: options.color, hyperlinks: options.hyperlinks, width: options.width, ...(options.depth === undefined ? {} : {depth: options.depth}), ...(options.unwrap === true ? {unwrap: true} : {})});
}
