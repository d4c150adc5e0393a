/**
A strict scanner for what cardterm writes to a terminal. It walks the output the way a terminal's
parser does (ECMA-48: ESC introducers, CSI, OSC, string controls, 7-bit and 8-bit C1) and returns
every sequence or character a terminal would act on other than printing: each one is either allowed
by the caller's rules or reported as a violation.
*/
import {safeLinkTarget} from '../../src/layout/text/link-target.js';

/** One control sequence found in the output. */
export type ScannedSequence =
	| {readonly kind: 'csi'; readonly text: string; readonly parameters: string; readonly intermediates: string; readonly final: string}
	| {readonly kind: 'osc'; readonly text: string; readonly body: string};

/** What may appear besides printable text and newlines. */
export type ScanRules = {
	/** OSC 8 links (to validated http(s)/file URLs) may appear. */
	readonly hyperlinks: boolean;
	/** Cursor sequences Ink's renderer writes (live region and pager). */
	readonly inkCursor: boolean;
	/** Bracketed paste mode on and off (`CSI ?2004h` / `l`), which the interactive session sets for its lifetime. */
	readonly pasteMode?: boolean;
};

/** The whole scan: sequences found in order, and everything not allowed. */
export type ScanResult = {readonly sequences: readonly ScannedSequence[]; readonly violations: readonly string[]};

/**
The non-SGR CSI sequences Ink 6.8's renderer emits (log-update, cursor helpers, synchronized
output): cursor show/hide, synchronized update begin/end, erase line, erase to end of line, cursor
up/down/column/next line. Nothing else; a clear screen (`2J`, `3J`, `H`) would wipe the user's
scrollback and is not allowed.
*/
const inkCsi = /^(?:\?25[hl]|\?2026[hl]|2K|K|\d*A|\d*B|\d*G|E)$/;

/** SGR with numeric parameters only (cardterm's and Ink's styles). */
const sgrParameters = /^(?:\d+(?:;\d+)*)?$/;

/**
Characters a terminal would reorder a row with, hide, or draw at a width of its own: formats (bidi
controls, zero-width characters, soft hyphen, tags), default-ignorables (variation selectors, Hangul
fillers), separators, unassigned code points and lone surrogates (with `u`, a pair is one code point).
*/
const unsafeVisible = /[\p{Cf}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

/** Emoji sequences, whose joiners, style selectors and keycaps are part of the glyph: the only place those may appear. */
const emojiSequence = /(?:\p{Extended_Pictographic}|\p{Emoji}\uFE0F?\u20E3)(?:[\uFE0E\uFE0F]|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:[\uFE0E\uFE0F]|\p{Emoji_Modifier})?)*|\p{Emoji}[\uFE0E\uFE0F]/gu;

function describe(text: string): string {
	return JSON.stringify(text);
}

/** Scans `output`. Violations are described with the offending text JSON-quoted and its offset. */
export function scanTerminalOutput(output: string, rules: ScanRules): ScanResult {
	const sequences: ScannedSequence[] = [];
	const violations: string[] = [];
	let index = 0;
	let linkOpen = false;
	while (index < output.length) {
		const code = output.charCodeAt(index);
		if (code === 0x1b) {
			const introducer = output[index + 1];
			if (introducer === '[') {
				let end = index + 2;
				let parameters = '';
				let intermediates = '';
				while (end < output.length && output.charCodeAt(end) >= 0x30 && output.charCodeAt(end) <= 0x3f) {
					parameters += output[end++];
				}

				while (end < output.length && output.charCodeAt(end) >= 0x20 && output.charCodeAt(end) <= 0x2f) {
					intermediates += output[end++];
				}

				const finalCode = output.charCodeAt(end);
				if (!(finalCode >= 0x40 && finalCode <= 0x7e)) {
					violations.push(`unterminated CSI ${describe(output.slice(index, end + 1))} at ${index}`);
					index = end;
					continue;
				}

				const text = output.slice(index, end + 1);
				const final = output[end]!;
				sequences.push({kind: 'csi', text, parameters, intermediates, final});
				const sgr = final === 'm' && intermediates === '' && sgrParameters.test(parameters);
				const ink = rules.inkCursor && intermediates === '' && inkCsi.test(parameters + final);
				const paste = rules.pasteMode === true && intermediates === '' && /^\?2004[hl]$/.test(parameters + final);
				if (!sgr && !ink && !paste) {
					violations.push(`CSI ${describe(text)} at ${index}`);
				}

				index = end + 1;
				continue;
			}

			if (introducer === ']') {
				// OSC: up to BEL or ST (ESC \). 8-bit ST is itself a violation wherever it appears.
				let end = index + 2;
				while (end < output.length && output[end] !== '\u0007' && !(output[end] === '\u001B' && output[end + 1] === '\\')) {
					end++;
				}

				if (end >= output.length) {
					violations.push(`unterminated OSC ${describe(output.slice(index, index + 40))} at ${index}`);
					break;
				}

				const terminator = output[end] === '\u0007' ? 1 : 2;
				const body = output.slice(index + 2, end);
				const text = output.slice(index, end + terminator);
				sequences.push({kind: 'osc', text, body});
				const link = /^8;;(.*)$/s.exec(body);
				if (!rules.hyperlinks || link === null || terminator !== 2) {
					violations.push(`OSC ${describe(text)} at ${index}`);
				} else if (link[1] === '') {
					if (!linkOpen) {
						violations.push(`OSC 8 close without an open link at ${index}`);
					}

					linkOpen = false;
				} else {
					const url = link[1]!;
					if (linkOpen) {
						violations.push(`OSC 8 opened inside another link at ${index}`);
					}

					linkOpen = true;
					if (safeLinkTarget(url) !== url || !/^(?:https?|file):/.test(url)) {
						violations.push(`OSC 8 to an unvalidated target ${describe(url)} at ${index}`);
					}
				}

				index = end + terminator;
				continue;
			}

			violations.push(`escape ${describe(output.slice(index, index + 2))} at ${index}`);
			index += 2;
			continue;
		}

		if ((code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) {
			violations.push(`control ${describe(output[index]!)} at ${index}`);
		}

		index++;
	}

	if (linkOpen) {
		violations.push('OSC 8 link left open at the end');
	}

	const match = output.replaceAll(emojiSequence, sequence => '_'.repeat(sequence.length)).matchAll(unsafeVisible).next();
	if (match.done !== true) {
		violations.push(`bidi control, invisible, separator, unassigned or lone surrogate ${describe(match.value[0])} at ${match.value.index}`);
	}

	return {sequences, violations};
}
