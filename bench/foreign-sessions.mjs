// Other agents' session files (issue 21): reading them, and exporting a session as a page.
//   npm run build && node bench/foreign-sessions.mjs [--mb 100] [--cards 10000] [--runs 3]
// 1. Each foreign format, a ~100 MB file made of its real fixture (test/fixtures/foreign-sessions)
//    repeated with fresh ids, read by `replay --json`, against `replay --json` of a contract log of
//    the same size (bench/generate-log.mjs): target ≤ 3× the floor.
// 2. `export` of a 10 000-card session (the pi fixture repeated) against `replay --print` of it:
//    target ≤ 2×. Also the page's size against the log's, and its first contentful paint in
//    headless Chromium when one is installed.
// Each ratio is the median of --runs pairs of runs of the real binary (bin/cardterm), the floor run
// just before its subject (the machine is shared: a pair shares its load); prints JSON figures.
import {spawnSync} from 'node:child_process';
import {closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';
import {writeLog} from './generate-log.mjs';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {mb: {type: 'string', default: '100'}, cards: {type: 'string', default: '10000'}, runs: {type: 'string', default: '3'}}});
const targetBytes = Number(values.mb) * 1024 * 1024;
const runs = Number(values.runs);
const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'cardterm');
const fixtures = join(root, 'test', 'fixtures', 'foreign-sessions');
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-foreign-'));

/** A fixture's lines with every id made unique to round `round`. */
function renamed(lines, round) {
	return lines.map(line => line
		.replaceAll(/"((?:toolu|call)_[A-Za-z0-9_]+)"/g, `"$1_${round}"`)
		.replaceAll(/"(uuid|parentUuid|id|parentId|tool_use_id|toolCallId|call_id|leafUuid|sourceToolAssistantUUID)":"([^"]+)"/g, `"$1":"$2-${round}"`));
}

/** Writes the fixture of `agent` repeated until `bytes`: its first line once, the rest again and again. */
function repeatFixture(agent, bytes, out, {rounds = Number.POSITIVE_INFINITY} = {}) {
	const dir = join(fixtures, agent);
	const [first, ...rest] = readFileSync(join(dir, readdirSync(dir).find(name => name.endsWith('.jsonl'))), 'utf8').trimEnd().split('\n');
	const fd = openSync(out, 'w');
	let written = writeSync(fd, `${first}\n`);
	for (let round = 0; written < bytes && round < rounds; round++) {
		written += writeSync(fd, `${renamed(rest, round).join('\n')}\n`);
	}

	closeSync(fd);
	return written;
}

function time(args) {
	const started = performance.now();
	const result = spawnSync(process.execPath, [bin, ...args], {stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30});
	if (result.status !== 0) {
		throw new Error(`cardterm ${args.join(' ')} exited ${result.status}: ${String(result.stderr).slice(0, 500)}`);
	}

	return performance.now() - started;
}

/**
Runs `args` and `floorArgs` one after the other, `runs` times: each pair shares the machine's load
of its moment (the machine is shared), and the figure is the median of the pairs' ratios.
*/
function paired(name, args, floorArgs, target, limit) {
	const pairs = Array.from({length: runs}, () => {
		const floor = time(floorArgs);
		return {value: time(args), floor};
	});
	const ratios = pairs.map(pair => pair.value / pair.floor).sort((a, b) => a - b);
	const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
	const ratio = Number(ratios[Math.floor(ratios.length / 2)].toFixed(2));
	return {name, median: Math.round(median(pairs.map(pair => pair.value))), floor: Math.round(median(pairs.map(pair => pair.floor))), unit: 'ms', ratio, ratios: ratios.map(value => Number(value.toFixed(2))), target, runs, met: ratio <= limit};
}
const figures = [];
try {
	const contract = join(work, 'contract.jsonl');
	const fd = openSync(contract, 'w');
	writeLog(fd, {events: Math.round(targetBytes / 1000), seed: 1, shape: 'large'});
	closeSync(fd);
	for (const agent of ['claude', 'codex', 'gemini', 'pi']) {
		const file = join(work, `${agent}.jsonl`);
		repeatFixture(agent, statSync(contract).size, file);
		figures.push(paired(`replay --json of a ${(statSync(file).size / 2 ** 20).toFixed(0)} MB ${agent} session vs a ${(statSync(contract).size / 2 ** 20).toFixed(0)} MB contract log`, ['replay', '--json', file], ['replay', '--json', contract], '≤ 3× floor', 3));
	}

	// 10 000 cards: the pi fixture has 8 a round.
	const session = join(work, 'cards.jsonl');
	repeatFixture('pi', Number.POSITIVE_INFINITY, session, {rounds: Math.ceil(Number(values.cards) / 8)});
	const page = join(work, 'page.html');
	figures.push(paired(`export of ${values.cards} cards vs replay --print of them`, ['export', session, '-o', page], ['replay', '--print', '--width', '100', session], '≤ 2× floor', 2));
	figures.push({name: 'exported page size / log size', median: Number((statSync(page).size / statSync(session).size).toFixed(2)), unit: '×', pageBytes: statSync(page).size, logBytes: statSync(session).size});
	const chromium = ['/usr/bin/chromium', process.env.CHROMIUM_PATH].find(path => path !== undefined && existsSync(path));
	if (chromium === undefined) {
		figures.push({name: 'first contentful paint of the exported page', skipped: 'no chromium installed'});
	} else {
		const {chromium: launcher} = await import('playwright-core');
		const browser = await launcher.launch({executablePath: chromium, args: ['--no-sandbox']});
		const paints = [];
		for (let run = 0; run < runs; run++) {
			const tab = await browser.newPage();
			await tab.goto(pathToFileURL(page).href, {waitUntil: 'load', timeout: 120_000});
			paints.push(await tab.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
			await tab.close();
		}

		await browser.close();
		figures.push(figure(`first contentful paint of the exported ${values.cards}-card page in headless Chromium`, paints, {target: 'reported', met: true}));
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}

for (const value of figures) {
	console.log(JSON.stringify(value));
}
