// A 120×40 pseudo-terminal: a window of a private tmux server (its own socket, no config file), with
// every byte the program writes copied by `pipe-pane` into a file the harness reads.
import {execFileSync, spawnSync} from 'node:child_process';
import {closeSync, existsSync, fstatSync, openSync, readSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {stripEscapes} from './terminal-bytes.mjs';

export const columns = 120;
export const rows = 40;

const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});

/** A private tmux server; `close()` ends it and every window in it. */
export class TmuxServer {
	constructor(folder) {
		this.socket = `cardterm-peers-${process.pid}`;
		this.folder = folder;
		this.started = false;
	}

	// bounded spread: a tmux command line of a few words.
	tmux(...args) {
		// A long session's scrollback is many MB: capture-pane needs more than execFileSync's 1 MB default.
		return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], {encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024});
	}

	/**
	Opens window `name` running `argv` with exactly `environment` (env -i), held until `pane.go()` so
	the byte copy is attached before the program's first write. When `then` is given, the pane's shell
	runs it after the program exits (the bench uses a plain bash there, as the echo floor).
	*/
	open(name, argv, {environment, cwd, then}) {
		const quoted = argv.map(shellWord).join(' ');
		const envWords = Object.entries(environment).map(([key, value]) => shellWord(`${key}=${value}`)).join(' ');
		// `read` waits for the harness's Enter (the go signal); the program then runs as the shell's child.
		const script = `cd ${shellWord(cwd)} && stty -echo && read _go && stty echo && env -i ${envWords} ${quoted}${then === undefined ? '' : `; ${then}`}`;
		const command = ['sh', '-c', script];
		if (this.started) {
			this.tmux('new-window', '-d', '-t', 'bench', '-n', name, ...command);
		} else {
			this.tmux('new-session', '-d', '-s', 'bench', '-n', 'holder', '-x', String(columns), '-y', String(rows), 'sleep 86400');
			this.tmux('set-option', '-g', 'escape-time', '0');
			this.tmux('set-option', '-g', 'history-limit', '100000');
			this.tmux('set-option', '-g', 'remain-on-exit', 'on');
			this.tmux('set-window-option', '-g', 'aggressive-resize', 'off');
			this.started = true;
			this.tmux('new-window', '-d', '-t', 'bench', '-n', name, ...command);
		}

		const target = `bench:${name}`;
		this.tmux('resize-window', '-t', target, '-x', String(columns), '-y', String(rows));
		const bytesFile = join(this.folder, `${name}.bytes`);
		writeFileSync(bytesFile, '');
		this.tmux('pipe-pane', '-o', '-t', target, `cat >> ${shellWord(bytesFile)}`);
		return new Pane(this, target, bytesFile);
	}

	close() {
		if (this.started) {
			spawnSync('tmux', ['-L', this.socket, 'kill-server']);
		}
	}
}

/** One window's pane: keys in, screen and bytes out. */
export class Pane {
	constructor(server, target, bytesFile) {
		this.server = server;
		this.target = target;
		this.bytesFile = bytesFile;
		this.fd = openSync(bytesFile, 'r');
	}

	/** Lets the held program start; returns the wall time it was let go. */
	go() {
		const at = performance.now();
		this.keys('Enter');
		return at;
	}

	/** The pane's shell pid; the program is its child. */
	shellPid() {
		return Number(this.server.tmux('display-message', '-p', '-t', this.target, '#{pane_pid}').trim());
	}

	/** Whether the pane's command ended (the window stays, remain-on-exit). */
	dead() {
		return this.server.tmux('display-message', '-p', '-t', this.target, '#{pane_dead}').trim() === '1';
	}

	// bounded spread: the keys of one send-keys.
	keys(...keys) {
		this.server.tmux('send-keys', '-t', this.target, ...keys);
	}

	/** Types `text` literally (no key names). */
	type(text) {
		this.server.tmux('send-keys', '-t', this.target, '-l', text);
	}

	/**
	Types a prompt and waits until the input shows it, then a moment more: a key right after a burst is a
	newline in a paste to some programs, so the Enter that follows is taken as Enter.
	*/
	async typePrompt(prompt) {
		this.type(prompt);
		await this.waitFor('the typed prompt', () => this.screen().includes(prompt.slice(0, 24)), {timeoutMs: 15_000});
		await sleep(300);
	}

	/** The visible screen as text. */
	screen() {
		return this.server.tmux('capture-pane', '-p', '-t', this.target);
	}

	/** The scrollback and the screen, lines joined where the terminal wrapped them. */
	history() {
		return this.server.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', this.target);
	}

	/** Bytes the program wrote so far. */
	byteCount() {
		return fstatSync(this.fd).size;
	}

	/** The bytes written from offset `from` to now, as text. */
	bytesFrom(from, to = this.byteCount()) {
		const length = Math.max(0, to - from);
		const buffer = Buffer.alloc(length);
		let read = 0;
		while (read < length) {
			const got = readSync(this.fd, buffer, read, length - read, from + read);
			if (got === 0) {
				break;
			}

			read += got;
		}

		return buffer.subarray(0, read).toString('utf8');
	}

	/** Waits until `check()` holds, polling every `everyMs`; returns the time it first held, or throws with the screen. */
	async waitFor(what, check, {timeoutMs = 60_000, everyMs = 50} = {}) {
		const started = performance.now();
		for (;;) {
			if (check()) {
				return performance.now();
			}

			if (performance.now() - started > timeoutMs) {
				throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}; the screen shows:\n${this.screen()}`);
			}

			// polling a real terminal
			await sleep(everyMs);
		}
	}

	/**
	Waits until the printed text (escapes stripped) written after byte `from` contains `text`; polls the
	byte file every ms and reads only what is new (with an overlap, for a sequence cut at the edge).
	*/
	async waitForPrinted(text, from, {timeoutMs = 60_000} = {}) {
		let scanned = from;
		return this.waitFor(JSON.stringify(text), () => {
			const end = this.byteCount();
			if (end === scanned) {
				return false;
			}

			const found = stripEscapes(this.bytesFrom(Math.max(from, scanned - 512), end)).includes(text);
			scanned = end;
			return found;
		}, {timeoutMs, everyMs: 1});
	}

	/** Waits until nothing was written for `quietMs` (at most `maxMs`). */
	async settle(quietMs = 500, maxMs = 10_000) {
		const started = performance.now();
		let size = this.byteCount();
		let since = performance.now();
		while (performance.now() - since < quietMs && performance.now() - started < maxMs) {
			// polling a real terminal
			await sleep(50);
			const now = this.byteCount();
			if (now !== size) {
				size = now;
				since = performance.now();
			}
		}
	}

	/** Ends the window (and what runs in it); a second call does nothing. */
	close() {
		if (this.closed) {
			return;
		}

		this.closed = true;
		closeSync(this.fd);
		if (existsSync(this.bytesFile)) {
			try {
				this.server.tmux('kill-window', '-t', this.target);
			} catch {
				// Already gone.
			}
		}
	}
}

/** One word for `sh`. */
export function shellWord(word) {
	return `'${String(word).replaceAll('\'', '\'\\\'\'')}'`;
}
