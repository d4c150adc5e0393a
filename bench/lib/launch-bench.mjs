// Launch → prompt on a real pseudo-terminal (util-linux `script`, 120×40), as a person sees it.
//   node bench/lib/launch-bench.mjs RUNS [cardterm args…]
// Each run spawns `script` around the command and times, from the spawn:
//   prompt — the prompt row ("> " at a row's start, escapes stripped) is on the terminal;
//   echo   — a key typed the moment the prompt shows is echoed in it ("> z"): typing works;
//   ready  — the session's own status line has replaced the first frame's "starting…" ("no calls
//            yet"): the live screen is up, and Enter runs what was typed.
// The floor is the same pty and method around `node -e` writing the same row: Node's own start.
// Runs alternate with the floor's; the first of each is a warm-up. Prints one JSON line.
// CARDTERM_LAUNCH_BASELINE=…/bin/cardterm also times another build, interleaved (before/after figures).
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

const [runsArgument = '8', ...cardtermArgs] = process.argv.slice(2);
const runs = Number(runsArgument);
const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'cardterm-launch-'));
// Without ANSI escapes (CSI, OSC and two-byte ones), so the rows read as text.
const strip = (text) => text.replace(/\u001B\[[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)|\u001B[@-_]/g, '');
const quote = (word) => `'${word.replaceAll('\'', '\'\\\'\'')}'`;

/** One launch of `command` (argv) in a 120×40 pty; resolves {prompt, echo, ready} in ms from the spawn. */
function launch(command, {typeKey}) {
	return new Promise((resolve, reject) => {
		const shell = `stty cols 120 rows 40; exec ${command.map(quote).join(' ')}`;
		const env = {...process.env, CARDTERM_SESSION_DIR: join(work, 'sessions'), TERM: 'xterm-256color'};
		delete env.CI;
		const started = performance.now();
		const child = spawn('script', ['-qfec', shell, '/dev/null'], {cwd: work, env, stdio: ['pipe', 'pipe', 'ignore']});
		let text = '';
		let prompt;
		let echo;
		let ready;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`no ${prompt === undefined ? 'prompt' : (echo === undefined ? 'echo' : 'live screen')} within 20 s; the screen said: ${JSON.stringify(strip(text).slice(-300))}`));
		}, 20_000);
		const quit = () => {
			// Ctrl+D at an empty prompt ends the session (Ctrl+U first: the echoed key is on the line).
			child.stdin.write('\u0015\u0004');
		};

		child.stdout.on('data', (chunk) => {
			const at = performance.now() - started;
			text += chunk.toString('utf8');
			const rows = strip(text);
			if (prompt === undefined && /(?:^|[\r\n])> /.test(rows)) {
				prompt = at;
				if (typeKey) {
					child.stdin.write('z');
				} else {
					quit();
				}
			}

			if (typeKey && prompt !== undefined && echo === undefined && /> z/.test(rows)) {
				echo = at;
			}

			if (typeKey && echo !== undefined && ready === undefined && /no calls yet/.test(rows)) {
				ready = at;
				quit();
			}
		});
		child.on('error', reject);
		child.on('close', () => {
			clearTimeout(timer);
			if (prompt === undefined) {
				reject(new Error(`exited before its prompt; the screen said: ${JSON.stringify(strip(text).slice(-300))}`));
				return;
			}

			resolve({prompt, echo, ready});
		});
	});
}

const cardterm = [process.execPath, join(root, 'bin', 'cardterm'), ...cardtermArgs];
// The floor: Node starting and writing a prompt row (raw mode on, so a typed key is not echoed by the tty).
const floor = [process.execPath, '-e', 'process.stdout.write("> \\n"); setTimeout(() => process.exit(0), 50)'];
const baselineBin = process.env.CARDTERM_LAUNCH_BASELINE;
const baseline = baselineBin === undefined ? undefined : [process.execPath, baselineBin, ...cardtermArgs];
const samples = {prompt: [], echo: [], ready: [], floor: [], ...(baseline === undefined ? {} : {baselinePrompt: [], baselineEcho: [], baselineReady: []})};
try {
	for (let index = 0; index <= runs; index++) {
		const app = await launch(cardterm, {typeKey: true});
		const bare = await launch(floor, {typeKey: false});
		const before = baseline === undefined ? undefined : await launch(baseline, {typeKey: true});
		if (index > 0) {
			samples.prompt.push(app.prompt);
			samples.echo.push(app.echo);
			samples.ready.push(app.ready);
			samples.floor.push(bare.prompt);
			if (before !== undefined) {
				samples.baselinePrompt.push(before.prompt);
				samples.baselineEcho.push(before.echo);
				samples.baselineReady.push(before.ready);
			}
		}
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}

process.stdout.write(`${JSON.stringify(samples)}\n`);
