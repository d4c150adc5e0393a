/**
A model, and an ACP agent, that stream without end as fast as cardterm reads (issue 16, attacker
item 3), through the real `bin/cardterm` in tmux: the answer is cut at the bound with a notice while
the process's memory stays bounded (it grew ~40 MB/s until V8 aborted at ~4 GB), Esc cancels a
stream at once (it went unanswered for a minute), SIGTERM ends the session with its lock released,
and the log holds the text that was on the screen. The sessions run with a lower bound
(`CARDTERM_MESSAGE_MAX_CHARS`, `message-bound.ts`): a flood polled through tmux on a shared machine
took one to two minutes to reach 4 Mi characters, and a few seconds to reach this one; what the full
bound costs is measured by `bench/stream-bounds.mjs`. Needs tmux and a built dist/ (rebuilt when
older than the sources).
*/
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {execFileSync} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardterm, cardtermCommand, descendants, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const fakeAgent = fileURLToPath(new URL('../acp/fake-agent.mjs', import.meta.url));
const sentence = 'The quick brown fox jumps over the lazy dog. ';
/** The bound the sessions run with (`CARDTERM_MESSAGE_MAX_CHARS`). */
const MAX_CHARS = 256 * 1024;
const lowered = {CARDTERM_MESSAGE_MAX_CHARS: String(MAX_CHARS)};
const bound = `cardterm's bound of ${MAX_CHARS.toLocaleString('en-US')} characters`;
/** Growth of the process's resident memory a cut answer may cost (main grew without bound). */
const RSS_GROWTH_MB = 400;

/** Resident memory of `pid` in MB. */
function rssMb(pid: number): number {
	const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return Number(match?.[1]) / 1024;
}

/** Waits until `done`, reading `pid`'s resident memory every 200 ms; returns the highest reading. */
async function peakRssUntil(pid: number, what: string, done: () => boolean, target: string): Promise<number> {
	let peak = rssMb(pid);
	await waitFor(what, () => {
		peak = Math.max(peak, rssMb(pid));
		return done();
	}, 60_000, target);
	return peak;
}

const sleep = async (ms: number): Promise<void> => new Promise(resolve => {
	setTimeout(resolve, ms);
});

type ReplayEntry = {readonly entry: string; readonly text?: string; readonly interrupted?: boolean; readonly outcome?: string};

describe.skipIf(tmuxMissing)('a stream without end, in tmux (skipped when tmux is not installed)', () => {
	let folder = '';
	let server: FakeModelServer | undefined;

	beforeAll(async () => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-endless-'));
		// As fast as cardterm reads; a prompt that says `slowly` gets a chunk every 20 ms (9 KB/s: it stays under the bound while a key is pressed).
		server = await startFakeModelServer({script: request => ({text: 'Here it comes: ', endless: {text: sentence.repeat(4), ...(JSON.stringify(request.messages.at(-1)).includes('slowly') ? {everyMs: 20} : {})}}), lifetimeMs: 600_000});
	}, 300_000);

	afterAll(async () => {
		killTmuxServer();
		await server?.close();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	/** Opens window `target` running `args` (and the exit code's record); returns the cardterm process's pid and where its code goes. */
	async function open(target: string, environment: Record<string, string>, args: readonly string[], ready: string): Promise<{app: number; codeFile: string}> {
		const codeFile = join(folder, `code-${target}`);
		const script = `${cardtermCommand(environment, ...args).map(word => shellWord(word)).join(' ')}; echo $? > ${shellWord(codeFile)}`;
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '120', '-y', '40', '-c', folder, script);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		const pane = Number(tmux('display-message', '-p', '-t', target, '#{pane_pid}').trim());
		await shows(ready, target);
		const app = descendants(pane).find(process => process.command.includes(cardterm))?.pid;
		expect(app).toBeDefined();
		return {app: app!, codeFile};
	}

	/** Counts of `text` on the screen (and its scrollback). */
	const count = (text: string, target: string): number => screen(target).split(text).length - 1;

	/** Sends `prompt` and waits until its answer has streamed for a second. */
	async function streams(target: string, prompt: string): Promise<void> {
		tmux('send-keys', '-t', target, prompt, 'Enter');
		await waitFor('the stream', () => screen(target).split(`› ${prompt}`).at(-1)!.includes(sentence), 30_000, target);
		await sleep(1000);
	}

	/** Esc after a second of streaming: the turn is cancelled while the stream goes on. */
	async function escapeStream(target: string, prompt: string): Promise<void> {
		const cancelled = count('cancelled by you', target);
		await streams(target, prompt);
		tmux('send-keys', '-t', target, 'Escape');
		await waitFor('the cancel', () => count('cancelled by you', target) > cancelled, 15_000, target);
	}

	/** SIGTERM while a stream floods: exit 143, the lock released. */
	async function terminate(target: string, app: number, codeFile: string, log: string): Promise<void> {
		process.kill(app, 'SIGTERM');
		await waitFor('the exit code', () => existsSync(codeFile) && readFileSync(codeFile, 'utf8').trim() !== '', 30_000, target);
		expect(readFileSync(codeFile, 'utf8').trim()).toBe('143');
		expect(existsSync(`${log}.lock`)).toBe(false);
	}

	function replay(log: string): ReplayEntry[] {
		return execFileSync(process.execPath, [cardterm, 'replay', log, '--json'], {encoding: 'utf8', maxBuffer: 256 << 20}).trim().split('\n').map(line => JSON.parse(line) as ReplayEntry);
	}

	it('from the model: cut at the bound with bounded memory, cancelled by Esc, ended by SIGTERM; the log holds what was shown', async () => {
		const target = 'native';
		const sessions = join(folder, 'native');
		const {app, codeFile} = await open(target, {...lowered, CARDTERM_SESSION_DIR: sessions, OPENAI_API_KEY: 'test'}, ['--base-url', server!.url, '--model', 'fake-model'], 'openai-compatible:fake-model');
		const before = rssMb(app);
		tmux('send-keys', '-t', target, 'talk', 'Enter');
		const peak = await peakRssUntil(app, 'the answer cut at the bound', () => screen(target).includes(bound), target);
		expect(peak - before).toBeLessThan(RSS_GROWTH_MB);

		await escapeStream(target, 'again, slowly');
		const log = join(sessions, readdirSync(sessions).find(name => !name.startsWith('.'))!, 'session.jsonl');
		await streams(target, 'once more, slowly');
		await terminate(target, app, codeFile, log);

		const entries = replay(log);
		const answers = entries.filter(entry => entry.entry === 'assistant');
		expect(answers.map(answer => [answer.text!.length === MAX_CHARS, answer.interrupted, answer.text!.startsWith('Here it comes: The quick brown fox')])).toEqual([[true, true, true], [false, true, true], [false, true, true]]);
		const turns = entries.filter(entry => entry.entry === 'turn').map(entry => entry.outcome);
		expect(turns).toHaveLength(3);
		expect(turns.slice(0, 2)).toEqual([`max tokens: the answer was cut at ${bound} for one step; the rest was not read`, 'cancelled by you']);
	}, 300_000);

	it('from an ACP agent: cut at the bound and cancelled with bounded memory, Esc answered; one that ignores the cancel is ended here, and SIGTERM while it floods', async () => {
		const target = 'acp';
		const sessions = join(folder, 'acp');
		const {app, codeFile} = await open(target, {...lowered, CARDTERM_SESSION_DIR: sessions}, ['acp', '--', process.execPath, fakeAgent], 'message the agent');
		const before = rssMb(app);
		const cut = `the agent's message was cut at ${bound}`;
		tmux('send-keys', '-t', target, 'endless', 'Enter');
		const peak = await peakRssUntil(app, 'the answer cut at the bound', () => screen(target).includes(cut), target);
		expect(peak - before).toBeLessThan(RSS_GROWTH_MB);
		expect(screen(target)).toContain(`the agent's message passed ${bound}`);

		await escapeStream(target, 'endless 20');
		// An agent deaf to the cancel: the turn ends here after the grace period, for the cut, and its text is not heard until the next prompt.
		// (The first cut turn's rule has scrolled out of reach: a cut answer is written whole, thousands of rows.)
		tmux('send-keys', '-t', target, 'endless 0 deaf', 'Enter');
		const deaf = 'the agent did not answer the cancel in time; the turn was ended here';
		await waitFor('the deaf agent\'s turn cut', () => {
			const shown = screen(target);
			return shown.includes(deaf) && shown.split(deaf).at(-1)!.includes(`── max tokens: ${cut}; the turn was cancelled`);
		}, 30_000, target);
		const log = join(sessions, readdirSync(sessions).find(name => !name.startsWith('.'))!, 'session.jsonl');
		await terminate(target, app, codeFile, log);
		const entries = replay(log);
		expect(entries.filter(entry => entry.entry === 'assistant').map(answer => [answer.text!.length === MAX_CHARS, answer.text!.startsWith(sentence)])).toEqual([[true, true], [false, true], [true, true]]);
		expect(entries.filter(entry => entry.entry === 'turn').map(entry => entry.outcome)).toEqual([`max tokens: ${cut}; the turn was cancelled`, 'cancelled by you', `max tokens: ${cut}; the turn was cancelled`]);
	}, 300_000);
});
