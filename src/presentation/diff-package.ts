/**
@module The `diff` package, loaded on first use: it is 19 ES modules, and what never diffs (a replay
of cards without a diff, a start-up) runs without it. Synchronous, as its callers are, so it is a
`require` of the ES module (Node ≥ 20.19). Here, above builtin and layout, for the edit tool's hunks
and the diff card's line and word diffs alike.
*/
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);

/** The `diff` package (loaded by the first call). */
export function diffPackage(): typeof import('diff') {
	return require('diff') as typeof import('diff');
}
