/**
@module A fake TTY for screen tests: Ink writes to `FakeTty`, which records every byte and feeds an
`@xterm/headless` emulator; `FakeStdin` scripts key presses. Frames are awaited by quiescence (no new
write and the emulator idle over a few short polls), never by fixed sleeps.
*/
import {EventEmitter} from 'node:events';
import xterm from '@xterm/headless';
import type {AnsiColor, Span, StyledLine} from '../../../src/layout/text/styled-line.js';
import {serializeFrame} from '../../../src/testing/serialize-frame.js';

const {Terminal} = xterm;

/** End of a DEC 2026 synchronized update: Ink closes every frame with it on a TTY. */
export const FRAME_END = '\u001B[?2026l';

/** The stdout Ink renders to: `columns`, `rows`, `isTTY`, a recording `write`, and `resize`. */
export class FakeTty extends EventEmitter {
	columns: number;
	rows: number;
	readonly isTTY = true;
	/** Every write, in order. */
	readonly chunks: string[] = [];
	readonly terminal: InstanceType<typeof Terminal>;
	#pending = 0;

	constructor(columns: number, rows: number) {
		super();
		this.columns = columns;
		this.rows = rows;
		// convertEol: a TTY's line discipline (onlcr) turns LF into CR LF.
		this.terminal = new Terminal({cols: columns, rows, scrollback: 1000, allowProposedApi: true, logLevel: 'off', convertEol: true});
	}

	write(data: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean {
		const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
		this.chunks.push(text);
		this.#pending++;
		this.terminal.write(text, () => {
			this.#pending--;
		});
		const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
		if (typeof done === 'function') {
			(done as () => void)();
		}

		return true;
	}

	/** Resize the emulator and tell Ink, as a terminal window resize does. */
	resize(columns: number, rows: number): void {
		this.columns = columns;
		this.rows = rows;
		this.terminal.resize(columns, rows);
		this.emit('resize');
	}

	/** All bytes written so far. */
	get bytes(): string {
		return this.chunks.join('');
	}

	get idle(): boolean {
		return this.#pending === 0;
	}

	/** Frames Ink has completed so far (synchronized-update ends). */
	get frames(): number {
		return this.bytes.split(FRAME_END).length - 1;
	}

	/** Wait until nothing new has been written and the emulator has applied every write. */
	async settle(timeoutMs = 10_000): Promise<void> {
		const started = Date.now();
		let stable = 0;
		let seen = -1;
		while (stable < 3) {
			// polling for quiescence
			await new Promise(resolve => {
				setTimeout(resolve, 25);
			});
			if (this.chunks.length === seen && this.idle) {
				stable++;
			} else {
				stable = 0;
				seen = this.chunks.length;
			}

			if (Date.now() - started > timeoutMs) {
				throw new Error(`screen did not settle within ${timeoutMs} ms`);
			}
		}
	}

	/** Wait until the screen (scrollback included) shows `text`, then settle. */
	async waitForText(text: string, timeoutMs = 15_000): Promise<void> {
		const started = Date.now();
		while (!this.text().includes(text)) {
			if (Date.now() - started > timeoutMs) {
				// What was written says whether the app drew nothing or drew something else.
				const tail = JSON.stringify(this.bytes.slice(-600));
				throw new Error(`screen never showed ${JSON.stringify(text)} (${this.chunks.length} writes, ${this.bytes.length} chars, emulator ${this.idle ? 'idle' : 'busy'}; last written: ${tail}); it shows:\n${this.text()}`);
			}

			// polling for a condition
			await new Promise(resolve => {
				setTimeout(resolve, 20);
			});
		}

		await this.settle();
	}

	/** The buffer's text, every row (scrollback included). */
	text(): string {
		const buffer = this.terminal.buffer.active;
		const rows: string[] = [];
		for (let y = 0; y < buffer.length; y++) {
			rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
		}

		return rows.join('\n');
	}

	/**
	The screen in the frame format of card snapshots, after a header naming the size, the buffer and
	the cursor. `whole` includes the scrollback (the live transcript); otherwise only the viewport.
	*/
	frame(whole: boolean): string {
		const buffer = this.terminal.buffer.active;
		const first = whole ? 0 : buffer.viewportY;
		const last = whole ? buffer.length : buffer.viewportY + this.terminal.rows;
		const lines: StyledLine[] = [];
		for (let y = first; y < last; y++) {
			lines.push(projectRow(buffer, y));
		}

		// Rows below the last written one are the terminal's, not the app's.
		while (lines.length > 0 && lines.at(-1)!.spans.length === 0) {
			lines.pop();
		}

		const header = `terminal ${this.terminal.cols}x${this.terminal.rows} buffer=${buffer.type} ${whole ? 'rows=all' : `rows=viewport`} base=${buffer.baseY} cursor=${buffer.cursorX},${buffer.cursorY}`;
		return serializeFrame(lines, header);
	}
}

/** The stdin Ink reads keys from: `send` queues bytes and signals 'readable'. */
export class FakeStdin extends EventEmitter {
	readonly isTTY = true;
	readonly #queue: string[] = [];

	setRawMode(): this {
		return this;
	}

	setEncoding(): this {
		return this;
	}

	ref(): this {
		return this;
	}

	unref(): this {
		return this;
	}

	resume(): this {
		return this;
	}

	pause(): this {
		return this;
	}

	read(): string | null {
		return this.#queue.shift() ?? null;
	}

	/** Deliver bytes as a terminal would (one chunk). */
	send(data: string): void {
		this.#queue.push(data);
		this.emit('readable');
	}
}

/** Key bytes as a terminal sends them. */
export const keys = {
	enter: '\r',
	tab: '\t',
	/** Shift+Tab as terminals send it (CSI Z, back-tab). */
	shiftTab: '\u001B[Z',
	up: '\u001B[A',
	down: '\u001B[B',
	/** Alt+↑ and Alt+↓ as xterm sends them (modifier 3: Alt). */
	altUp: '\u001B[1;3A',
	altDown: '\u001B[1;3B',
	escape: '\u001B',
	ctrlC: '\u0003',
	ctrlD: '\u0004',
	ctrlO: '\u000F',
	backspace: '\u007F',
} as const;

const palette: readonly AnsiColor[] = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan', 'brightWhite'];

type Buffer = InstanceType<typeof Terminal>['buffer']['active'];
type Cell = NonNullable<ReturnType<NonNullable<ReturnType<Buffer['getLine']>>['getCell']>>;

function cellColor(isPalette: boolean, isRgb: boolean, value: number): string | number | undefined {
	if (isPalette) {
		return value < 16 ? palette[value] : value;
	}

	return isRgb ? `#${value.toString(16).padStart(6, '0')}` : undefined;
}

function cellStyle(cell: Cell): Span['style'] {
	const style: Record<string, unknown> = {};
	// Colours as layout names them: the 16 by name, a 256-colour index as its number, RGB as `#rrggbb`.
	const fg = cellColor(cell.isFgPalette(), cell.isFgRGB(), cell.getFgColor());
	if (fg !== undefined) {
		style.fg = fg;
	}

	const bg = cellColor(cell.isBgPalette(), cell.isBgRGB(), cell.getBgColor());
	if (bg !== undefined) {
		style.bg = bg;
	}

	if (cell.isBold()) {
		style.bold = true;
	}

	if (cell.isDim()) {
		style.dim = true;
	}

	if (cell.isItalic()) {
		style.italic = true;
	}

	if (cell.isUnderline()) {
		style.underline = true;
	}

	if (cell.isInverse()) {
		style.inverse = true;
	}

	if (cell.isStrikethrough()) {
		style.strikethrough = true;
	}

	return Object.keys(style).length === 0 ? undefined : style as Span['style'];
}

/** One emulator row as styled spans: written cells only, runs of one style merged. */
function projectRow(buffer: Buffer, y: number): StyledLine {
	const line = buffer.getLine(y);
	if (line === undefined) {
		return {spans: []};
	}

	// The last cell the app touched: text, or a styled blank (an inverse cursor cell, say).
	let end = 0;
	for (let x = 0; x < line.length; x++) {
		const cell = line.getCell(x)!;
		if (cell.getChars() !== '' || cellStyle(cell) !== undefined) {
			end = x + cell.getWidth();
		}
	}

	const spans: Span[] = [];
	for (let x = 0; x < end; x++) {
		const cell = line.getCell(x)!;
		if (cell.getWidth() === 0) {
			continue;
		}

		const text = cell.getChars() === '' ? ' ' : cell.getChars();
		const style = cellStyle(cell);
		const previous = spans.at(-1);
		if (previous !== undefined && JSON.stringify(previous.style) === JSON.stringify(style)) {
			spans[spans.length - 1] = {...previous, text: previous.text + text};
		} else {
			spans.push(style === undefined ? {text} : {text, style});
		}
	}

	return line.isWrapped ? {spans, softWrap: true} : {spans};
}
