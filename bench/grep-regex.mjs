// The linear-time regex engine (RE2, src/regex/linear-regex.ts) against V8's backtracking RegExp,
// measured in the same run on the same input (issue 11, items 5 and 6). Run after `npm run build`:
//   node bench/grep-regex.mjs
// Prints one JSON object per figure: {"name","median","p95","unit","floor","ratio","runs"}, where
// `floor` is V8's RegExp doing the same work, interleaved with the figure, and `ratio` = median / floor.
// - grep fallback: `grepInProcess` over this repository's src/ (walk, read, split, match) against the
//   same files walked, read and split with each line tested by V8's RegExp.
// - matching alone: every line of src/ in memory, RE2 `test` against V8 `test`.
// - highlight: the grep card body of 250 matches of 2 000-character lines, against the same body
//   with a pattern that does not compile (no highlight); the last figure is the card budget's worst case.
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {grepInProcess} from '../dist/src/builtin/search/grep-fallback.js';
import {compileGrepRegex} from '../dist/src/builtin/search/grep-regex.js';
import {walkFiles} from '../dist/src/builtin/search/tree-walk.js';
import {layoutSearchMatchesBody} from '../dist/src/layout/cards/search-card.js';
import {colorTheme} from '../dist/src/layout/text/theme.js';
import {figure} from './lib/stats.mjs';

const root = join(import.meta.dirname, '..');
const target = join(root, 'src');
const signal = new AbortController().signal;

/** Ripgrep-dialect patterns that V8 also reads (a leading `(?i)` becomes the `i` flag). */
const patterns = ['DEBUG', 'function \\w+\\(', '(?i)error', 'import .* from', '\\bconst\\b', 'TODO|FIXME|XXX'];
const v8Regex = (pattern) => (pattern.startsWith('(?i)') ? new RegExp(pattern.slice(4), 'iu') : new RegExp(pattern, 'u'));

/** Figure and floor samples alternate, so both see the same machine load. */
async function report(name, run, floorRun, {warmup = 3, samples = 15} = {}) {
	const time = async (body) => {
		const started = performance.now();
		await body();
		return performance.now() - started;
	};

	for (let index = 0; index < warmup; index++) {
		await run();
		await floorRun();
	}

	const runs = [];
	const floors = [];
	for (let index = 0; index < samples; index++) {
		runs.push(await time(run));
		floors.push(await time(floorRun));
	}

	console.log(JSON.stringify(figure(name, runs, {floor: floors})));
}

const files = [];
for await (const file of walkFiles(target, {respectIgnore: true, includeHidden: false, signal})) {
	files.push(file);
}

const lines = (await Promise.all(files.map(async (file) => (await readFile(file, 'utf8')).split('\n')))).flat();
const bytes = lines.reduce((total, line) => total + Buffer.byteLength(line) + 1, 0);
const tree = `${files.length} files, ${Math.round(bytes / 1024)} KB`;

for (const pattern of patterns) {
	const v8 = v8Regex(pattern);
	const request = {pattern, target, targetIsFile: false, workspace: root, signal, rawOutputMaxBytes: 1e9};
	await report(`grep fallback over src/ (${tree}), pattern ${pattern}`, () => grepInProcess(request), async () => {
		const found = [];
		for await (const file of walkFiles(target, {respectIgnore: true, includeHidden: false, signal})) {
			for (const line of (await readFile(file, 'utf8')).split('\n')) {
				if (v8.test(line)) {
					found.push(line);
				}
			}
		}
	});
}

for (const pattern of patterns) {
	const re2 = compileGrepRegex(pattern);
	const v8 = v8Regex(pattern);
	await report(`matching alone, ${lines.length} lines of src/, pattern ${pattern}`, () => lines.filter((line) => re2.test(line)), () => lines.filter((line) => v8.test(line)));
}

const context = {width: 120, theme: colorTheme, expansion: 'full'};
const card = (line) => ({card: 'search', shape: 'matches', files: [{path: 'a.ts', matches: Array.from({length: 250}, (_, index) => ({lineNumber: index + 1, line}))}], truncated: false, total: 250});
const long = card(`${'x'.repeat(1000)}Error${'y'.repeat(995)}`);
const unhighlighted = () => layoutSearchMatchesBody(long, '(unclosed', context);
await report('grep card highlight, 250 matches of 2000-character lines, pattern (?i)error', () => layoutSearchMatchesBody(long, '(?i)error', context), unhighlighted);
// The slowest steps per character (300 classes alive at once) until the card's budget is spent.
const letters = card('é'.repeat(2000));
await report('grep card highlight, budget worst case: pattern [\\pL\\pN]{300} on 250 lines of 2000 letters', () => layoutSearchMatchesBody(letters, '[\\pL\\pN]{300}', context), () => layoutSearchMatchesBody(letters, '(unclosed', context));
