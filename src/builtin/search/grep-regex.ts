/**
@module The fallback engine's regular expressions: ripgrep's dialect is Rust's `regex` crate; the
fallback compiles patterns with the linear-time RE2 engine (src/regex/linear-regex.ts), so no
pattern makes it backtrack and block the process. RE2 agrees with Rust on the syntax (inline flags
anywhere, `\pL`, `[[:alpha:]]`, `\A`/`\z`, `\x{…}`, `(?P<name>…)`, `.` matching `\r`; no
backreferences or look-around, which both reject) except:
- Rust's `\w`, `\d`, `\s`, `\b` are Unicode-aware; RE2's are ASCII.
- Rust's class set operations (`[a&&b]`, `[a--b]`, `[a~~b]`) are plain characters to RE2.
- Rust's `(?x)` (verbose) and `(?u)` flags and properties such as `\p{Alphabetic}` are rejected.
- RE2 is more lenient: it accepts `\Q…\E` and escapes of any punctuation.
Matching is line by line in both engines, so no match spans a newline.
*/
import {compileLinearRegex, PatternSyntaxError, type LinearRegex} from '../../regex/linear-regex.js';
import {SearchError} from './search-error.js';

/**
Instructions a grep pattern may compile to. It bounds the compilation (a few µs an instruction) and
the work per character of a line, so the search yields to the event loop often; `\w{1000}` is 1 002,
an alternation of 2 000 words about 12 000. ripgrep's own limit (10 MB of program) is larger.
*/
const GREP_MAX_PROGRAM_SIZE = 20_000;

/** Compile a grep pattern for the fallback engine; throws `SEARCH_INVALID_PATTERN` when RE2 cannot take it. */
export function compileGrepRegex(pattern: string): LinearRegex {
	try {
		return compileLinearRegex(pattern, GREP_MAX_PROGRAM_SIZE);
	} catch (error) {
		if (error instanceof PatternSyntaxError) {
			throw new SearchError(`grep pattern ${error.message}`, 'SEARCH_INVALID_PATTERN');
		}

		throw error;
	}
}
