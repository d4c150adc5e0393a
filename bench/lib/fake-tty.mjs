// A fake terminal for driving Ink in-process: a TTY-like stdout that counts bytes and timestamps
// each write, and a stdin whose keys the benchmark presses.
import {EventEmitter} from 'node:events';

const BSU = '\u001B[?2026h';
const ESU = '\u001B[?2026l';

export class FakeStdout extends EventEmitter {
	constructor({columns = 120, rows = 40} = {}) {
		super();
		this.columns = columns;
		this.rows = rows;
		this.isTTY = true;
		this.bytes = 0;
		this.writes = 0;
		this.lastWrite = '';
		this.waiters = [];
		this.frames = 0;
		this.frame = undefined;
		/** Optional hook called with each frame's text (markers excluded) and the time it ended. */
		this.onFrame = undefined;
	}

	write(chunk, encoding, callback) {
		const at = performance.now();
		const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		const bytes = Buffer.byteLength(text);
		this.bytes += bytes;
		this.writes++;
		this.lastWrite = text;
		// Ink wraps each frame in synchronized-output markers written separately: a frame ends at ESU.
		if (text === BSU) {
			this.frame = {bytes, parts: []};
		} else if (text === ESU && this.frame !== undefined) {
			const frame = {at, bytes: this.frame.bytes + bytes, text: this.frame.parts.join('')};
			this.frame = undefined;
			this.#frameDone(frame);
		} else if (this.frame === undefined) {
			this.#frameDone({at, bytes, text});
		} else {
			this.frame.bytes += bytes;
			this.frame.parts.push(text);
		}

		(typeof encoding === 'function' ? encoding : callback)?.();
		return true;
	}

	#frameDone(frame) {
		this.frames++;
		this.onFrame?.(frame.text, frame.at);
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) {
			resolve(frame);
		}
	}

	/** Resolves at the end of the next frame (`{at, bytes, text}`), or with `undefined` after `timeoutMs`. */
	nextFrame(timeoutMs = 1000) {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.waiters = this.waiters.filter((waiter) => waiter !== done);
				resolve(undefined);
			}, timeoutMs);
			const done = (value) => {
				clearTimeout(timer);
				resolve(value);
			};

			this.waiters.push(done);
		});
	}
}

export class FakeStdin extends EventEmitter {
	constructor() {
		super();
		this.isTTY = true;
		this.queue = [];
	}

	setRawMode() {}
	setEncoding() {}
	ref() {}
	unref() {}

	read() {
		return this.queue.shift() ?? null;
	}

	/** Deliver `data` as typed keys. */
	press(data) {
		this.queue.push(data);
		this.emit('readable');
	}
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
