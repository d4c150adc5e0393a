/**
@module Prompt history, kept per project: loaded at start, appended as lines are submitted.
A history that cannot be read or written is simply not kept; the session goes on.
*/
import {appendFile, readFile} from 'node:fs/promises';
import {dirname} from 'node:path';
import {makeDirectory} from '../../session/store/make-directory.js';

/** Lines kept in memory and loaded from the file. */
export const HISTORY_LIMIT = 1000;

export class PromptHistory {
	readonly #path: string | undefined;
	readonly #entries: string[];

	private constructor(path: string | undefined, entries: string[]) {
		this.#path = path;
		this.#entries = entries;
	}

	static async load(path: string | undefined): Promise<PromptHistory> {
		if (path === undefined) {
			return new PromptHistory(undefined, []);
		}

		try {
			const lines = (await readFile(path, 'utf8')).split('\n').filter(line => line !== '');
			return new PromptHistory(path, lines.slice(-HISTORY_LIMIT).map(line => decodeLine(line)));
		} catch {
			return new PromptHistory(path, []);
		}
	}

	get entries(): readonly string[] {
		return this.#entries;
	}

	add(line: string): void {
		if (this.#entries.at(-1) === line) {
			return;
		}

		this.#entries.push(line);
		if (this.#entries.length > HISTORY_LIMIT) {
			this.#entries.shift();
		}

		if (this.#path !== undefined) {
			const path = this.#path;
			void makeDirectory(dirname(path)).then(async () => appendFile(path, `${encodeLine(line)}\n`)).catch(() => undefined);
		}
	}
}

/** One history entry per file line: backslashes and newlines escaped. */
function encodeLine(line: string): string {
	return line.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
}

function decodeLine(line: string): string {
	return line.replaceAll(/\\(\\|n)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : '\\'));
}
