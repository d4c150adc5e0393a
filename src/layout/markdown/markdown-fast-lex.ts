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
Characters that may start Markdown syntax anywhere in a line: escapes, emphasis, strikethrough,
links and images, raw HTML and autolinks, e-mail autolinks, tables; entities, controls other than
the line break and whitespace other than the space (marked's `\s` rules see a tab or a no-break
space) are left to marked too, as their tokens are not worth knowing here.
*/
const syntax = /[\\*_~[\]<>!@|&`\u0000-\u0009\u000B-\u001F\u007F]|[^\S \n]/g;

/** GFM extended autolinks start at these words (marked matches them case-insensitively). */
const autolinkStart = /https?:|ftp:|www\./i;

/** Plain text of a strong run: no syntax and no line break. */
const strongText = /^[A-Za-z\d](?:[^\\*_~[\]<>!@|&`\u0000-\u001F\u007F\s]| )*$/;

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

function textToken(text: string): Tokens.Text {
	return {type: 'text', raw: text, text, escaped: false};
}

/** A code span at `at` (a backtick): its token and where it ends, or undefined unless one backtick opens and closes plain code. */
function codeSpan(text: string, at: number): {token: Tokens.Codespan; end: number} | undefined {
	const close = text.indexOf('`', at + 1);
	if (close < 0 || close === at + 1 || text.charCodeAt(close + 1) === 96) {
		return undefined;
	}

	const inner = text.slice(at + 1, close);
	if (inner.includes('\n') || inner.includes('\r') || inner.startsWith(' ') || inner.endsWith(' ')) {
		return undefined;
	}

	return {token: {type: 'codespan', raw: `\`${inner}\``, text: inner}, end: close + 1};
}

/** A `**strong**` run at `at`: between a space (or the start) and a space or punctuation, letters or digits at its edges. */
function strongRun(text: string, at: number): {token: Tokens.Strong; end: number} | undefined {
	if (text.charCodeAt(at + 1) !== 42 || (at > 0 && text.charCodeAt(at - 1) !== 32 && text.charCodeAt(at - 1) !== 10)) {
		return undefined;
	}

	const close = text.indexOf('**', at + 2);
	if (close < 0 || !endsStrong(text.charCodeAt(close + 2))) {
		return undefined;
	}

	const inner = text.slice(at + 2, close);
	if (!strongText.test(inner) || !isAlphanumeric(inner.charCodeAt(inner.length - 1))) {
		return undefined;
	}

	return {token: {type: 'strong', raw: `**${inner}**`, text: inner, tokens: [textToken(inner)]}, end: close + 2};
}

/**
Inline tokens of `text` (a paragraph's or an item's text), or `undefined` unless they are plain
text, code spans (one backtick, no space at either edge of the code) and `**strong**` runs of plain
text between a space (or the line's start) and a space or punctuation.
*/
export function fastInline(text: string): Token[] | undefined {
	if (autolinkStart.test(text)) {
		return undefined;
	}

	const tokens: Token[] = [];
	let plainStart = 0;
	syntax.lastIndex = 0;
	for (let match = syntax.exec(text); match !== null; match = syntax.exec(text)) {
		const at = match.index;
		const found = match[0] === '`' ? codeSpan(text, at) : (match[0] === '*' ? strongRun(text, at) : undefined);
		if (found === undefined) {
			return undefined;
		}

		if (at > plainStart) {
			tokens.push(textToken(text.slice(plainStart, at)));
		}

		tokens.push(found.token);
		plainStart = found.end;
		syntax.lastIndex = found.end;
	}

	if (plainStart < text.length) {
		tokens.push(textToken(text.slice(plainStart)));
	}

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
