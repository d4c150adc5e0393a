// An ACP agent's busy turn drawn live vs the same events drawn from its log (issue 15).
//   npm run build && node bench/acp-session.mjs [--updates N] [--runs N]
// The live side runs `cardterm acp`'s session (the scripted agent over stdio, the SDK, the mapping,
// the log writer, the fold) and lays out every entry each event changes, as the live screen does;
// the floor reads the log that run wrote, folds it and lays out the same way. Both are measured in
// the same run, interleaved; prints one JSON figure per line: the per-event cost ratio (target ≤ 1.3).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {openAcpSession} from '../dist/src/cli/acp/open-acp-session.js';
import {referencePresenters} from '../dist/src/cli/replay-command.js';
import {layoutEntry} from '../dist/src/layout/layout-entry.js';
import {colorTheme} from '../dist/src/layout/theme.js';
import {SessionFold} from '../dist/src/session/fold.js';
import {openSessionLog} from '../dist/src/session/read-session-log.js';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {updates: {type: 'string', default: '1000'}, runs: {type: 'string', default: '5'}}});
const updates = Number(values.updates);
const runs = Number(values.runs);
const agent = join(import.meta.dirname, '..', 'test', 'acp', 'fake-agent.mjs');
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-acp-'));
writeFileSync(join(work, 'notes.md'), '# Notes\n');
const options = {width: 100, theme: colorTheme, now: 0, sessionCwd: work};

/** Lays out what one fold change touched (the live screen's work per event). */
function draw(change) {
	let rows = 0;
	for (const entry of change.entries) {
		rows += layoutEntry(entry, options).length;
	}

	return rows;
}

async function live(run) {
	const acp = await openAcpSession({command: process.execPath, args: [agent], cwd: work, root: join(work, 'sessions'), id: `run-${run}`, approve: async () => undefined});
	let events = 0;
	acp.session.onFoldChange(change => {
		events++;
		draw(change);
	});
	const started = performance.now();
	await acp.client.prompt(`bench ${updates}`);
	await acp.session.flush();
	const ms = performance.now() - started;
	await acp.close();
	return {ms, events, log: acp.session.logPath};
}

async function replay(logPath) {
	const started = performance.now();
	const log = await openSessionLog(logPath);
	const fold = new SessionFold(referencePresenters(work));
	let events = 0;
	for await (const event of log.events) {
		events++;
		draw(fold.apply(event));
	}

	return {ms: performance.now() - started, events};
}

const liveSamples = [];
const floorSamples = [];
try {
	await live('warm-up');
	for (let run = 0; run < runs; run++) {
		const one = await live(run);
		const back = await replay(one.log);
		liveSamples.push(one.ms / one.events);
		floorSamples.push(back.ms / back.events);
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}

process.stdout.write(`${JSON.stringify(figure(`acp turn of ${updates} updates, per event (live vs from its log)`, liveSamples, {unit: 'ms/event', floor: floorSamples, target: '≤ 1.3×', met: value => value.ratio !== null && value.ratio <= 1.3}))}\n`);
