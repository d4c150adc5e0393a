/**
The model's answer is shown whole wherever it is printed (issue 14, issue 16 item 1): an 80-line
answer whose "Next steps" come last, through the real binary — `-p` against the fake model server,
`replay --print` of the session it saved, and `acp -p` with the scripted ACP agent. Tool output
still folds; only a summary (`--expand none`) cuts an answer, to its first row. The live
session's scrollback has its own tests (test/agent/interactive-agent.test.ts, test/app/e2e-agent.test.ts).
*/
import {spawn} from 'node:child_process';
import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer} from '../../fixtures/fake-model-server.mjs';
import {LONG_ANSWER_FINDINGS, LONG_ANSWER_LAST, longAnswer} from '../../fixtures/long-answer.mjs';
import {FAKE_AGENT} from '../../acp/acp-harness.js';
import {buildDist, cardterm} from '../../app/e2e-helpers.js';

let folder = '';
beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-long-answer-'));
}, 300_000);
afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

/** Runs the binary with stdout and stderr on pipes; resolves with what each got. */
async function cardtermOut(args: readonly string[]): Promise<{code: number | null; out: string; err: string}> {
	const child = spawn(process.execPath, [cardterm, ...args], {cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], env: {PATH: process.env.PATH, HOME: folder, XDG_CONFIG_HOME: join(folder, 'config'), OPENAI_API_KEY: 'test', TERM: 'xterm-256color'}});
	let out = '';
	let err = '';
	child.stdout.on('data', (chunk: Buffer) => {
		out += chunk.toString();
	});
	child.stderr.on('data', (chunk: Buffer) => {
		err += chunk.toString();
	});
	return new Promise(resolve => {
		child.on('close', code => {
			resolve({code, out, err});
		});
	});
}

/** Every finding and every step of the answer is in `text`, and no fold marker is. */
function expectWhole(text: string): void {
	for (let index = 1; index <= LONG_ANSWER_FINDINGS; index++) {
		expect(text).toContain(`Finding ${index}: src/module-${index}.ts still reads the old setting`);
	}

	expect(text).toContain('Next steps');
	expect(text).toContain(LONG_ANSWER_LAST);
	expect(text).not.toMatch(/… \d+ more lines?/u);
}

describe('a long answer, printed', () => {
	it('-p writes it whole: as the model wrote it to a pipe, laid out with --width, and in --transcript; replay --print of the saved session shows it whole', async () => {
		const server = await startFakeModelServer({script: [{text: longAnswer()}, {text: longAnswer()}, {text: longAnswer()}]});
		const sessions = join(folder, 'p-sessions');
		const p = async (...extra: string[]) => cardtermOut(['-p', 'What did you find?', '--model', 'fake', '--base-url', server.url, '--session-dir', sessions, '--no-color', ...extra]);
		try {
			const piped = await p();
			expect(piped.code).toBe(0);
			expect(piped.out).toBe(`${longAnswer()}\n`);

			const rows = await p('--width', '100');
			expect(rows.code).toBe(0);
			expectWhole(rows.out);

			const transcript = await p('--transcript');
			expect(transcript.code).toBe(0);
			expectWhole(transcript.out);
		} finally {
			await server.close();
		}

		const [id] = readdirSync(sessions);
		const log = join(sessions, id!, 'session.jsonl');
		for (const width of [[], ['--width', '60']]) {
			const replayed = await cardtermOut(['replay', log, '--print', ...width]);
			expect(replayed.code).toBe(0);
			expectWhole(replayed.out);
		}

		// Asked for summaries, an answer is its first row, as a card is its header.
		const summary = await cardtermOut(['replay', log, '--print', '--expand', 'none']);
		expect(summary.out).toContain('Findings');
		expect(summary.out).not.toContain(LONG_ANSWER_LAST);
	}, 60_000);

	it('acp -p writes an ACP agent\'s long answer whole, and --transcript shows it whole', async () => {
		const sessions = join(folder, 'acp-sessions');
		const piped = await cardtermOut(['acp', '-p', 'long', '--session-dir', sessions, '--no-color', '--', process.execPath, FAKE_AGENT]);
		expect(piped.code).toBe(0);
		expect(piped.out).toBe(`${longAnswer()}\n`);
		const transcript = await cardtermOut(['acp', '-p', 'long', '--transcript', '--width', '100', '--session-dir', sessions, '--no-color', '--', process.execPath, FAKE_AGENT]);
		expect(transcript.code).toBe(0);
		expectWhole(transcript.out);
	}, 60_000);
});
