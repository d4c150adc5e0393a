// The `@` picker on a 100 000-file repository (issue 31).
//   npm run build && node bench/file-picker.mjs [--files N]
// Generates N files (default 100 000) in nested folders under a temp dir, with a .gitignore'd
// node_modules beside them. Prints, as JSON figures: the index build time against two floors of the
// same run — a plain recursive readdir walk (no ignore rule, nothing kept) and the search tools' own
// walk (tree-walk.ts, the ignore rule the index must keep, nothing kept) — the heap the index holds
// (run with --expose-gc), and the time to first results for a few queries against the index (cold:
// no earlier query to narrow from; each must fit one frame, 16 ms), against a floor of one
// `String.includes` scan over the same paths; and the time per keystroke as a person types a query
// (`@`, then each character: each query extends the last, so it looks only at the last one's matches).
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {PathIndex} from '../dist/src/host/path-index.js';
import {SEARCH_IGNORE_RULE, walkFiles} from '../dist/src/builtin/search/tree-walk.js';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {files: {type: 'string', default: '100000'}}});
const files = Number(values.files);
const FRAME_MS = 16;
const root = mkdtempSync(join(tmpdir(), 'cardterm-bench-picker-'));
const words = ['app', 'core', 'util', 'render', 'session', 'parser', 'config', 'model', 'view', 'store', 'network', 'layout'];

// 100 packages × 10 folders × 100 files (for the default N): ~a large monorepo's shape.
for (let index = 0; index < files; index++) {
	const block = Math.floor(index / 100);
	const folder = join(root, 'packages', `${words[Math.floor(block / 10) % words.length]}-${Math.floor(block / 10)}`, 'src', `${words[block % words.length]}${block % 10}`);
	if (index % 100 === 0) {
		mkdirSync(folder, {recursive: true});
	}

	writeFileSync(join(folder, `${words[(index * 7) % words.length]}-${index}.ts`), '');
}

mkdirSync(join(root, 'node_modules', 'dep'), {recursive: true});
for (let index = 0; index < 1000; index++) {
	writeFileSync(join(root, 'node_modules', 'dep', `f${index}.js`), '');
}

writeFileSync(join(root, '.gitignore'), 'node_modules/\n');

async function plainWalk(folder) {
	let count = 0;
	const stack = [folder];
	while (stack.length > 0) {
		const current = stack.pop();
		for (const entry of await readdir(current, {withFileTypes: true})) {
			if (entry.isDirectory()) {
				stack.push(join(current, entry.name));
			} else {
				count++;
			}
		}
	}

	return count;
}

const floorWalk = [];
const searchWalk = [];
const build = [];
let index;
let heap = 0;
for (let run = 0; run < 3; run++) {
	let start = performance.now();
	await plainWalk(root);
	floorWalk.push(performance.now() - start);
	start = performance.now();
	// The walk alone, nothing kept: what the glob and grep tools pay.
	for await (const _ of walkFiles(root, {...SEARCH_IGNORE_RULE, signal: new AbortController().signal})) {
		// Nothing kept.
	}

	searchWalk.push(performance.now() - start);
	index?.close();
	index = undefined;
	globalThis.gc?.();
	const before = process.memoryUsage().heapUsed;
	index = new PathIndex(root);
	start = performance.now();
	await index.start();
	build.push(performance.now() - start);
	globalThis.gc?.();
	heap = process.memoryUsage().heapUsed - before;
}

const indexed = index.find('', 1).indexed;
const figures = [
	figure('index build (100k files) vs a plain readdir walk', build, {floor: floorWalk, target: 'median <= 2000 ms', met: value => value.median <= 2000}),
	figure('index build (100k files) vs the search tools\' walk (the ignore rule)', build, {floor: searchWalk, target: 'ratio <= 1.5', met: value => value.ratio !== null && value.ratio <= 1.5}),
	{name: 'index heap', value: Math.round(heap / 1024 / 1024 * 10) / 10, unit: 'MB', entries: indexed, bytesPerEntry: Math.round(heap / indexed), note: globalThis.gc === undefined ? 'run with --expose-gc for a settled figure' : 'after gc'},
];

const paths = [];
for (const pick of index.find('', 1_000_000).picks) {
	paths.push(pick.path);
}

for (const query of ['session', 'rndr', 'pkg/app-3/src/render', 'cfg42', 'zzzz-none']) {
	const floor = [];
	const first = [];
	for (let run = 0; run < 9; run++) {
		const start = performance.now();
		let found = 0;
		for (const path of paths) {
			if (path.includes(query)) {
				found++;
			}
		}

		floor.push(performance.now() - start);
		// Cold: another query first, so no earlier query narrows this one.
		index.find('x', 1);
		const warm = performance.now();
		const picks = index.find(query, 50).picks;
		first.push(performance.now() - warm);
		if (run === 0) {
			figures.push({name: `query ${JSON.stringify(query)} best`, value: picks[0]?.path ?? null, found: picks.length, includes: found});
		}
	}

	figures.push(figure(`first results for ${JSON.stringify(query)}`, first, {floor, target: `p95 <= ${FRAME_MS} ms (one frame)`, met: value => value.p95 <= FRAME_MS}));
}

// As a person types: `@`, then each character, each query extending the last (what the picker does per keystroke).
for (const typed of ['session', 'rndlay']) {
	const keystrokes = [];
	for (let run = 0; run < 5; run++) {
		index.find('x', 1);
		for (let length = 0; length <= typed.length; length++) {
			const start = performance.now();
			index.find(typed.slice(0, length), 8);
			keystrokes.push(performance.now() - start);
		}
	}

	figures.push(figure(`per keystroke typing "@${typed}"`, keystrokes, {target: `p95 <= ${FRAME_MS} ms (one frame)`, met: value => value.p95 <= FRAME_MS}));
}

index.close();
rmSync(root, {recursive: true, force: true});
for (const each of figures) {
	console.log(JSON.stringify(each));
}
