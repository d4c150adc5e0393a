import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach} from 'vitest';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import type {SessionEvent, SessionHeader} from '../../src/session/events/events.js';
import type {LogDiagnostic} from '../../src/session/reader/log-errors.js';
import type {LogFileHandle} from '../../src/session/recorder/log-writer.js';
import type {SessionLogSource} from '../../src/session/reader/log-source.js';

/** Path of a committed fixture log. */
export function fixture(name: string): string {
	return fileURLToPath(new URL(`../fixtures/logs/${name}`, import.meta.url));
}

/** Lines of a fixture (without the final empty string). */
export function fixtureLines(name: string): string[] {
	return readFileSync(fixture(name), 'utf8').split('\n').slice(0, -1);
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(): {dir: string; cleanup: () => void} {
	const dir = mkdtempSync(join(tmpdir(), 'cardterm-session-'));
	return {dir, cleanup: () => rmSync(dir, {recursive: true, force: true})};
}

/** A fresh temporary directory for each test of the calling file, given to `use` before the test and removed after it. */
export function useTempDir(use: (dir: string) => void): void {
	let cleanup: (() => void) | undefined;
	beforeEach(() => {
		const made = tempDir();
		cleanup = made.cleanup;
		use(made.dir);
	});
	afterEach(() => {
		cleanup?.();
		cleanup = undefined;
	});
}

/**
A log file handle on the real file at `path` (opened `a+`, as the writer does) whose appends go
through `write` instead: fault injection and write counting. `write` gets the real handle. With
`fd`, the handle has a descriptor too (read each time it is asked for), which the writer writes to
synchronously instead of calling `write`.
*/
export async function openWithWrite(
	path: string,
	write: (real: FileHandle, buffer: Uint8Array, offset: number, length: number) => Promise<{bytesWritten: number}>,
	fd?: (real: FileHandle) => number,
): Promise<LogFileHandle> {
	const real = await open(path, 'a+');
	const handle: LogFileHandle = {
		read: async (buffer, offset, length, position) => real.read(buffer, offset, length, position),
		stat: async () => real.stat(),
		datasync: async () => real.datasync(),
		truncate: async length => real.truncate(length),
		close: async () => real.close(),
		write: async (buffer, offset, length) => write(real, buffer, offset, length),
	};
	return fd === undefined ? handle : Object.defineProperty(handle, 'fd', {get: () => fd(real), enumerable: true});
}

/** Writes `text` to `name` inside `dir`; returns the path. */
export function writeTemp(dir: string, name: string, text: string | Uint8Array): string {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

/** Reads a whole log into memory (tests only). */
export async function readAll(source: SessionLogSource): Promise<{header: SessionHeader; events: SessionEvent[]; diagnostics: LogDiagnostic[]}> {
	const log = await openSessionLog(source);
	const events: SessionEvent[] = [];
	for await (const event of log.events) {
		events.push(event);
	}

	return {header: log.header, events, diagnostics: [...log.diagnostics]};
}
