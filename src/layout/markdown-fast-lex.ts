/**
@module The tokens `marked`'s lexer gives for the commonest shapes of a model's prose, without it.
Most answers are a paragraph of sentences, sometimes with `code`, **bold** words or a tight `- `
list, and lexing them with marked (its block rules, then its inline regexes, delimiter by delimiter)
was most of the cost of printing a transcript. `fastLex` recognises only texts whose tokens are
certain — every line starts with a letter (or is a `- ` item that does), and the only inline syntax
is a code span or a `**strong**` word run with letters or digits at its edges — and returns exactly
the tokens marked returns for them (a property test compares the two); anything else, `undefined`,
and the caller asks marked. The shapes are kept narrow on purpose: a rule marked has that this file
does not know can only send a text to marked, never change its rows.
*/
import type {Token, Tokens} from 'marked';

/**
Characters that may start Markdown syntax anywhere in a line (escapes, emphasis, strikethrough,
links and images, raw HTML and autolinks, e-mail autolinks, tables; entities and controls other
than the line break are left to marked too, as their tokens are not worth knowing here).
*/
function isSyntax(code: number): boolean {
	return code === 92 /* \ */ || code === 42 /* * */ || code === 95 /* _ */ || code === 126 /* ~ */
		|| code === 91 /* [ */ || code === 93 /* ] */ || code === 60 /* < */ || code === 62 /* > */
		|| code === 33 /* ! */ || code === 64 /* @ */ || code === 124 /* | */ || code === 38 /* & */
		|| code === 96 /* ` */ || (code < 32 && code !== 10) || code === 127;
}

function isLetter(code: number): boolean {
	return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isAlphanumeric(code: number): boolean {
	return isLetter(code) || (code >= 48 && code <= 57);
}

/** After a closing `**`: the end, a space, a line break or plain sentence punctuation. */
function endsStrong(code: number): boolean {
	return Number.isNaN(code) || code === 32 || code === 10 || code === 46 || code === 44 || code === 59 || code === 58 || code === 63 || code === 41;
}

/** GFM extended autolinks start at these words (marked matches them case-insensitively). */
const autolinkStart = /https?:|ftp:|www\./i;

/** Whitespace other than the space and the line break (a tab, a no-break space): marked's `\s` rules see it. */
const otherSpace = /[^\S \n]/;

function textToken(text: string): Tokens.Text {
	return {type: 'text', raw: text, text, escaped: false};
}

/**
Inline tokens of `text` (a paragraph's or an item's text), or `undefined` unless they are plain
text, code spans (one backtick, no space at either edge of the code) and `**strong**` runs of plain
text between a space (or the line's start) and a space or punctuation.
*/
export function fastInline(text: string): Token[] | undefined {
	if (autolinkStart.test(text) || otherSpace.test(text)) {
		return undefined;
	}

	const tokens: Token[] = [];
	let plain = '';
	let index = 0;
	const flush = () => {
		if (plain !== '') {
			tokens.push(textToken(plain));
			plain = '';
		}
	};

	while (index < text.length) {
		const code = text.charCodeAt(index);
		if (!isSyntax(code)) {
			plain += text[index];
			index++;
			continue;
		}

		if (code === 96) {
			const close = text.indexOf('`', index + 1);
			const inner = close < 0 ? '' : text.slice(index + 1, close);
			if (inner === '' || inner.includes('\n') || inner.includes('\r') || inner.startsWith(' ') || inner.endsWith(' ') || text.charCodeAt(close + 1) === 96) {
				return undefined;
			}

			flush();
			tokens.push({type: 'codespan', raw: `\`${inner}\``, text: inner} satisfies Tokens.Codespan);
			index = close + 1;
			continue;
		}

		if (code === 42 && text.charCodeAt(index + 1) === 42) {
			const before = index === 0 ? Number.NaN : text.charCodeAt(index - 1);
			const close = text.indexOf('**', index + 2);
			if (close < 0 || !(Number.isNaN(before) || before === 32 || before === 10)) {
				return undefined;
			}

			const inner = text.slice(index + 2, close);
			if (!isAlphanumeric(inner.charCodeAt(0)) || !isAlphanumeric(inner.charCodeAt(inner.length - 1)) || !endsStrong(text.charCodeAt(close + 2))) {
				return undefined;
			}

			for (let at = 0; at < inner.length; at++) {
				const innerCode = inner.charCodeAt(at);
				if (isSyntax(innerCode) || innerCode === 10) {
					return undefined;
				}
			}

			flush();
			tokens.push({type: 'strong', raw: `**${inner}**`, text: inner, tokens: [textToken(inner)]} satisfies Tokens.Strong);
			index = close + 2;
			continue;
		}

		return undefined;
	}

	flush();
	return tokens;
}

/** A line marked would read as a paragraph's: it starts with a letter and has no trailing blank (a hard break). */
function isProseLine(line: string, from: number): boolean {
	return line.length > from && isLetter(line.charCodeAt(from)) && line.charCodeAt(line.length - 1) !== 32;
}

function paragraph(text: string, lines: readonly string[]): Token[] | undefined {
	for (const line of lines) {
		if (!isProseLine(line, 0)) {
			return undefined;
		}
	}

	const tokens = fastInline(text);
	return tokens === undefined ? undefined : [{type: 'paragraph', raw: text, text, tokens} satisfies Tokens.Paragraph];
}

/** A tight `- ` list of one-line items, each a prose line. */
function bulletList(text: string, lines: readonly string[]): Token[] | undefined {
	const items: Tokens.ListItem[] = [];
	for (const [index, line] of lines.entries()) {
		if (!line.startsWith('- ') || !isProseLine(line, 2)) {
			return undefined;
		}

		const content = line.slice(2);
		const tokens = fastInline(content);
		if (tokens === undefined) {
			return undefined;
		}

		const last = index === lines.length - 1;
		items.push({type: 'list_item', raw: last ? line : `${line}\n`, task: false, loose: false, text: content, tokens: [{type: 'text', raw: content, text: content, tokens} satisfies Tokens.Text]});
	}

	return [{type: 'list', raw: text, ordered: false, start: '', loose: false, items} satisfies Tokens.List];
}

/**
The tokens marked's `Lexer#lex` gives for `text` (one top-level block, within the lexing bounds,
without a link reference definition in scope), or `undefined` when `text` is not one of the shapes
above.
*/
export function fastLex(text: string): Token[] | undefined {
	if (text === '') {
		return undefined;
	}

	const lines = text.split('\n');
	return text.startsWith('- ') ? bulletList(text, lines) : paragraph(text, lines);
}
