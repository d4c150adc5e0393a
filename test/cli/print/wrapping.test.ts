/**
Long notices, `/tools` and help text are wrapped by cardterm between words with a hanging indent,
not cut and not broken mid-word by the terminal (issue 16 item 13): notices in print output and the
live scrollback, the scrollback's messages, `/tools` and `/help TOOL` rows, `--help`, and messages
on a terminal's stderr. To a pipe a wrapped notice is joined back into its one line.
*/
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {scrollbackOutput} from '../../../components/scrollback-output.js';
import {main} from '../../../src/cli/main.js';
import {noticeLines} from '../../../src/live/notice-lines.js';
import {toolListLines} from '../../../src/live/tool-help.js';
import {REPLAY_HELP} from '../../../src/cli/commands/replay-command.js';
import {fitText} from '../../../src/cli/environment/terminal-text.js';
import {monochromeTheme} from '../../../src/layout/text/theme.js';
import {displayWidth} from '../../../src/layout/text/text-width.js';
import {EventScript} from '../../session/fold-events.js';
import {fakeIo} from '../cli-io-fake.js';

const REASON = 'bash is disabled by the project policy in this session because the repository holds production credentials; ask the owner before running commands';

let workspace: string;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-wrap-'));
});
afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
});

/** Rows as a person reads them: no row wider than `width`, and the words, in order, with none broken. */
function expectWrapped(rows: readonly string[], width: number, text: string, indent: string): void {
	for (const row of rows) {
		expect(displayWidth(row), row).toBeLessThanOrEqual(width);
	}

	for (const row of rows.slice(1)) {
		expect(row.startsWith(indent), row).toBe(true);
	}

	expect(rows.map(row => row.trim()).join(' ').split(/\s+/u)).toEqual(text.split(/\s+/u));
}

/** The rows a terminal of `width` columns shows for `text` (a row that ends short is padded to the width, so it wraps there). */
const terminalRows = (text: string, width: number): string[] => text.split('\n').filter(line => line !== '').flatMap(line => line.match(new RegExp(`.{1,${width}}`, 'gu'))!).map(row => row.trimEnd());

const scrollbackRows = (lines: Parameters<typeof scrollbackOutput>[0], width: number): string[] => terminalRows(String(scrollbackOutput(lines, {theme: monochromeTheme, color: false, depth: 'none', hyperlinks: false, sessionCwd: workspace}, {width, rows: 24, now: 0})), width);

describe('a long notice', () => {
	async function printed(args: readonly string[], terminal: {isTTY?: boolean; columns?: number} = {}): Promise<string> {
		const script = new EventScript();
		script.push('hook/result', {point: 'PreToolUse', decision: 'block', exitCode: 2, stderrSummary: REASON});
		const log = join(workspace, 'session.jsonl');
		await writeFile(log, `${[{type: 'session', version: 0, id: 's-wrap', createdAt: 0, cwd: workspace, delegationDepth: 0}, ...script.events].map(event => JSON.stringify(event)).join('\n')}\n`);
		const io = fakeIo({cwd: workspace, ...terminal});
		expect(await main(['replay', log, '--print', '--no-color', ...args], io)).toBe(0);
		return io.out();
	}

	it('reaches a pipe whole, on one line (it was cut at 80 columns)', async () => {
		expect((await printed([])).split('\n')).toContain(`· hook PreToolUse: block (exit 2) — ${REASON}`);
	});

	it('wraps between words under its text at --width 40, and on a terminal of 40 columns', async () => {
		expectWrapped((await printed(['--width', '40'])).trimEnd().split('\n'), 40, `· hook PreToolUse: block (exit 2) — ${REASON}`, '  ');
		// On a terminal a row that ends short is padded to the width, so the terminal wraps where cardterm did.
		const rows = terminalRows(await printed([], {isTTY: true, columns: 40}), 40);
		expectWrapped(rows, 40, `· hook PreToolUse: block (exit 2) — ${REASON}`, '  ');
	});
});

describe('a wrapped numbered line of a read card', () => {
	it('reaches a pipe whole, without the indent that keeps it under its text on a terminal', async () => {
		const line = `const settings = ${'{retries: 3, timeout: 30}, '.repeat(5)}done;`;
		await writeFile(join(workspace, 'settings.ts'), `${line}\n`);
		const piped = fakeIo({cwd: workspace});
		expect(await main(['call', 'read', JSON.stringify({file_path: 'settings.ts'}), '--cwd', workspace, '--no-color'], piped)).toBe(0);
		expect(piped.out().split('\n')).toContain(`1 ${line}`);
		const rows = fakeIo({cwd: workspace});
		expect(await main(['call', 'read', JSON.stringify({file_path: 'settings.ts'}), '--cwd', workspace, '--no-color', '--width', '40'], rows)).toBe(0);
		expect(rows.out().split('\n').filter(row => row.startsWith('  ')).length).toBeGreaterThan(1);
	});
});

describe('the scrollback\'s messages, /tools and /help', () => {
	it('wraps a message wider than the terminal between words, indented under itself', () => {
		const message = `the pager cannot read the session log (${REASON}); showing the entries in memory`;
		expectWrapped(scrollbackRows({kind: 'lines', lines: noticeLines(message, 'error')}, 40), 40, message, '  ');
	});

	it('wraps a /tools description under its own column', () => {
		const tool = {name: 'deploy', description: `Deploys the site. ${REASON}`, parameters: {type: 'object', properties: {target: {type: 'string', description: `Where to deploy: ${REASON}`}}, required: ['target']}};
		const rows = scrollbackRows({kind: 'lines', lines: toolListLines([tool])}, 60);
		const toolRow = rows.findIndex(row => row.startsWith('  deploy  Deploys'));
		const parameterRow = rows.findIndex(row => row.trimStart().startsWith('target'));
		expect(toolRow).toBeGreaterThan(0);
		expect(parameterRow).toBeGreaterThan(toolRow);
		expectWrapped(rows.slice(toolRow, parameterRow), 60, `deploy Deploys the site. ${REASON}`, ' '.repeat('  deploy  '.length));
		const descriptionColumn = rows[parameterRow]!.indexOf('Where');
		expectWrapped(rows.slice(parameterRow), 60, `target string required Where to deploy: ${REASON}`, ' '.repeat(descriptionColumn));
	});
});

describe('help text and messages on a terminal', () => {
	it('--help is wrapped between words to the terminal, as it is to a pipe', async () => {
		const narrow = fakeIo({isTTY: true, columns: 60});
		expect(await main(['replay', '--help'], narrow)).toBe(0);
		const rows = narrow.out().trimEnd().split('\n');
		expect(Math.max(...rows.map(row => displayWidth(row)))).toBeLessThanOrEqual(60);
		expect(rows.join(' ').split(/\s+/u)).toEqual(REPLAY_HELP.split(/\s+/u));
		const piped = fakeIo({isTTY: false});
		expect(await main(['replay', '--help'], piped)).toBe(0);
		expect(piped.out()).toBe(`${REPLAY_HELP}\n`);
	});

	it('a message wider than the terminal is wrapped between words, under its indent and two more', () => {
		const message = `cardterm: session log not saved: ${REASON}\n`;
		const fitted = fitText(message, 50);
		expect(fitted.endsWith('\n')).toBe(true);
		expectWrapped(fitted.trimEnd().split('\n'), 50, message.trim(), '  ');
		expect(fitText(message, undefined)).toBe(message);
	});

	it('leaves a line with a word too long for a row to the terminal, so a path is copied whole', () => {
		const saved = 'cardterm: session saved: /home/someone/.local/share/cardterm/sessions/2026-12-06T02-37-26-a307/session.jsonl (agent session fake-1)';
		expect(fitText(saved, 60)).toBe(saved);
		expect(fitText(saved, 120)).toBe('cardterm: session saved: /home/someone/.local/share/cardterm/sessions/2026-12-06T02-37-26-a307/session.jsonl (agent\n  session fake-1)');
	});
});
