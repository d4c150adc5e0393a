// Diff card layout benchmark (issue 7 "Cards" targets). Run after `npm run build`:
//   node bench/diff-layout.mjs
// Prints one JSON object per figure: {"name","median","p95","unit","floor","ratio","cpu","cpuFloor"}, where
// `floor` is measured in the same run on the same input, `ratio` = median / floor median, and `cpu` /
// `cpuFloor` are the medians of the process's CPU time per sample (user + system, every thread: GC
// and compilers included), which other processes on a shared machine inflate far less than wall time.
// Targets: 2 000 lines with 20 edits ≤ 5 ms; 20 000 lines with 20 edits ≤ 50 ms; 20 000 lines with
// half the lines rewritten (approximate card) ≤ 100 ms.
// `--baseline DIR` (another build's `dist`, inside this checkout so its packages resolve, e.g. a copy
// of main's in `.bench/`) also times that build on every figure, interleaved with this one, and adds
// `baseline` / `baselineCpu` (its medians) and `speedup` (baseline CPU / CPU): before and after in one run.
import {createRequire} from 'node:module';
import {resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {structuredPatch} from 'diff';
import {layoutDiffBody} from '../dist/src/layout/cards/diff-card.js';
import {highlightLines} from '../dist/src/layout/highlight/highlight.js';
import {colorTheme} from '../dist/src/layout/text/theme.js';

const baselineFlag = process.argv.indexOf('--baseline');
const baselineDir = baselineFlag === -1 ? undefined : process.argv[baselineFlag + 1];
const baselineModule = async path => import(pathToFileURL(resolve(baselineDir, path)).href);
const baseline = baselineDir === undefined ? undefined : {
	layoutDiffBody: (await baselineModule('src/layout/cards/diff-card.js')).layoutDiffBody,
	highlightLines: (await baselineModule('src/layout/highlight/highlight.js')).highlightLines,
};

const ctx = {width: 100, theme: colorTheme, expansion: 'bounded'};

/** A deterministic pseudo-random source (LCG), so every run measures the same inputs. */
function random(seed) {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state / 2_147_483_648;
	};
}

function sourceLines(count, seed) {
	const next = random(seed);
	return Array.from({length: count}, (_, index) => {
		const indent = '\t'.repeat(Math.floor(next() * 3));
		return `${indent}const value${index} = compute(${Math.floor(next() * 1e6)}, 'key ${index}'); // step ${index}`;
	});
}

/** A file and a copy with `edits` scattered single-line edits. */
function scatteredEdits(count, edits, seed) {
	const next = random(seed + 1);
	const before = sourceLines(count, seed);
	const after = [...before];
	for (let edit = 0; edit < edits; edit++) {
		const index = Math.floor(next() * count);
		after[index] = after[index].replace('compute(', 'recompute(');
	}

	return {oldText: `${before.join('\n')}\n`, newText: `${after.join('\n')}\n`};
}

/** A file and a copy with every other line rewritten. */
function halfRewritten(count, seed) {
	const before = sourceLines(count, seed);
	const after = before.map((line, index) => (index % 2 === 1 ? `${line} // rewritten ${index}` : line));
	return {oldText: `${before.join('\n')}\n`, newText: `${after.join('\n')}\n`};
}

const percentiles = times => {
	const sorted = [...times].sort((left, right) => left - right);
	return {median: sorted[Math.floor((sorted.length - 1) / 2)], p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]};
};

const round = value => Math.round(value * 1000) / 1000;

const cpuMs = () => {
	const {user, system} = process.cpuUsage();
	return (user + system) / 1000;
};

/** Wall and CPU milliseconds of one call. */
const time = run => {
	const cpuStarted = cpuMs();
	const started = performance.now();
	run();
	return {wall: performance.now() - started, cpu: cpuMs() - cpuStarted};
};

/**
Figure and floor samples alternate, so both see the same machine load; with `--baseline`,
`baselineRun` (the same figure on the other build) takes its turn in the same rotation.
*/
function report(name, run, floorRun, {warmup = 3, samples = 15, baselineRun} = {}) {
	const withBaseline = baseline !== undefined && baselineRun !== undefined;
	for (let index = 0; index < warmup; index++) {
		run();
		floorRun();
		if (withBaseline) {
			baselineRun();
		}
	}

	const figureTimes = [];
	const floorTimes = [];
	const baselineTimes = [];
	for (let index = 0; index < samples; index++) {
		figureTimes.push(time(run));
		floorTimes.push(time(floorRun));
		if (withBaseline) {
			baselineTimes.push(time(baselineRun));
		}
	}

	const figure = percentiles(figureTimes.map(sample => sample.wall));
	const floor = percentiles(floorTimes.map(sample => sample.wall));
	const cpu = percentiles(figureTimes.map(sample => sample.cpu)).median;
	const baselineCpu = withBaseline ? percentiles(baselineTimes.map(sample => sample.cpu)).median : undefined;
	console.log(JSON.stringify({
		name,
		median: round(figure.median),
		p95: round(figure.p95),
		unit: 'ms',
		floor: round(floor.median),
		ratio: round(figure.median / floor.median),
		cpu: round(cpu),
		cpuFloor: round(percentiles(floorTimes.map(sample => sample.cpu)).median),
		...(withBaseline ? {
			baseline: round(percentiles(baselineTimes.map(sample => sample.wall)).median),
			baselineCpu: round(baselineCpu),
			speedup: round(baselineCpu / cpu),
		} : {}),
	}));
}

const splitBoth = ({oldText, newText}) => {
	oldText.split('\n');
	newText.split('\n');
};

// A fresh FileDiff object per sample, so the per-object cache never answers.
const fresh = (path, sides, layout = layoutDiffBody) => () => layout([{path, ...sides}], ctx);

const patchFloor = sides => () => structuredPatch('a', 'a', sides.oldText, sides.newText, '', '', {context: 3});

const small = scatteredEdits(2000, 20, 1);
const large = scatteredEdits(20_000, 20, 2);
const rewritten = halfRewritten(20_000, 3);

// Load the highlighter before timing: its one-time require is not a per-card cost.
highlightLines(['const x = 1;'], 'ts');
baseline?.highlightLines(['const x = 1;'], 'ts');

const full = {...ctx, expansion: 'full'};
const freshFull = (path, sides, layout = layoutDiffBody) => () => layout([{path, ...sides}], full);
const againstBaseline = (make, path, sides) => (baseline === undefined ? {} : {baselineRun: make(path, sides, baseline.layoutDiffBody)});

report('diff-layout 2000 lines 20 edits (bounded)', fresh('src/file.ts', small), patchFloor(small), againstBaseline(fresh, 'src/file.ts', small));
report('diff-layout 2000 lines 20 edits (full, syntax colours)', freshFull('src/file.ts', small), patchFloor(small), againstBaseline(freshFull, 'src/file.ts', small));
report('diff-layout 20000 lines 20 edits (bounded)', fresh('src/file.ts', large), patchFloor(large), {samples: 9, ...againstBaseline(fresh, 'src/file.ts', large)});
report('diff-layout 20000 lines 20 edits (full, syntax colours)', freshFull('src/file.ts', large), patchFloor(large), {samples: 9, ...againstBaseline(freshFull, 'src/file.ts', large)});
// Past the line diff's short first try (64 edits) yet exact: the path where proving a rewrite out of reach would be wasted.
const hundredEdits = scatteredEdits(20_000, 100, 5);
report('diff-layout 20000 lines 100 edits (bounded)', fresh('src/file.ts', hundredEdits), patchFloor(hundredEdits), {samples: 9, ...againstBaseline(fresh, 'src/file.ts', hundredEdits)});
report('diff-layout 20000 lines half rewritten (approximate, bounded)', fresh('src/file.ts', rewritten), () => splitBoth(rewritten), {samples: 9, ...againstBaseline(fresh, 'src/file.ts', rewritten)});

// The common edit card: the tool's applied hunks (3 lines of context) as one FileDiff each.
const patch = structuredPatch('a', 'a', small.oldText, small.newText, '', '', {context: 3});
const hunks = patch.hunks.map(hunk => {
	const side = mark => hunk.lines.filter(line => line[0] === ' ' || line[0] === mark).map(line => line.slice(1)).join('\n');
	return {path: 'src/file.ts', oldText: side('-'), newText: side('+')};
});
report(`diff-layout ${hunks.length} applied hunks of a 2000-line file (bounded, syntax colours)`, () => layoutDiffBody(hunks.map(hunk => ({...hunk})), ctx), patchFloor(small), baseline === undefined ? {} : {baselineRun: () => baseline.layoutDiffBody(hunks.map(hunk => ({...hunk})), ctx)});

// A redraw (another width, same FileDiff object) reuses the cached line diff and highlights.
const cachedDiff = [{path: 'src/file.ts', ...small}];
layoutDiffBody(cachedDiff, ctx);
const cachedBaselineDiff = [{path: 'src/file.ts', ...small}];
baseline?.layoutDiffBody(cachedBaselineDiff, ctx);
report('diff-layout 2000 lines 20 edits, cached relayout at another width', () => layoutDiffBody(cachedDiff, {...ctx, width: 60}), () => splitBoth(small), baseline === undefined ? {} : {baselineRun: () => baseline.layoutDiffBody(cachedBaselineDiff, {...ctx, width: 60})});

// Highlighting 400 lines (the size limit) against highlight.js's own highlight call on the same code
// (the floor: what colouring costs before any of ours).
const code = sourceLines(400, 4);
const hljs = createRequire(import.meta.url)('highlight.js');
report('highlightLines 400 TypeScript lines', () => highlightLines(code, 'ts'), () => hljs.highlight(code.join('\n'), {language: 'typescript', ignoreIllegals: true}), baseline === undefined ? {} : {baselineRun: () => baseline.highlightLines(code, 'ts')});
