/**
@module The multi-line construct open at the start of a line (a block comment, a template literal, a
triple-quoted string…), found by a cheap scan of the text above it, not by highlighting it.

A diff card colours only the lines it shows, each contiguous run by itself (highlighting a whole file
to show 20 small hunks costs ~15 µs a line); a run that starts inside a comment opened above it would
then read as code. The highlighter is given the construct's opener on a line of its own first (`/*`,
`` ` ``, `"""`…), which puts it in the state the file is in, and that line's colours are dropped.

The scan knows each grammar family's comments, strings and (JavaScript) regular expression literals,
no keyword, so it costs a small share of highlighting the same text. Checked against highlight.js
highlighting whole files, it agrees at every line start of real files in 11 grammars but where
highlight.js itself misreads; where the scan guesses wrong (a regular expression after `return`, a
Rust raw string) a run is coloured as if the file started there, as every run was before. Grammars
without an entry (Ruby, shell, YAML, INI, Lua, Markdown) are not scanned: their runs start fresh.
*/

/** A construct that may span lines. */
type MultiLine = {
	readonly open: string;
	readonly close: string;
	/** A backslash escapes the next character inside it. */
	readonly escapes: boolean;
	/** `${ … }` inside it is code (a JavaScript template literal). */
	readonly substitution?: boolean;
	/** Letters that may prefix the opener and belong to it (Python's `r`, `b`, `f`). */
	readonly prefixes?: string;
};

/** What a grammar family's text holds besides code, as far as the scan needs to know. */
type Family = {
	readonly lineComments: readonly string[];
	/** Multi-line constructs, longest opener first where one opener starts another (`"""` before `"`). */
	readonly multiLine: readonly MultiLine[];
	/** Quotes of strings that end at their line's end (a backslash escapes). */
	readonly quotes: string;
	/** A `/` where an operand is due starts a regular expression literal (JavaScript): it is skipped, quotes and backticks in it included. */
	readonly regexLiterals?: boolean;
};

const blockComment: MultiLine = {open: '/*', close: '*/', escapes: false};
const template: MultiLine = {open: '`', close: '`', escapes: true, substitution: true};

const cLike: Family = {lineComments: ['//'], multiLine: [blockComment], quotes: '"\''};
const script: Family = {lineComments: ['//'], multiLine: [blockComment, template], quotes: '"\'', regexLiterals: true};
const tripleQuoted: Family = {lineComments: ['//'], multiLine: [blockComment, {open: '"""', close: '"""', escapes: true}], quotes: '"\''};

/** Grammar families by highlight.js grammar name (see highlight-lang.ts). */
const families: ReadonlyMap<string, Family> = new Map([
	['typescript', script],
	['javascript', script],
	['json', cLike],
	['java', cLike],
	['c', cLike],
	['cpp', cLike],
	['csharp', cLike],
	['php', {lineComments: ['//', '#'], multiLine: [blockComment], quotes: '"\''}],
	['go', {lineComments: ['//'], multiLine: [blockComment, {open: '`', close: '`', escapes: false}], quotes: '"\''}],
	// A `'` is a lifetime as often as a character; a `"` string may span lines.
	['rust', {lineComments: ['//'], multiLine: [blockComment, {open: '"', close: '"', escapes: true}], quotes: ''}],
	['kotlin', tripleQuoted],
	['swift', tripleQuoted],
	['css', {lineComments: [], multiLine: [blockComment], quotes: '"\''}],
	['scss', cLike],
	['less', cLike],
	['sql', {lineComments: ['--'], multiLine: [blockComment], quotes: '"\''}],
	['python', {
		lineComments: ['#'],
		multiLine: [
			{open: '"""', close: '"""', escapes: true, prefixes: 'rRbBuUfF'},
			{open: '\'\'\'', close: '\'\'\'', escapes: true, prefixes: 'rRbBuUfF'},
		],
		quotes: '"\'',
	}],
	['xml', {lineComments: [], multiLine: [{open: '<!--', close: '-->', escapes: false}], quotes: ''}],
]);

/**
One open construct: its opener as written (prefix included); for a substitution its open braces; for
a construct without escapes, where its close is once searched (-1: nowhere).
*/
type Open = {readonly construct: MultiLine | undefined; readonly opener: string; depth: number; closeAt?: number};

const BACKSLASH = 0x5C;
const NEWLINE = 0x0A;
const CARRIAGE_RETURN = 0x0D;
const OPEN_BRACE = 0x7B;
const CLOSE_BRACE = 0x7D;
const DOLLAR = 0x24;
const SLASH = 0x2F;
const STAR = 0x2A;

/** Characters after which a `/` starts an operand (a regular expression), not a division. */
const operandDue = '(,=:[!&|?{};+-*%<>~^';

/**
Scans one text forward for the constructs open at each line's start. Outside every construct it
jumps to the next line holding an opener's text (a line without one cannot open anything, and
one-line strings and comments end with their line), so plain code costs a native search; lines with
an opener and the inside of constructs are read character by character. Every search result is kept
until passed, so asked for lines in increasing order it reads the text once; asked for an earlier line
it starts over.
*/
export class OpenConstructs {
	/** Character codes below 128 at which something may start in code: at the top level, and in a substitution (braces too). */
	private readonly starts = new Uint8Array(128);
	private readonly substitutionStarts: Uint8Array;
	/** How far the text is read. */
	private position = 0;
	/** A line start known so far (`lineStart` is where line `line` starts): lines are counted only as far as needed. */
	private line = 0;
	private lineStart = 0;
	/** Open constructs at `position`, innermost last; a substitution (`${`) is an entry with no construct. */
	private stack: Open[] = [];
	/** What can open a construct: each multi-line opener, and a backslash ending a line (a one-line string may go on). */
	private readonly openerTexts: readonly string[];
	/** Per opener text, where it next occurs (-1: nowhere, -2: not searched). */
	private nextOpeners: number[];

	private constructor(private readonly text: string, private readonly family: Family) {
		const continuations = family.quotes === '' ? [] : (text.includes('\r') ? ['\\\n', '\\\r\n'] : ['\\\n']);
		this.openerTexts = [...family.multiLine.map(construct => construct.open), ...continuations];
		this.nextOpeners = this.openerTexts.map(() => -2);
		const prefixes = family.multiLine.map(construct => construct.prefixes ?? '').join('');
		for (const token of [...family.lineComments, ...family.multiLine.map(construct => construct.open), ...family.quotes, ...prefixes, '\\']) {
			this.starts[token.charCodeAt(0)] = 1;
		}

		this.substitutionStarts = this.starts.slice();
		this.substitutionStarts[OPEN_BRACE] = 1;
		this.substitutionStarts[CLOSE_BRACE] = 1;
	}

	/** A scanner of `text` in `grammar` (a highlight.js grammar name), or undefined when the grammar is not scanned. */
	static of(text: string, grammar: string): OpenConstructs | undefined {
		const family = families.get(grammar);
		return family === undefined ? undefined : new OpenConstructs(text, family);
	}

	/**
	The openers of the constructs open at the start of line `line` (0-based: lines split at `\n`; past
	the text's end, at its end), outermost first and joined (`` `${ `` inside a template's
	substitution), or undefined when none is.
	*/
	openerAt(line: number): string | undefined {
		if (line < this.line || (line === this.line && this.position > this.lineStart)) {
			this.position = 0;
			this.line = 0;
			this.lineStart = 0;
			this.stack = [];
			this.nextOpeners = this.openerTexts.map(() => -2);
		}

		for (;;) {
			const top = this.stack.at(-1);
			if (top !== undefined) {
				const target = this.countLines(line, this.text.length);
				if (this.position >= target) {
					return this.stack.map(open => open.opener).join('');
				}

				this.position = top.construct === undefined ? this.scanCode(target, top) : this.scanInside(target, top, top.construct);
				continue;
			}

			// Outside every construct, only a line holding an opener's text can change that.
			const next = this.nextOpening();
			if (next === -1 || this.countLines(line, next) <= next) {
				return undefined;
			}

			this.position = Math.max(this.position, this.text.lastIndexOf('\n', next) + 1);
			const newline = this.text.indexOf('\n', next);
			this.position = this.scanCode(newline === -1 ? this.text.length : newline + 1, undefined);
		}
	}

	/**
	Counts lines up to line `line` but not past the line holding offset `limit`: the start of line
	`line` when reached (the text's length past its end), else Infinity (`limit` is on an earlier line).
	*/
	private countLines(line: number, limit: number): number {
		while (this.line < line) {
			const newline = this.text.indexOf('\n', this.lineStart);
			if (newline === -1) {
				return this.text.length;
			}

			if (newline >= limit) {
				return Number.POSITIVE_INFINITY;
			}

			this.line++;
			this.lineStart = newline + 1;
		}

		return this.lineStart;
	}

	/** Where the next opener's text occurs from the position (-1: nowhere), searching each opener once per occurrence passed. */
	private nextOpening(): number {
		let next = -1;
		for (const [index, opener] of this.openerTexts.entries()) {
			let at = this.nextOpeners[index]!;
			if (at === -2 || (at !== -1 && at < this.position)) {
				at = this.text.indexOf(opener, this.position);
				this.nextOpeners[index] = at;
			}

			next = at !== -1 && (next === -1 || at < next) ? at : next;
		}

		return next;
	}

	/** Code (at the top level, or in the substitution `inside`) from the position: where the next construct starts or ends, or `end`. */
	private scanCode(end: number, inside: Open | undefined): number {
		const {text, family} = this;
		const starts = inside === undefined ? this.starts : this.substitutionStarts;
		let index = this.position;
		while (index < end) {
			const code = text.charCodeAt(index);
			if (code >= 128 || starts[code] === 0) {
				index++;
			} else if (code === BACKSLASH) {
				index += 2;
			} else if (inside !== undefined && code === OPEN_BRACE) {
				inside.depth++;
				index++;
			} else if (inside !== undefined && code === CLOSE_BRACE) {
				if (inside.depth === 0) {
					this.stack.pop();
					return index + 1;
				}

				inside.depth--;
				index++;
			} else if (code === SLASH && family.regexLiterals === true && this.regexAt(index, end)) {
				index = this.regexEnd;
			} else if (this.lineCommentAt(index)) {
				const newline = text.indexOf('\n', index);
				index = newline === -1 || newline >= end ? end : newline;
			} else {
				const opened = this.opening(index);
				if (opened !== undefined) {
					this.stack.push({construct: opened.construct, opener: text.slice(index, opened.end), depth: 0});
					return opened.end;
				}

				if (!family.quotes.includes(text[index]!)) {
					index++;
				} else if ((index = this.skipQuoted(index, end)) < 0) {
					return -index;
				}
			}
		}

		return end;
	}

	/** Where the regular expression literal `regexAt` found ends. */
	private regexEnd = 0;

	/**
	Whether a regular expression literal starts at the `/` at `index`: not a comment, after nothing or
	after punctuation that leaves an operand due (not after a name, a number or a closing bracket: a
	division), closed on its line (a `/` in a character class or escaped does not close it).
	*/
	private regexAt(index: number, end: number): boolean {
		const {text} = this;
		const next = text.charCodeAt(index + 1);
		if (next === SLASH || next === STAR) {
			return false;
		}

		let before = index - 1;
		while (before >= 0 && /\s/.test(text[before]!)) {
			before--;
		}

		if (before >= 0 && !operandDue.includes(text[before]!)) {
			return false;
		}

		let inClass = false;
		for (let at = index + 1; at < end; at++) {
			const code = text.charCodeAt(at);
			if (code === NEWLINE) {
				return false;
			}

			if (code === BACKSLASH) {
				at++;
			} else if (code === 0x5B) {
				inClass = true;
			} else if (code === 0x5D) {
				inClass = false;
			} else if (code === SLASH && !inClass) {
				this.regexEnd = at + 1;
				return true;
			}
		}

		return false;
	}

	private lineCommentAt(index: number): boolean {
		for (const comment of this.family.lineComments) {
			if (this.text.startsWith(comment, index)) {
				return true;
			}
		}

		return false;
	}

	/** The multi-line construct opening at `index` (its prefix letters there included), and where its opener ends. */
	private opening(index: number): {construct: MultiLine; end: number} | undefined {
		const {text} = this;
		for (const construct of this.family.multiLine) {
			let start = index;
			// Up to two prefix letters, not the end of a longer word (`rb"""`, not `herb"""`).
			while (start - index < 2 && construct.prefixes?.includes(text[start] ?? '') === true) {
				start++;
			}

			if (start > index && index > 0 && /\w/.test(text[index - 1]!)) {
				continue;
			}

			if (text.startsWith(construct.open, start)) {
				// A doc comment (`/**`, not `/**/`) is one to the highlighter too: its tags are coloured.
				const doc = construct === blockComment && text.startsWith('/**', start) && !text.startsWith('/**/', start);
				return {construct, end: start + construct.open.length + (doc ? 1 : 0)};
			}
		}

		return undefined;
	}

	/**
	After a one-line string opening at `index`: past its closing quote, or at its line's end; or, when
	a backslash ends its line (the string goes on, as C and CSS allow), minus where the next line
	starts, the string pushed as open.
	*/
	private skipQuoted(index: number, end: number): number {
		const {text} = this;
		const quote = text.charCodeAt(index);
		let at = index + 1;
		while (at < end) {
			const code = text.charCodeAt(at);
			if (code === BACKSLASH) {
				const lineEnd = text.charCodeAt(at + 1) === CARRIAGE_RETURN ? at + 2 : at + 1;
				if (text.charCodeAt(lineEnd) === NEWLINE) {
					const close = text[index]!;
					// The opener ends in the backslash too, so the highlighter reads the string as going on.
					this.stack.push({construct: {open: close, close, escapes: true}, opener: `${close}\\`, depth: 0});
					return -(lineEnd + 1);
				}

				at += 2;
			} else if (code === quote) {
				return at + 1;
			} else if (code === NEWLINE) {
				return at;
			} else {
				at++;
			}
		}

		return end;
	}

	/** Inside `construct` (opened as `open`) from the position: past its close (popping it), past a substitution's `${` (pushing one), or `end`. */
	private scanInside(end: number, open: Open, construct: MultiLine): number {
		const {text} = this;
		if (!construct.escapes && construct.substitution !== true) {
			open.closeAt ??= text.indexOf(construct.close, this.position);
			if (open.closeAt === -1 || open.closeAt >= end) {
				return end;
			}

			this.stack.pop();
			return open.closeAt + construct.close.length;
		}

		const close = construct.close.charCodeAt(0);
		let index = this.position;
		while (index < end) {
			const code = text.charCodeAt(index);
			if (code === BACKSLASH && construct.escapes) {
				index += 2;
			} else if (code === close && text.startsWith(construct.close, index)) {
				this.stack.pop();
				return index + construct.close.length;
			} else if (code === DOLLAR && construct.substitution === true && text.charCodeAt(index + 1) === OPEN_BRACE) {
				this.stack.push({construct: undefined, opener: '${', depth: 0});
				return index + 2;
			} else {
				index++;
			}
		}

		return end;
	}
}
