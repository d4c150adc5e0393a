/**
Promise 1 (issue 8), log bytes and interactive screens: hostile bytes in a session log (invalid UTF-8
included) replayed through every reference presenter and `cardterm replay --print`, and hostile
cards drawn by the live region (with its scrollback) and the pager on a fake terminal. Only SGR,
validated OSC 8 links and Ink's own cursor sequences may reach the terminal. Seeded and bounded in
CI; `CARDTERM_FUZZ_CASES=N` runs N cases per property, `CARDTERM_FUZZ_SEED=S` another seed.
*/
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {asEntries, cardsOf} from '../../src/presentation/entry.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import fc from 'fast-check';
import {beforeAll, describe, expect, it} from 'vitest';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import {Pager} from '../../components/Pager.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import type {LiveSnapshot, SessionModel} from '../../components/session-model.js';
import {main} from '../../src/cli/main.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {clearLayoutCache, layoutCard} from '../../src/layout/cards/layout-card.js';
import {renderLines} from '../../src/layout/terminal/render-lines.js';
import {colorTheme, monochromeTheme} from '../../src/layout/text/theme.js';
import type {Card} from '../../src/presentation/card.js';
import type {CardOutcome} from '../../src/presentation/card-outcome.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {scanTerminalOutput, type ScanRules} from './escape-scanner.js';
import {renderToTty} from './fake-tty.js';
import {hostileCards} from './hostile-cards.js';
import {hostileLogBytes} from './hostile-log.js';
import {fuzzCases, fuzzSeed, hostileName, hostileText} from './hostile-text.js';
import {recordTemplateSession, type TemplateSession} from './template-session.js';



const NOW = 1_790_000_005_000;
const pool = fc.array(hostileText(), {minLength: 1, maxLength: 12});

function expectClean(output: string, rules: ScanRules, context: string): void {
	const {violations} = scanTerminalOutput(output, rules);
	if (violations.length > 0) {
		throw new Error(`${context}: ${violations.slice(0, 5).join('; ')}`);
	}
}

describe('terminal safety of hostile bytes in a log', () => {
	let template: TemplateSession;
	beforeAll(async () => {
		template = await recordTemplateSession();
	});

	const bytePool = fc.array(fc.oneof(
		hostileText().map(value => new Uint8Array(Buffer.from(value))),
		fc.uint8Array({maxLength: 24}),
		fc.tuple(hostileText(4), fc.uint8Array({maxLength: 8})).map(([value, bytes]) => new Uint8Array(Buffer.concat([Buffer.from(value), bytes]))),
	), {minLength: 1, maxLength: 16});

	it('replays through every reference presenter to cards whose print output is only visible text and SGR', async () => {
		const presenters = referencePresenters('/home/u/proj');
		await fc.assert(fc.asyncProperty(bytePool, async strings => {
			const log = await openSessionLog(Readable.from([hostileLogBytes(template.header, template.events, strings)]), {name: 'hostile.jsonl'});
			const fold = new SessionFold(presenters);
			for await (const event of log.events) {
				fold.apply(event);
			}

			expect(cardsOf(fold.entries).length).toBeGreaterThanOrEqual(12);
			clearLayoutCache();
			for (const card of cardsOf(fold.entries)) {
				for (const [color, hyperlinks] of [[false, false], [true, true]] as const) {
					const output = renderLines(layoutCard(card, {width: 60, theme: color ? colorTheme : monochromeTheme, now: NOW, expansion: 'full', sessionCwd: '/home/u/proj'}), {color, hyperlinks, width: 60});
					expectClean(output, {hyperlinks, inkCursor: false}, `replayed ${card.name}`);
				}
			}
		}), {numRuns: fuzzCases(25), seed: fuzzSeed()});
	});

	it('writes only visible text, SGR and validated links to stdout and stderr through cardterm replay --print', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'cardterm-hostile-'));
		try {
			await fc.assert(fc.asyncProperty(bytePool, fc.boolean(), async (strings, damage) => {
				let bytes = hostileLogBytes(template.header, template.events, strings);
				if (damage) {
					// Hostile bytes in a line that does not parse reach stderr through its diagnostic.
					bytes = Buffer.concat([bytes, Buffer.from('{"type":"\u001B]0;x\u0007', 'utf8'), Buffer.from(strings[0]!), Buffer.from('\n{"type":"'), Buffer.from(strings[0]!), Buffer.from('","seq":999,"time":1,"data":{}}\n')]);
				}

				const path = join(dir, 'hostile.jsonl');
				await writeFile(path, bytes);
				const io = fakeIo({isTTY: true, columns: 70, env: {}});
				const code = await main(['replay', path, '--print', '--color', '--expand', 'all'], io);
				expect(code).toBe(0);
				expectClean(io.out(), {hyperlinks: true, inkCursor: false}, 'replay stdout');
				expectClean(io.err(), {hyperlinks: false, inkCursor: false}, 'replay stderr');
			}), {numRuns: fuzzCases(25), seed: fuzzSeed()});
		} finally {
			await rm(dir, {recursive: true, force: true});
		}
	});
});

function countsOf(cards: readonly Card[]): Record<CardOutcome, number> {
	const counts: Record<CardOutcome, number> = {pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0};
	for (const card of cards) {
		counts[card.outcome]++;
	}

	return counts;
}

/** A session model over fixed cards: running ones in the live region, settled ones written to the scrollback. */
function fixedModel(cards: readonly Card[], names: {cwd: string; sessionId: string; reason: string; problem?: string}): SessionModel {
	const snapshot: LiveSnapshot = {
		running: cards.filter(card => card.status === 'running'),
		counts: countsOf(cards),
		jobsRunning: 1,
		approval: {id: names.reason, toolName: names.sessionId, callId: names.cwd, reason: names.reason, choices: [{label: names.reason, answer: 'allowed-once'}, {label: names.sessionId, answer: 'rejected'}]},
		queue: [{id: 1, label: names.reason}, {id: 2, label: names.sessionId}],
		closing: false,
		...(names.problem === undefined ? {} : {problem: names.problem}),
	};
	return {
		cwd: names.cwd,
		sessionId: names.sessionId,
		subscribe: () => () => undefined,
		getSnapshot: () => snapshot,
		onScrollback(listener) {
			for (const card of cards) {
				if (card.status !== 'running') {
					listener({kind: 'entry', entry: {entry: 'card', card}});
				}
			}

			return () => undefined;
		},
		pagerSource: async () => arrayEntrySource(asEntries(cards)),
		submit: () => undefined,
		cancel: () => false,
		answerApproval: () => undefined,
		complete: async () => [],
		history: [],
		close: async () => undefined,
	};
}

describe('terminal safety of the interactive screens', () => {
	it('draws a benign pager with Ink\'s own cursor sequences only', async () => {
		const output = await renderToTty(<Pager source={arrayEntrySource(asEntries(hostileCards(['plain text'])))} theme={colorTheme} title="log" now={() => NOW} onExit={() => undefined} />, {columns: 40, rows: 20});
		const ink = new Set(scanTerminalOutput(output, {hyperlinks: false, inkCursor: true}).sequences.filter(item => !(item.kind === 'csi' && item.final === 'm')).map(item => item.text));
		// Ink 6.8's renderer: synchronized update, cursor hide/show, erase line, cursor up, column 1.
		const expected = ['\u001B[?2026h', '\u001B[?25l', '\u001B[?2026l', '\u001B[2K', '\u001B[1A', '\u001B[G', '\u001B[?25h'];
		expect([...ink].filter(sequence => !expected.includes(sequence))).toEqual([]);
		expect(ink.size).toBeGreaterThan(0);
	});

	it('the live region and the scrollback it writes hold only SGR, validated links and Ink cursor sequences', async () => {
		await fc.assert(fc.asyncProperty(pool, hostileName(), hostileName(), fc.option(hostileName(), {nil: undefined}), fc.constantFrom(30, 80), async (strings, cwd, sessionId, problem, columns) => {
			clearLayoutCache();
			const model = fixedModel(hostileCards(strings), {cwd, sessionId, reason: strings[0]!, ...(problem === undefined ? {} : {problem})});
			const output = await renderToTty(<InteractiveApp model={model} theme={colorTheme} color hyperlinks now={() => NOW} />, {columns, rows: 40});
			expectClean(output, {hyperlinks: true, inkCursor: true, pasteMode: true}, 'live screen');
			expect(output.length).toBeGreaterThan(0);
		}), {numRuns: fuzzCases(10), seed: fuzzSeed()});
	});

	it('the pager holds only SGR and Ink cursor sequences', async () => {
		await fc.assert(fc.asyncProperty(pool, hostileName(), fc.constantFrom('start', 'end') as fc.Arbitrary<'start' | 'end'>, fc.constantFrom(30, 80), async (strings, title, start, columns) => {
			clearLayoutCache();
			const cards = hostileCards(strings);
			const output = await renderToTty(<Pager source={arrayEntrySource(asEntries(cards))} theme={colorTheme} title={title} start={start} now={() => NOW} onExit={() => undefined} />, {columns, rows: 30});
			expectClean(output, {hyperlinks: false, inkCursor: true}, 'pager');
			expect(output.length).toBeGreaterThan(0);
		}), {numRuns: fuzzCases(15), seed: fuzzSeed()});
	});
});
