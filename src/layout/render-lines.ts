/**
@module Writing styled rows as text: ANSI (each styled span opened with its SGR and closed with a
reset, OSC 8 around linked spans only when hyperlinks are on) or plain text. Span text is already
sanitized by layout, so the only escape sequences in the output are the ones written here, and link
targets are re-validated before they are written.
*/
import type {Card} from '../presentation/card.js';
import {layoutCard} from './layout-card.js';
import type {LayoutOptions} from './layout-options.js';
import {safeLinkTarget} from './link-target.js';
import {spansWidth} from './spans.js';
import {colorParameters, styleAtDepth, type ColorDepth} from './color-depth.js';
import type {StyledLine, Style} from './styled-line.js';
import {controlSequence, type TerminalOutput} from './terminal-sink.js';
import {displayWidth, graphemes} from './text-width.js';

/** How rows are written. */
export type RenderOptions = {
	/** Write SGR styles. Off: plain text. */
	readonly color: boolean;
	/** Write OSC 8 hyperlinks around linked spans (only with colour on, and only if the terminal supports them). */
	readonly hyperlinks?: boolean;
	/**
	The width of the terminal row being written to. When it equals the layout width, soft-wrapped rows
	continue their predecessor without a newline, so the terminal wraps at the same place and a copied
	line has no break. Absent or different: every row ends with a newline.
	*/
	readonly width?: number;
	/**
	Join every soft-wrapped row to its predecessor, whatever the widths: output that is not a terminal
	(a pipe, a file) gets each logical line whole, so `grep` finds it (rows cut exactly, so nothing is lost).
	*/
	readonly unwrap?: boolean;
	/** How many colours the terminal shows (cli/terminal-env.ts `colorDepth`); default the 16. */
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
	for (const item of line.spans) {
		if (!options.color) {
			out += item.text;
			continue;
		}

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
Rows as text: ANSI when `color`, plain otherwise; each row ends with a newline except a soft-wrapped
row joined to its predecessor (when `width` equals the layout width and the row fills it, or `unwrap`).
*/
export function renderLines(lines: readonly StyledLine[], options: RenderOptions): TerminalOutput {
	let out = '';
	const join = options.width !== undefined && options.width > 0;
	lines.forEach((line, index) => {
		if (index > 0) {
			// The terminal wraps a full row itself; any other row ends with a newline.
			const continues = line.softWrap === true && (options.unwrap === true || (join && fillsRow(lines[index - 1]!, line, options.width!)));
			out += continues ? '' : '\n';
		}

		out += renderRow(line, options);
	});
	// Span text is sanitized by layout and links re-validated here: the only sequences are ours.
	return controlSequence(lines.length === 0 ? '' : `${out}\n`);
}

/** A card laid out and written as text in one step. */
export function renderCardText(card: Card, options: LayoutOptions & RenderOptions): TerminalOutput {
	return renderLines(layoutCard(card, options), {color: options.color, hyperlinks: options.hyperlinks, width: options.width, ...(options.depth === undefined ? {} : {depth: options.depth}), ...(options.unwrap === true ? {unwrap: true} : {})});
}
