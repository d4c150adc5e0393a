/**
@module The fallback engine's regular expressions. ripgrep's dialect is Rust's `regex` crate; the
fallback uses JavaScript's `RegExp`, which agrees on the everyday syntax (classes, `\d \w \s \b`,
anchors, groups, alternation, repetition, non-greedy quantifiers) but not everywhere:
- Rust's `\w`, `\d`, `\b` are Unicode-aware; JavaScript's are ASCII (also with the `u` flag).
- JavaScript accepts look-around and backreferences; ripgrep (without PCRE2) rejects them.
- Rust's inline flags are supported only as a leading group: `(?i)`, `(?s)`, `(?m)` (`m` changes
  nothing for line-by-line matching); `(?x)` and flags in the middle of a pattern are rejected.
- Rust's `\A`, `\z`, `\pL`-style classes without braces and `[[:alpha:]]` classes are not understood.
Matching is line by line in both engines, so no match spans a newline.
*/
import {SearchError} from './search-error.js';

const LEADING_FLAGS = /^\(\?([a-zA-Z]+)\)/u;

/** Compile a grep pattern for the fallback engine; throws `SEARCH_INVALID_PATTERN` when JavaScript cannot take it. */
export function compileGrepRegex(pattern: string): RegExp {
	let source = pattern;
	let flags = '';
	const leading = LEADING_FLAGS.exec(pattern);
	if (leading !== null) {
		for (const flag of leading[1]!) {
			if (flag === 'i' || flag === 's') {
				flags += flags.includes(flag) ? '' : flag;
			} else if (flag !== 'm') {
				throw new SearchError(`grep pattern uses the inline flag "${flag}", which the built-in engine does not support`, 'SEARCH_INVALID_PATTERN');
			}
		}

		source = pattern.slice(leading[0].length);
	}

	try {
		return new RegExp(source, `${flags}u`);
	} catch {
		// Rust accepts escapes of any punctuation (`\-`, `\"`), which the `u` flag rejects.
	}

	try {
		return new RegExp(source, flags);
	} catch (error) {
		throw new SearchError(`grep pattern is not a valid regular expression: ${(error as Error).message}`, 'SEARCH_INVALID_PATTERN');
	}
}
