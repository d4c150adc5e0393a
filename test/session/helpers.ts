import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach} from 'vitest';
import {openSessionLog} from '../../src/session/read-session-log.js';
import type {SessionEvent, SessionHeader} from '../../src/session/events.js';
import type {LogDiagnostic} from '../../src/session/log-errors.js';
import type {SessionLogSource} from '../../src/session/log-source.js';

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
