/**
Promise 1 (issue 11, item 1): text cardterm writes itself — copied card text, folder names, usage
errors echoing argv, the prompt's echo of what is typed — reaches the terminal only as text. Copy
gives what the card shows with no control character but `\n` and `\t`, in both the OSC 52 and the
print-on-exit path. Seeded and bounded in CI; `CARDTERM_FUZZ_CASES=N` runs more.
*/
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {asEntries} from '../../src/presentation/entry.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import fc from 'fast-check';
import React from 'react';
import {render} from 'ink';
import {afterAll, describe, expect, it, vi} from 'vitest';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {clearScreenOutput, ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN} from '../../components/InteractiveApp.js';
import {copyableText} from '../../components/pager/card-text.js';
import {Pager} from '../../components/Pager.js';
import {main} from '../../src/cli/main.js';
import {copyText} from '../../src/cli/pager/pager-actions.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {FakeStdin, FakeTty} from '../components/harness/fake-terminal.js';
import {startInteractive} from '../components/harness/interactive-screen.js';
import {makeCard, text} from '../layout/fixtures.js';
import {scanTerminalOutput} from './escape-scanner.js';
import {hostileCards} from './hostile-cards.js';
import {fuzzCases, fuzzSeed, hostileText} from './hostile-text.js';


/** What the log carried in a bash command: a title, a screen clear and a cursor report request. */
const ATTACK = '\u001B]0;TITLE\u0007\u001B[2J\u001B[6n';

/** Text that is only text: no control character but newline and tab, and nothing the scanner flags. */
function expectOnlyText(output: string, context: string): void {
	expect([context, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/.exec(output)?.[0]]).toEqual([context, undefined]);
	expect([context, scanTerminalOutput(output.replaceAll('\t', ' '), {hyperlinks: false, inkCursor: false}).violations]).toEqual([context, []]);
}

const dirs: string[] = [];
afterAll(async () => {
	await Promise.all(dirs.map(async dir => rm(dir, {recursive: true, force: true})));
});

describe('copying a card', () => {
	const card = makeCard({
		name: 'bash',
		callView: {card: 'terminal', title: `echo hi${ATTACK}`},
		result: {content: text(`red${ATTACK}`), view: {card: 'terminal', title: 'echo', output: `\u001B[31mred\u001B[0m\rX${ATTACK}\nnext\ttab \u202Eline\u200B`, exitCode: 0}},
	});

	it('copies what the card shows: the emulated output, escapes shown, no control character but newline and tab', () => {
		const copied = copyableText(card);
		expectOnlyText(copied, 'copied text');
		expect(copied.split('\n')).toEqual(['$ echo hi\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[6n', 'Xed', 'next    tab \\u202eline\\u200b']);
	});

	it('prints only text on exit when the terminal has no clipboard escape (TERM=linux, TERM=dumb, CARDTERM_OSC52=0)', () => {
		for (const env of [{TERM: 'linux'}, {TERM: 'dumb'}, {TERM: 'xterm-256color', CARDTERM_OSC52: '0'}]) {
			const later: string[] = [];
			const written: string[] = [];
			copyText(`$ echo${ATTACK}\n\u001B[31mred`, later, env, output => written.push(output));
			expect(written).toEqual([]);
			expectOnlyText(later.join('\n'), `printed copy under ${JSON.stringify(env)}`);
		}
	});

	it('puts only text on the clipboard with OSC 52, whatever the card holds', () => {
		fc.assert(fc.property(fc.array(hostileText(), {minLength: 1, maxLength: 8}), strings => {
			for (const hostile of hostileCards(strings)) {
				const written: string[] = [];
				copyText(copyableText(hostile), [], {TERM: 'xterm-256color'}, output => written.push(output));
				expect(written).toHaveLength(1);
				const payload = /^\u001B\]52;c;([A-Za-z\d+/=]*)\u0007$/.exec(written[0]!);
				expect(payload).not.toBeNull();
				expectOnlyText(Buffer.from(payload![1]!, 'base64').toString('utf8'), `clipboard of ${hostile.name}`);
			}
		}), {numRuns: fuzzCases(40), seed: fuzzSeed()});
	});

	it('hands the pager\'s onCopy the shown text when y is pressed', async () => {
		const tty = new FakeTty(60, 12);
		const stdin = new FakeStdin();
		const copies: string[] = [];
		const instance = render(<Pager source={arrayEntrySource(asEntries([card]))} theme={colorTheme} title="log" now={() => 0} onExit={() => undefined} onCopy={copied => {
			copies.push(copied);
			return 'copied';
		}} />, {stdout: tty as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, stderr: tty as unknown as NodeJS.WriteStream, exitOnCtrlC: false, patchConsole: false});
		try {
			await tty.settle();
			stdin.send('y');
			await tty.settle();
			expect(copies).toEqual([copyableText(card)]);
			expectOnlyText(copies[0]!, 'pager copy');
		} finally {
			instance.unmount();
		}
	});
});

describe('text the command line writes', () => {
	it('names an unreadable session folder with its escapes shown, never written raw', async () => {
		const root = await mkdtemp(join(tmpdir(), 'cardterm-sink-'));
		dirs.push(root);
		const folder = join(root, `bad${ATTACK}`);
		await mkdir(folder);
		await writeFile(join(folder, 'session.jsonl'), `not a header${ATTACK}\n`);
		const io = fakeIo();
		await main(['sessions', '--session-dir', root], io);
		const output = io.out() + io.err();
		expectOnlyText(output, 'sessions output');
		expect(output).toContain('bad\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[6n');
	});

	it('echoes argv in usage errors with its escapes shown', async () => {
		for (const argv of [[`x${ATTACK}`], ['replay', `--x${ATTACK}`], ['replay', '--width', `9${ATTACK}`, 'log'], ['call', `x${ATTACK}`]]) {
			const io = fakeIo();
			expect(await main(argv, io)).toBe(2);
			expectOnlyText(io.out() + io.err(), `usage error for ${JSON.stringify(argv)}`);
			expect(io.err()).toContain('\\x1b]0;TITLE\\x07');
		}
	});

	it('writes only text for any argv', async () => {
		await fc.assert(fc.asyncProperty(fc.constantFrom('replay', 'watch', 'sessions', 'demo', 'bogus'), fc.array(hostileText(4), {minLength: 1, maxLength: 3}), async (command, args) => {
			const io = fakeIo();
			await main([command, ...args.map(arg => `--${arg}`)], io);
			expectOnlyText(io.err(), `stderr of ${command}`);
		}), {numRuns: fuzzCases(30), seed: fuzzSeed()});
	});
});

describe('the prompt\'s echo', () => {
	it('shows typed BEL, SO, SI, VT and FF nowhere: neither in the line nor raw on the terminal', async () => {
		const screen = await startInteractive('sink-echo', {columns: 60, rows: 12});
		try {
			await screen.press('a\u0007b\u000Ec\u000Bd\u000Ce');
			await screen.press('\u202Ef\u200Bg');
			expect(screen.tty.text()).toContain('> abcde\\u202ef\\u200bg');
			// SI is Ctrl+O: it opens the pager instead of reaching the line.
			await screen.press('\u000F');
			// The pager's status line ends with its help hint.
			await screen.tty.waitForText('? help · q quit');
			await screen.press('q');
			await screen.tty.waitForText('> abcde\\u202ef\\u200bg');
			// FF is Ctrl+L: it clears the screen with cardterm's own line feeds and cursor home.
			const clear = clearScreenOutput(12);
			expect(screen.tty.bytes).toContain(clear);
			// The pager's own screen switches and that clear aside, only Ink's frames (and the session's
			// bracketed paste mode) reached the terminal.
			const bytes = screen.tty.bytes.replaceAll(ENTER_ALTERNATE_SCREEN, '').replaceAll(LEAVE_ALTERNATE_SCREEN, '').replaceAll(clear, '');
			expect(scanTerminalOutput(bytes, {hyperlinks: false, inkCursor: true, pasteMode: true}).violations).toEqual([]);
		} finally {
			await screen.close();
		}
	});
});
