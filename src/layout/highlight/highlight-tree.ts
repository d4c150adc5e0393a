/**
@module highlight.js's token tree to styled spans per line, without rendering it as HTML.

A `highlight` result's emitter holds the tree the HTML is rendered from: text pieces and nodes of a
kind (a token class, or a sub-language). Walking it gives the colours cli-highlight gave by parsing
that HTML back (3× the cost of the highlighting itself), provided the text survives the way the HTML
step altered it. Where it did not — an HTML parser pairs a lone low surrogate with the low surrogate
after it — the walk refuses, as the old path's text check refused (see `highlight.ts`).
*/
import {sameStyle} from '../terminal/sgr.js';
import type {Span, Style} from '../text/styled-line.js';

/** A node of highlight.js's token tree (10.7 `TokenTree`): text, or a node of a kind with children. */
export type TokenNode = string | TokenBranch;

export type TokenBranch = {readonly kind?: string; readonly sublanguage?: boolean; readonly children: readonly TokenNode[]};

/** The style inside `node` given the style around it (the same object for a node that styles nothing). */
export type NodeStyle = (outer: Style, node: TokenBranch) => Style;

/** The style of text outside every token (`blankStyle`): spans of it carry no `style`. */
type Blank = Style;

function pushSpan(line: Span[], text: string, style: Style, blank: Blank): void {
	const last = line.at(-1);
	if (last !== undefined && sameStyle(last.style, style)) {
		line[line.length - 1] = style === blank ? {text: last.text + text} : {text: last.text + text, style};
		return;
	}

	line.push(style === blank ? {text} : {text, style});
}

const LOW_SURROGATE_MIN = 0xDC_00;
const SURROGATE_MIN = 0xD8_00;
const SURROGATE_MAX = 0xDF_FF;

/**
Spans per line of the text under `root` (lines split at `\n`, a style carrying across lines, equal
neighbours merged, an empty line an empty list), or undefined when the text holds a lone low
surrogate directly before a low surrogate (the two code units an HTML parser reads as one pair).
`blank` is the style of text outside every token; `nodeStyle` gives a node's style from its parent's.
`checkSurrogates`: whether the text may hold surrogates at all (the scan is skipped when it cannot).
*/
export function tokenTreeLines(root: TokenNode, nodeStyle: NodeStyle, blank: Blank, checkSurrogates: boolean): Span[][] | undefined {
	let line: Span[] = [];
	const lines: Span[][] = [line];
	// The last code unit when it is a surrogate an HTML parser would pair with a low surrogate after it.
	let openSurrogate: 'none' | 'high' | 'low' = 'none';
	let altered = false;

	const scanSurrogates = (text: string): void => {
		for (let index = 0; index < text.length; index++) {
			const unit = text.charCodeAt(index);
			if (unit < SURROGATE_MIN || unit > SURROGATE_MAX) {
				openSurrogate = 'none';
			} else if (unit < LOW_SURROGATE_MIN) {
				openSurrogate = 'high';
			} else if (openSurrogate === 'high') {
				openSurrogate = 'none';
			} else if (openSurrogate === 'low') {
				altered = true;
			} else {
				openSurrogate = 'low';
			}
		}
	};

	const addText = (text: string, style: Style): void => {
		if (checkSurrogates) {
			scanSurrogates(text);
		}

		let start = 0;
		for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
			if (newline > start) {
				pushSpan(line, text.slice(start, newline), style, blank);
			}

			line = [];
			lines.push(line);
			start = newline + 1;
		}

		if (start < text.length) {
			pushSpan(line, start === 0 ? text : text.slice(start), style, blank);
		}
	};

	const visit = (node: TokenNode, style: Style): void => {
		if (typeof node === 'string') {
			addText(node, style);
			return;
		}

		// A node of a kind is a tag in the HTML: text on either side of it is not adjacent there.
		const tagged = node.kind !== undefined && node.kind !== '';
		if (tagged) {
			openSurrogate = 'none';
		}

		const inner = nodeStyle(style, node);
		for (const child of node.children) {
			visit(child, inner);
		}

		if (tagged) {
			openSurrogate = 'none';
		}
	};

	visit(root, blank);
	return altered ? undefined : lines;
}
