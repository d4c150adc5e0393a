/**
Promise 7 (issue 8): a session with 10 000 tool calls, 50 of them running at once, and a bash call
that prints 10 MB, completes (within this test's generous timeout; nothing is timed), folds every call
into the right card, and its log replays to exactly the live cards. The calls go through
`openSession` with a temporary log: the registry, runtime, writer and fold of a real session.
`CARDTERM_LOAD_CALLS=N` runs N calls instead.
*/
import {mkdtempSync, rmSync} from 'node:fs';
import {cardsOf} from '../../src/presentation/entry.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {openSession} from '../../src/host/open-session.js';
import type {CardStatus} from '../../src/presentation/card.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import type {ToolDefinition} from '../../src/tools/types.js';

const CALLS = Number(process.env.CARDTERM_LOAD_CALLS) > 0 ? Number(process.env.CARDTERM_LOAD_CALLS) : 10_000;
const PARALLEL = 50;
const BIG_OUTPUT_BYTES = 10 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'cardterm-load-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

/** A raw, concurrency-safe tool that waits 1–3 ms and echoes its number; it records how many ran at once. */
function tickTool(): {tool: ToolDefinition; maxActive: () => number} {
	let active = 0;
	let max = 0;
	const tool: ToolDefinition = {
		name: 'tick',
		description: 'Waits a few milliseconds and returns n.',
		parameters: {type: 'object', properties: {n: {type: 'integer'}}, required: ['n'], additionalProperties: false},
		output: {
			schema: {type: 'object', properties: {n: {type: 'integer'}}, required: ['n'], additionalProperties: false},
			render: (_args, value) => [{type: 'text', text: `tick ${(value as {n: number}).n}`}],
			presentationMeta: (_args, value) => value,
		},
		isConcurrencySafe: () => true,
		async execute(args) {
			const {n} = args as {n: number};
			active++;
			max = Math.max(max, active);
			await new Promise(resolve => {
				setTimeout(resolve, 1 + (n % 3));
			});
			active--;
			return {n};
		},
		presentCall: args => ({card: 'generic', title: `tick ${(args as {n: number}).n}`, kind: 'other'}),
		presentResult: (_args, result) => ({card: 'generic', title: `ticked ${(result.meta as {n: number}).n}`}),
	};
	return {tool, maxActive: () => max};
}

describe('a session under load', () => {
	it(`runs ${CALLS} calls ${PARALLEL} at a time plus a 10 MB bash call, folds them all, and replays its log to the same cards`, async () => {
		const {tool, maxActive} = tickTool();
		const logPath = join(dir, 'session.jsonl');
		const session = await openSession({cwd: dir, logPath, extraTools: [tool]});
		expect(session.registry.executionMode({name: 'tick', arguments: {n: 1}} as Parameters<typeof session.registry.executionMode>[0])).toEqual({kind: 'parallel'});
		const signal = new AbortController().signal;

		// The big output runs alongside the first batches.
		const big = session.runtime.runCall('bash', {command: `head -c ${BIG_OUTPUT_BYTES} /dev/zero | tr '\\0' 'x' | fold -w 100`, description: 'Print 10 MB'}, {signal});
		for (let start = 0; start < CALLS; start += PARALLEL) {
			// eslint-disable-next-line no-await-in-loop -- one turn of 50 parallel calls at a time, as an agent loop runs them
			await session.runtime.turn(async step => Promise.all(Array.from({length: Math.min(PARALLEL, CALLS - start)}, async (_, offset) => step.call('tick', {n: start + offset}, {signal}))));
		}

		const bigResult = await big;
		await session.close();
		expect(bigResult.isError).toBe(false);
		expect(maxActive()).toBe(PARALLEL);

		const live = cardsOf(session.fold.entries);
		const counts: Record<CardStatus, number> = {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0};
		for (const card of live) {
			counts[card.status]++;
		}

		expect(counts).toEqual({running: 0, ok: CALLS + 1, error: 0, cancelled: 0, interrupted: 0});
		expect(new Set(live.map(card => card.callId)).size).toBe(CALLS + 1);
		const ticks = live.filter(card => card.name === 'tick');
		expect(ticks.map(card => card.resultView)).toEqual(Array.from({length: CALLS}, (_, n) => ({card: 'generic', title: `ticked ${n}`, content: [{type: 'text', text: `tick ${n}`}]})));
		const bash = live.find(card => card.name === 'bash')!;
		expect([bash.status, bash.outcome, bash.resultView?.card]).toEqual(['ok', 'ok', 'terminal']);

		const log = await openSessionLog(logPath);
		const replay = new SessionFold(name => session.registry.get(name));
		for await (const event of log.events) {
			replay.apply(event);
		}

		expect(log.diagnostics).toEqual([]);
		expect(cardsOf(replay.entries).length).toBe(live.length);
		expect(cardsOf(replay.entries)).toEqual(live);
	}, 120_000);
});
