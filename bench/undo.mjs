// What `/undo` costs (issue 20): the shadow snapshot taken at each turn's start and end, and the undo
// of a turn that changed 100 files.
//   npm run build && node bench/undo.mjs [--files N] [--runs R]
// A tree of N files (default 10 000, in 100 folders, ~1 KiB each) is a git repository of its own.
// - snapshot: the shadow repository's snapshot after a turn changed 5 files (`git add -A` over the
//   shadow index, a tree, a ref), the first (cold: every file hashed) apart. Floor: the user's own
//   `git status` on the same tree, which stats every file as the snapshot must.
// - undo: a turn of 100 `edit` calls (one per file), then `/undo` (plan, reverse hunks, write, record
//   100 cards); and a turn whose shell command changed 100 files, undone from the snapshots. Floor:
//   writing the same 100 files back directly.
// Prints one JSON figure per line.
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {openSession} from '../dist/src/host/open-session.js';
import {nativeUndo} from '../dist/src/host/session-undo.js';
import {ShadowGit} from '../dist/src/host/shadow-git.js';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {files: {type: 'string', default: '10000'}, runs: {type: 'string', default: '12'}}});
const fileCount = Number(values.files);
const runs = Number(values.runs);
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-undo-'));
const tree = join(work, 'tree');
const fileAt = index => join(tree, `dir${Math.floor(index / 100)}`, `file${index % 100}.ts`);
const body = index => `// file ${index}\n${'export const value = 1;\n'.repeat(40)}`;
for (let index = 0; index < fileCount; index++) {
	if (index % 100 === 0) {
		mkdirSync(join(tree, `dir${index / 100}`), {recursive: true});
	}

	writeFileSync(fileAt(index), body(index));
}

const gitEnv = {...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x'};
const git = (...args) => execFileSync('git', args, {cwd: tree, env: gitEnv, maxBuffer: 1 << 28});
git('init', '--quiet');
git('add', '-A');
git('commit', '--quiet', '-m', 'tree');
git('status', '--porcelain');

const time = fn => {
	const start = performance.now();
	const value = fn();
	return value instanceof Promise ? value.then(() => performance.now() - start) : performance.now() - start;
};

// Snapshots.
const shadow = await ShadowGit.open(tree, join(work, 'shadow'), 'bench');
const cold = await time(() => shadow.snapshot('refs/bench/cold'));
const snapshots = [];
const statuses = [];
for (let run = 0; run < runs; run++) {
	for (let changed = 0; changed < 5; changed++) {
		writeFileSync(fileAt((run * 5 + changed) * 37 % fileCount), `// run ${run}\n`);
	}

	snapshots.push(await time(() => shadow.snapshot(`refs/bench/${run}`)));
	statuses.push(time(() => git('status', '--porcelain')));
}

console.log(JSON.stringify({...figure(`snapshot of ${fileCount} files after a turn`, snapshots.slice(1), {floor: statuses.slice(1), target: 'median ≤ 5× git status; ≤ 500 ms', met: value => value.ratio <= 5 && value.median <= 500}), cold: Math.round(cold)}));

// Undo of a 100-file turn.
const signal = new AbortController().signal;
const editUndo = [];
const commandUndo = [];
const floor = [];
for (let run = 0; run < Math.max(2, Math.floor(runs / 3)); run++) {
	const session = await openSession({cwd: tree});
	const undo = nativeUndo(session, tree, join(work, `shadow-${run}`));
	const picked = Array.from({length: 100}, (_, index) => (index * 97 + run) % fileCount);
	await session.runtime.turn(async step => {
		for (const index of picked) {
			await step.call('edit', {file_path: fileAt(index), old_string: `// file ${index}\n`, new_string: `// file ${index} edited\n`}, {signal});
		}
	});
	editUndo.push(await time(async () => {
		const outcome = await undo.undo();
		if (!outcome.message.startsWith('undid')) {
			throw new Error(outcome.message);
		}
	}));
	await session.runtime.turn(async step => {
		const list = picked.map(index => fileAt(index)).join(' ');
		await step.call('bash', {command: `for f in ${list}; do printf 'changed\\n' >> "$f"; done`, description: 'change 100 files'}, {signal});
	});
	commandUndo.push(await time(async () => {
		const outcome = await undo.undo();
		if (!outcome.message.startsWith('undid') || outcome.message.split(',').length !== 100) {
			throw new Error(outcome.message.slice(0, 300));
		}
	}));
	floor.push(time(() => {
		for (const index of picked) {
			writeFileSync(fileAt(index), readFileSync(fileAt(index), 'utf8'));
		}
	}));
	await session.close();
}

console.log(JSON.stringify(figure('undo of a 100-file edit turn', editUndo, {floor, target: 'median ≤ 1 s', met: value => value.median <= 1000})));
console.log(JSON.stringify(figure('undo of a 100-file shell turn (from snapshots)', commandUndo, {floor, target: 'median ≤ 2 s', met: value => value.median <= 2000})));
rmSync(work, {recursive: true, force: true});
