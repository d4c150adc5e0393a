/**
@module A cheap look at JSON text before `JSON.parse`: how deep its arrays and objects nest and how
many there are, counting only brackets outside strings. JSON.parse of container-dense text costs
30–60 bytes of heap per container (a 20 MB line of nested arrays takes over 500 MB), so a reader of
untrusted lines checks this first. Works on any text (invalid JSON too); stops at the first bound.
*/

/** What the scan found past a bound, or `undefined` within both. */
export type NestingExcess = {readonly kind: 'depth'; readonly limit: number} | {readonly kind: 'containers'; readonly limit: number};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Whether `text` nests deeper than `maxDepth` or holds more than `maxContainers` arrays and objects. */
export function scanJsonNesting(text: string, maxDepth: number, maxContainers: number): NestingExcess | undefined {
	// Each level and each container opens with a bracket: text with no more brackets than either
	// bound (strings counted too) is within both, found by a few searches instead of a walk.
	if (openingBrackets(text, Math.min(maxDepth, maxContainers)) <= Math.min(maxDepth, maxContainers)) {
		return undefined;
	}

	let depth = 0;
	let containers = 0;
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === QUOTE) {
			at = stringEnd(text, at + 1);
		} else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
			depth++;
			containers++;
			if (depth > maxDepth) {
				return {kind: 'depth', limit: maxDepth};
			}

			if (containers > maxContainers) {
				return {kind: 'containers', limit: maxContainers};
			}
		} else if ((code === CLOSE_ARRAY || code === CLOSE_OBJECT) && depth > 0) {
			depth--;
		}
	}

	return undefined;
}

/** Index of the quote that closes the string whose contents start at `from` (text length when none). */
function stringEnd(text: string, from: number): number {
	for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
		// Escaped when an odd number of backslashes precede it.
		let slashes = 0;
		while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) {
			slashes++;
		}

		if (slashes % 2 === 0) {
			return at;
		}
	}

	return text.length;
}

/** How many `[` and `{` `text` holds, counted up to one past `limit`. */
function openingBrackets(text: string, limit: number): number {
	let count = 0;
	for (let at = text.indexOf('['); at !== -1 && count <= limit; at = text.indexOf('[', at + 1)) {
		count++;
	}

	for (let at = text.indexOf('{'); at !== -1 && count <= limit; at = text.indexOf('{', at + 1)) {
		count++;
	}

	return count;
}
