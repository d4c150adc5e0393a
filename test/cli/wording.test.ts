import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {afterAll, describe, expect, it} from 'vitest';
import {DEFAULT_MAX_STEPS} from '../../src/agent/agent-loop.js';
import {MAIN_HELP, main} from '../../src/cli/main.js';
import {layoutCard} from '../../src/layout/cards/layout-card.js';
import {lineText} from '../../src/layout/text/spans.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import {makeCard, text} from '../layout/fixtures.js';
import {fixture} from '../session/helpers.js';
import {fakeIo} from './cli-io-fake.js';

const folder = mkdtempSync(join(tmpdir(), 'cardterm-wording-'));
writeFileSync(join(folder, 'README.md'), Array.from({length: 62}, (_, index) => `line ${index + 1}`).join('\n'));
afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

async function run(...argv: string[]): Promise<{code: number; out: string; err: string}> {
	const io = fakeIo({cwd: folder});
	const code = await main(argv, io);
	return {code, out: io.out(), err: io.err()};
}

describe('wording through the CLI', () => {
	it('names the step limit the agent loop applies in --help', () => {
		const line = MAIN_HELP.split('\n').find((row) => row.includes('--max-steps N'));
		expect(line).toContain(`(default ${DEFAULT_MAX_STEPS})`);
	});

	it('titles a card without repeating the tool name, in the one range style', async () => {
		const {out} = await run('call', 'read', JSON.stringify({file_path: 'README.md', offset: 1, limit: 5}), '--no-color', '--width', '100');
		expect(out.split('\n')[0]).toMatch(/^● read README\.md · lines 1–5 · /);
		expect(out).not.toContain('Read README.md');
		expect(out).not.toContain('(1 - 5)');
		expect(out).toContain('lines 1–5 of 62');
	});

	it('says cardterm: once for a flag the top level does not know', async () => {
		const {code, err} = await run('--bogus');
		expect(code).toBe(2);
		expect(err).toBe('cardterm: unknown flag --bogus (see cardterm --help)\n');
		expect((await run('replay', '--bogus')).err).toBe('cardterm replay: unknown flag --bogus (see cardterm replay --help)\n');
	});

	it('names a gzip log as compressed and says what is read', async () => {
		const gz = join(folder, 'session.jsonl.gz');
		writeFileSync(gz, gzipSync(readFileSync(fixture('basic.jsonl'))));
		const {code, err} = await run('replay', gz, '--print');
		expect(code).toBe(65);
		expect(err).toContain('this is a gzip-compressed file; cardterm reads plain .jsonl logs and zstd-compressed ones (.zst, .zstd): decompress it first (gunzip -k)');
		expect(err).not.toContain('not valid JSON');
	});

	it('shows what was sent on a card refused for its arguments, and the error\'s code dim after its message', async () => {
		const {out} = await run('call', 'read', JSON.stringify({file_path: 7, extra: 'x'}), '--width', '100', '--color');
		const plain = out.replaceAll(/\u001B\[[\d;]*m/g, '');
		expect(plain).toContain('sent:');
		expect(plain).toContain('"file_path": 7');
		expect(plain).toContain('"extra": "x"');
		// The code line is dim (2), not red.
		expect(out).toMatch(/\u001B\[2mToolArgsError · INVALID_ARGS\u001B\[0m/);
	});

	it('does not name a title column the sessions list never shows: a title is another producer\'s, else the first prompt (issue 16 item 9)', async () => {
		const {out} = await run('sessions', '--help');
		expect(out).toContain('the session\'s title\n(logs from other producers) or else the first line of its first prompt');
	});
});

describe('wording of cards', () => {
	const options = {width: 80, theme: colorTheme, now: 0};

	it('keeps a cancelled command\'s $ command, and shows no internal code the ⊘ already says (issue 16 item 12)', () => {
		const card = {...makeCard({name: 'bash', callView: {card: 'terminal', title: 'sleep 30'}, result: {content: text('Error: tool call aborted'), isError: true, error: {name: 'AbortError', code: 'ABORTED'}}}), status: 'cancelled' as const};
		expect(layoutCard(card, options).map(row => lineText(row))).toEqual(['⊘ bash sleep 30 · 1.2s', '$ sleep 30', 'Error: tool call aborted']);
		const notStarted = {...card, result: {...card.result!, error: {name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH'}}};
		expect(layoutCard(notStarted, {...options, expansion: 'full'}).map(row => lineText(row)).join('\n')).not.toContain('ABORTED');
		const summary = layoutCard(card, {...options, expansion: 'summary'});
		expect(summary.map(row => lineText(row)).join('\n')).not.toContain('ABORTED');
	});

	it('keeps the class and code of a failure whose outcome they do not decide, for looking it up', () => {
		const card = makeCard({name: 'read', callView: {card: 'generic', title: 'Read x'}, result: {content: text('Error: invalid arguments'), isError: true, error: {name: 'ToolArgsError', code: 'INVALID_ARGS'}}});
		expect(layoutCard(card, options).map(row => lineText(row))).toContain('ToolArgsError · INVALID_ARGS');
	});

	it('words an unkept truncated output as such, and draws stderr in its own tone', () => {
		const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'make'}, result: {content: text('x'), view: {card: 'terminal', output: '[output truncated; full output: (unavailable)]\nout\n[stderr]\nwarning: x', exitCode: 0}}});
		const rows = layoutCard(card, options);
		expect(rows.map(row => lineText(row))).toContain('[output truncated; the full output was not kept]');
		expect(rows.map(row => lineText(row)).join('\n')).not.toContain('(unavailable)');
		const out = rows.find(row => lineText(row) === 'out')!;
		const stderr = rows.find(row => lineText(row) === 'warning: x')!;
		expect(out.spans[0]!.style).toEqual(colorTheme.body);
		expect(stderr.spans[0]!.style).toEqual(colorTheme.stderr);
		expect(colorTheme.stderr).not.toEqual(colorTheme.body);
	});
});
