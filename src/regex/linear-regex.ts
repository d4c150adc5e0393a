/**
@module Regular expressions that cannot backtrack. A pattern written by a model or read from a log is
compiled with RE2 (the pure-JavaScript `re2js` port), whose matching time is linear in the input:
no pattern can make a search or a highlight take exponential time. RE2's syntax is ripgrep's own
family (Rust's `regex` crate): no backreferences, no look-around, inline flags anywhere, `\pL`,
`[[:alpha:]]`, `\A`/`\z`, `.` matching everything but `\n`. Rust's `\u`/`\U` escapes are rewritten
to RE2's `\x{…}`. What still differs from ripgrep is listed in src/builtin/search/grep-regex.ts.
*/
import {createRequire} from 'node:module';
import type {RE2JS as Re2Pattern, RE2JSSyntaxException} from 're2js';

/** A pattern the linear engine cannot take; `message` reads after "pattern " ("is not valid: …"). */
export class PatternSyntaxError extends Error {
	override readonly name = 'PatternSyntaxError';
}

/** The matches one scan found, and the bound of the steps it took. */
type MatchScan = {readonly ranges: Array<readonly [number, number]>; readonly work: number};

/**
A compiled pattern. Offsets are UTF-16 indices into the searched string. Work is counted in engine
steps bounded from above: scanning `n` characters costs at most the program size times `n + 1`.
*/
export type LinearRegex = {
	/** Whether the pattern matches anywhere in `text`. */
	readonly test: (text: string) => boolean;
	/** The bound of `test(text)`'s work. */
	readonly testWork: (text: string) => number;
	/**
	The first `maxMatches` non-empty matches, leftmost first, as `[start, end)` (empty matches carry
	nothing to show). Each search for the next match may rescan the rest of the text (`.*z|a` does),
	so each is charged the rest's bound, and the scan stops before one that would exceed `maxWork`.
	*/
	readonly scan: (text: string, limits: {readonly maxMatches: number; readonly maxWork: number}) => MatchScan;
};

/** re2js is loaded on first use (its 260 KB cost start-up for every command, most of which never search). */
let engine: typeof import('re2js') | undefined;
function re2(): typeof import('re2js') {
	engine ??= createRequire(import.meta.url)('re2js') as typeof import('re2js');
	return engine;
}

const RUST_UNICODE_ESCAPE = /^\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|[uU]\{([0-9A-Fa-f]+)\})/;

/** Rewrite Rust's `\u0041`, `\u{41}`, `\U00000041` to `\x{41}`; every other escape is kept as written. */
function toRe2Syntax(pattern: string): string {
	let out = '';
	for (let index = 0; index < pattern.length; index++) {
		if (pattern[index] !== '\\') {
			out += pattern[index];
			continue;
		}

		const unicode = RUST_UNICODE_ESCAPE.exec(pattern.slice(index, index + 12));
		if (unicode === null) {
			out += pattern.slice(index, index + 2);
		} else {
			out += `\\x{${unicode[1] ?? unicode[2] ?? unicode[3]}}`;
			index += unicode[0].length - 2;
		}

		index += 1;
	}

	return out;
}

const COUNTED_REPEAT = /^\{(\d+)(?:,(\d*))?\}/;

/**
An upper bound of the instructions RE2 compiles `pattern` to, read from the text alone, so that a
short pattern whose counted repetitions expand it (`(?:\pL{30}){30}`, 900 classes) can be refused
before paying for its compilation. Each atom (character, escape, class, group) counts what RE2's
size check counts; a quantifier applies to the atom before it.
*/
export function programSizeBound(pattern: string): number {
	const groups: Array<{size: number; last: number}> = [{size: 0, last: 0}];
	const add = (size: number): void => {
		const group = groups.at(-1)!;
		group.size += size;
		group.last = size;
	};

	for (let index = 0; index < pattern.length; index++) {
		const char = pattern[index]!;
		const group = groups.at(-1)!;
		const repeat = char === '{' ? COUNTED_REPEAT.exec(pattern.slice(index, index + 16)) : null;
		if (repeat !== null) {
			const min = Number(repeat[1]);
			const max = repeat[2] === undefined ? min : repeat[2] === '' ? -1 : Number(repeat[2]);
			const repeated = Math.max(1, max === -1 ? 2 + Math.max(1, min) * group.last : max * group.last + (max - min));
			group.size += repeated - group.last;
			group.last = repeated;
			index += repeat[0].length - 1;
		} else if (char === '*' || char === '+' || char === '?') {
			group.size += 2;
			group.last += 2;
		} else if (char === '(') {
			groups.push({size: 0, last: 0});
		} else if (char === ')' && groups.length > 1) {
			// An empty group or alternative still compiles to one instruction.
			add(Math.max(1, groups.pop()!.size) + 2);
		} else if (char === '|') {
			add(2);
		} else if (char === '\\') {
			// `\p{Greek}`, `\x{41}`: the braces belong to the escape.
			const braced = pattern[index + 2] === '{' && 'pPx'.includes(pattern[index + 1] ?? '') ? pattern.indexOf('}', index) : -1;
			index = braced === -1 ? index + 1 : braced;
			add(1);
		} else if (char === '[') {
			index = classEnd(pattern, index);
			add(1);
		} else {
			add(1);
		}
	}

	// Every program also holds the whole match's capture, the match and a fail instruction.
	return groups.reduce((total, group) => total + group.size, 0) + 3;
}

/** The index of the `]` closing the class that opens at `start` (the pattern's end when unclosed). */
function classEnd(pattern: string, start: number): number {
	let index = start + 1;
	index += pattern[index] === '^' ? 1 : 0;
	index += pattern[index] === ']' ? 1 : 0;
	for (; index < pattern.length; index++) {
		if (pattern[index] === '\\') {
			index += 1;
		} else if (pattern.startsWith('[:', index)) {
			const close = pattern.indexOf(':]', index + 2);
			index = close === -1 ? index : close + 1;
		} else if (pattern[index] === ']') {
			return index;
		}
	}

	return pattern.length;
}

/** RE2's reason, worded for the reader: what in the pattern is not supported, and where. */
function syntaxMessage(error: RE2JSSyntaxException): string {
	const description = error.getDescription();
	const where = error.getPattern() ?? '';
	if (description === 'invalid or unsupported Perl syntax' && /^\(\?[a-zA-Z-]*[a-zA-Z]$/.test(where)) {
		return `uses the inline flag "${where.at(-1)!}", which the built-in engine does not support`;
	}

	// RE2 reads a look-behind as a malformed named group: name both by their opening.
	const lookAround = /^\(\?<?[=!]/.exec(where);
	if (lookAround !== null) {
		return `uses look-around \`${lookAround[0]}\`, which ripgrep's dialect does not support`;
	}

	if (description === 'invalid escape sequence' && /^\\[1-9]/.test(where)) {
		return `uses a backreference \`${where}\`, which ripgrep's dialect does not support`;
	}

	return `is not a valid regular expression: ${description}${where === '' ? '' : `: \`${where}\``}`;
}

/**
Compile `pattern` for linear-time matching. Refuses, with a `PatternSyntaxError`, syntax RE2 does
not take and a pattern whose program would exceed `maxProgramSize` instructions (checked before
compiling by `programSizeBound`, and after it exactly).
*/
export function compileLinearRegex(pattern: string, maxProgramSize: number): LinearRegex {
	const tooLarge = (size: number) => new PatternSyntaxError(`is too large: it compiles to about ${size} instructions, more than the ${maxProgramSize} allowed`);
	const bound = programSizeBound(pattern);
	if (bound > maxProgramSize) {
		throw tooLarge(bound);
	}

	const {RE2JS, RE2JSSyntaxException: SyntaxException} = re2();
	let compiled: Re2Pattern;
	try {
		compiled = RE2JS.compile(toRe2Syntax(pattern));
	} catch (error) {
		if (error instanceof SyntaxException) {
			throw new PatternSyntaxError(syntaxMessage(error));
		}

		// Never a crash on odd input, whatever else the engine throws.
		throw new PatternSyntaxError(`is not a valid regular expression: ${(error as Error).message}`);
	}

	const size = compiled.programSize();
	if (size > maxProgramSize) {
		throw tooLarge(size);
	}

	return {
		test: (text) => compiled.test(text),
		testWork: (text) => size * (text.length + 1),
		scan(text, {maxMatches, maxWork}) {
			const rest = (from: number) => size * (text.length - from + 1);
			const ranges: Array<readonly [number, number]> = [];
			const matcher = compiled.matcher(text);
			let work = 0;
			let from = 0;
			while (ranges.length < maxMatches && from <= text.length && work + rest(from) <= maxWork) {
				work += rest(from);
				if (!matcher.find()) {
					break;
				}

				const [start, end] = [matcher.start(), matcher.end()];
				if (end > start) {
					ranges.push([start, end]);
				}

				from = end > start ? end : end + 1;
			}

			return {ranges, work};
		},
	};
}
