/**
One print path (issue 15): `call`, `run`, `-p --transcript` and `acp -p --transcript` print what
`replay --print` prints for the log they wrote, under the same flags — to a pipe (lines whole), with `--width`, with colour at
the terminal's depth, on a terminal — and `--json` writes the objects `replay --json` writes (a
card's with its `entry` field). Each command used to print through its own copy: `acp -p` without
colour depth or joined lines, `-p` without depth, `call`/`run` padding rows to a pipe, and
`call --json` without `entry`.
*/
import {mkdtemp, readdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {FAKE_AGENT} from '../../acp/acp-harness.js';
import {startFakeModelServer} from '../../fixtures/fake-model-server.mjs';
import {fakeIo} from '../cli-io-fake.js';

let workspace: string;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-print-path-'));
	await writeFile(join(workspace, 'notes.txt'), `${'a line of notes that is long enough to be wrapped at forty columns. '.repeat(3)}\nsecond line\n`);
});
afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
});

type Terminal = {readonly name: string; readonly flags: readonly string[]; readonly isTTY?: boolean; readonly columns?: number; readonly env?: NodeJS.ProcessEnv};

/** The outputs each command must print alike: a pipe, rows of 40, colour at 256 and 24-bit depth, a terminal of 50 columns, JSON. */
const terminals: Terminal[] = [
	{name: 'a pipe', flags: []},
	{name: '--width 40', flags: ['--width', '40']},
	{name: '--color, 256 colours', flags: ['--color'], env: {TERM: 'xterm-256color'}},
	{name: '--color, truecolor', flags: ['--color'], env: {COLORTERM: 'truecolor'}},
	{name: 'a terminal', flags: [], isTTY: true, columns: 50, env: {TERM: 'xterm-256color', CARDTERM_HYPERLINKS: '1'}},
	{name: '--json', flags: ['--json']},
];

const ioOf = (terminal: Terminal, env: NodeJS.ProcessEnv = {}) => fakeIo({cwd: workspace, isTTY: terminal.isTTY ?? false, ...(terminal.columns === undefined ? {} : {columns: terminal.columns}), env: {...env, ...terminal.env}});

/** `-p`'s flags for `terminal`: the whole transcript on stdout, as replay prints it. */
const transcriptOf = (terminal: Terminal): string[] => [...(terminal.flags.includes('--json') ? [] : ['--transcript']), ...terminal.flags];

/** What `replay` prints for `log` with the same flags and terminal. */
async function replayed(log: string, terminal: Terminal): Promise<string> {
	const io = ioOf(terminal);
	expect(await main(['replay', log, ...(terminal.flags.includes('--json') ? [] : ['--print']), ...terminal.flags], io)).toBe(0);
	return io.out();
}

describe('every command prints as replay prints the log it wrote', () => {
	it.each(terminals)('call ($name)', async terminal => {
		const log = join(workspace, `call-${terminal.name}.jsonl`);
		const io = ioOf(terminal);
		const command = String.raw`printf '\033[38;5;208morange\033[0m \033[38;2;10;20;30mdeep\033[0m\n'; printf 'long-line-%.0s' $(seq 1 20); echo`;
		expect(await main(['call', 'bash', JSON.stringify({command, description: 'Colours and a long line'}), '--log', log, '--cwd', workspace, ...terminal.flags], io)).toBe(0);
		expect(io.out()).toBe(await replayed(log, terminal));
		if (terminal.flags.includes('--json')) {
			expect(JSON.parse(io.out())).toMatchObject({entry: 'card', name: 'bash', outcome: 'ok'});
		}
	});

	it.each(terminals)('run ($name)', async terminal => {
		const log = join(workspace, `run-${terminal.name}.jsonl`);
		await writeFile(join(workspace, 'script.mjs'), 'await tools.read({file_path: "notes.txt"});\nreturn "read";\n');
		const io = ioOf(terminal);
		expect(await main(['run', join(workspace, 'script.mjs'), '--log', log, '--cwd', workspace, ...terminal.flags], io)).toBe(0);
		expect(io.out()).toBe(await replayed(log, terminal));
	});

	it.each(terminals)('-p ($name)', async terminal => {
		const sessions = join(workspace, 'sessions');
		const command = String.raw`printf '\033[38;5;208morange\033[0m \033[38;2;10;20;30mdeep\033[0m\n'`;
		const server = await startFakeModelServer({script: [{toolCalls: [{id: 'c', name: 'bash', args: JSON.stringify({command, description: 'Colours'})}]}, {text: `Printed ${'two colours, '.repeat(8)}done.`}]});
		const io = ioOf(terminal, {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: workspace});
		try {
			expect(await main(['-p', 'Print colours', '--model', 'fake', '--base-url', server.url, '--session-dir', sessions, '--yolo', ...transcriptOf(terminal)], io)).toBe(0);
		} finally {
			await server.close();
		}

		const [id] = await readdir(sessions);
		expect(io.out()).toBe(await replayed(join(sessions, id!, 'session.jsonl'), terminal));
	});

	it.each(terminals)('acp -p ($name)', async terminal => {
		const sessions = join(workspace, 'sessions');
		const io = ioOf(terminal);
		expect(await main(['acp', '-p', 'colors', '--session-dir', sessions, ...transcriptOf(terminal), '--', process.execPath, FAKE_AGENT], io)).toBe(0);
		const [id] = await readdir(sessions);
		expect(io.out()).toBe(await replayed(join(sessions, id!, 'session.jsonl'), terminal));
	});

	it('the colours are written at the terminal\'s depth, and a long line reaches a pipe whole', async () => {
		const sessions = join(workspace, 'sessions');
		const truecolor = ioOf(terminals[3]!);
		expect(await main(['acp', '-p', 'colors', '--session-dir', sessions, '--transcript', '--color', '--', process.execPath, FAKE_AGENT], truecolor)).toBe(0);
		expect(truecolor.out()).toContain('\u001B[38;5;208morange');
		expect(truecolor.out()).toContain('\u001B[38;2;10;20;30mdeep');
		const piped = ioOf(terminals[0]!);
		expect(await main(['acp', '-p', 'colors', '--session-dir', sessions, '--transcript', '--', process.execPath, FAKE_AGENT], piped)).toBe(0);
		expect(piped.out().split('\n')).toContain('long-line-'.repeat(20));
	});
});
