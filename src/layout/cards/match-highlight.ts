/**
@module The search card's match highlight. The pattern is read from the log, so it is compiled with
the linear-time engine (no pattern can make the renderer backtrack), and each card gets a budget of
engine work: lines laid out after the budget is spent are shown without highlight. A pattern the
engine cannot take (or too large to be worth compiling) highlights nothing; the card still renders.
A match covers whole graphemes (`wholeGraphemes`), so the pieces read as the line does.
*/
import {compileLinearRegex, PatternSyntaxError, type LinearRegex} from '../../regex/linear-regex.js';
import {wholeGraphemes} from '../text/text-width.js';

/** Longest pattern compiled for a highlight (compiling costs about 2 µs a character). */
export const HIGHLIGHT_MAX_PATTERN_LENGTH = 4096;
/** Largest program compiled for a highlight (a few µs an instruction; a typical grep pattern is under 50). */
const HIGHLIGHT_MAX_PROGRAM_SIZE = 2000;
/**
Engine steps one card may spend highlighting, counted as bounds (see `LinearRegex.scan`). 250 lines
of 100 characters with one match each fit for a program of up to 80 instructions; of 2 000
characters, up to 4 (`(?i)error` is 7: its first 150 such lines are highlighted).
*/
const HIGHLIGHT_WORK_BUDGET = 1 << 22;

/** A piece of a matched line: matched text or the plain text between matches. */
export type MatchPiece = {readonly text: string; readonly match: boolean};

/** Splits a line into pieces, highlighting at most `maxMatches` matches. */
export type MatchHighlighter = (line: string, maxMatches: number) => MatchPiece[];

/** Compiled patterns kept (a session greps for the same few words again and again; compiling is the costly part). */
const COMPILED_PATTERNS_KEPT = 256;
const compiled = new Map<string, LinearRegex | undefined>();

function compileForHighlight(pattern: unknown): LinearRegex | undefined {
	if (typeof pattern !== 'string' || pattern === '' || pattern.length > HIGHLIGHT_MAX_PATTERN_LENGTH) {
		return undefined;
	}

	if (compiled.has(pattern)) {
		return compiled.get(pattern);
	}

	let regex: LinearRegex | undefined;
	try {
		regex = compileLinearRegex(pattern, HIGHLIGHT_MAX_PROGRAM_SIZE);
	} catch (error) {
		if (!(error instanceof PatternSyntaxError)) {
			throw error;
		}
	}

	if (compiled.size >= COMPILED_PATTERNS_KEPT) {
		compiled.delete(compiled.keys().next().value!);
	}

	compiled.set(pattern, regex);
	return regex;
}

/** One card's highlighter; its lines share the card's work budget, in the order they are laid out. */
export function matchHighlighter(pattern: unknown): MatchHighlighter {
	const regex = compileForHighlight(pattern);
	let budget = HIGHLIGHT_WORK_BUDGET;
	return (line, maxMatches) => {
		if (regex === undefined) {
			return [{text: line, match: false}];
		}

		const {ranges, work} = regex.scan(line, {maxMatches, maxWork: budget});
		budget -= work;
		const pieces: MatchPiece[] = [];
		let last = 0;
		for (const [start, end] of wholeGraphemes(line, ranges)) {
			if (start > last) {
				pieces.push({text: line.slice(last, start), match: false});
			}

			pieces.push({text: line.slice(start, end), match: true});
			last = end;
		}

		if (last < line.length) {
			pieces.push({text: line.slice(last), match: false});
		}

		return pieces;
	};
}
