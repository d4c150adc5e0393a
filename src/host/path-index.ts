/**
@module The `@` picker's index of the workspace: every file the search tools would see (the one
ignore rule: `.gitignore`, hidden entries, VCS metadata — `tree-walk.ts`) and the folders that hold
them, built off the keystroke path — an async walk started on the first `@`, readable while it runs
(the picker shows what is indexed so far and says it is still indexing) and bounded in memory
(`MAX_ENTRIES`; past it the picker says the index stopped). A query ranks the index in one pass
(`path-rank.ts`), and a query that extends the last one looks only at the last one's matches.
*/
import path from 'node:path';
import {SEARCH_IGNORE_RULE, walkFiles} from '../builtin/search/tree-walk.js';
import {rankPaths} from './path-rank.js';

/** Files and folders the index holds at most: ~100 bytes each with its lower-case copy. */
export const MAX_ENTRIES = 300_000;
/** How often a running walk tells its listeners (the picker redraws with what came). */
const NOTIFY_EVERY = 2000;

/** A path the picker offers: relative to the workspace, a folder's with a trailing `/`; where the query matched. */
export type PathPick = {readonly path: string; readonly folder: boolean; readonly positions: readonly number[]};

/** What a query found, and how far the index is. */
export type PathPicks = {
	readonly picks: readonly PathPick[];
	/** Files and folders indexed so far. */
	readonly indexed: number;
	/** The walk is still going. */
	readonly indexing: boolean;
	/** Why the index is not whole (it stopped at `MAX_ENTRIES`, or the walk failed). */
	readonly note?: string;
};

export class PathIndex {
	readonly #root: string;
	readonly #paths: string[] = [];
	readonly #lowered: string[] = [];
	readonly #folders = new Set<string>();
	readonly #listeners = new Set<() => void>();
	readonly #abort = new AbortController();
	#started = false;
	#indexing = false;
	#note: string | undefined;
	/** The last query and the indices matching it, while the index has not grown since. */
	#last: {readonly query: string; readonly size: number; readonly matches: readonly number[]} | undefined;
	/** The empty query's ranking, while the index has not grown since. */
	#empty: {readonly size: number; readonly limit: number; readonly result: ReturnType<typeof rankPaths>} | undefined;

	constructor(root: string) {
		this.#root = path.resolve(root);
	}

	/** Start the walk (once); resolves when it has ended. */
	async start(): Promise<void> {
		if (this.#started) {
			return;
		}

		this.#started = true;
		this.#indexing = true;
		try {
			let since = 0;
			for await (const file of walkFiles(this.#root, {...SEARCH_IGNORE_RULE, signal: this.#abort.signal})) {
				if (this.#paths.length >= MAX_ENTRIES) {
					this.#note = `the index stopped at ${MAX_ENTRIES.toLocaleString('en-US')} entries`;
					break;
				}

				this.#add(file);
				if (this.#paths.length - since >= NOTIFY_EVERY) {
					since = this.#paths.length;
					this.#changed();
				}
			}
		} catch (error) {
			if (!this.#abort.signal.aborted) {
				this.#note = `indexing failed: ${error instanceof Error ? error.message : String(error)}`;
			}
		} finally {
			this.#indexing = false;
			this.#changed();
		}
	}

	/** Entries that are no files of the workspace (MCP resources, `server:uri`), offered and ranked with them. */
	add(entries: readonly string[]): void {
		for (const entry of entries) {
			if (this.#paths.length >= MAX_ENTRIES) {
				break;
			}

			this.#push(entry);
		}

		this.#changed();
	}

	/** Hear when more is indexed, or the walk ended. */
	onChange(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/** The best `limit` paths for `query` among what is indexed now. */
	find(query: string, limit: number): PathPicks {
		const size = this.#paths.length;
		const wanted = query.toLowerCase();
		const last = this.#last;
		// A longer query only narrows the shorter one's matches (while nothing came since).
		const among = last !== undefined && last.size === size && wanted.startsWith(last.query) ? last.matches : undefined;
		// The empty query (the picker just opened) ranks every path by depth: once per index size.
		const empty = this.#empty;
		const {ranked, matches} = wanted === '' && empty?.size === size && empty.limit === limit ? empty.result : rankPaths(this.#paths, this.#lowered, wanted, limit, wanted === '' ? undefined : among);
		if (wanted === '') {
			this.#empty = {size, limit, result: {ranked, matches}};
		}

		this.#last = wanted === '' ? undefined : {query: wanted, size, matches};
		return {
			picks: ranked.map(({index, positions}) => ({path: this.#paths[index]!, folder: this.#paths[index]!.endsWith('/'), positions})),
			indexed: size,
			indexing: this.#indexing,
			...(this.#note === undefined ? {} : {note: this.#note}),
		};
	}

	/** Stop a running walk. */
	close(): void {
		this.#abort.abort();
		this.#listeners.clear();
	}

	#add(file: string): void {
		// The walk joins each path onto the root: its relative part is what follows it.
		const tail = file.slice(this.#root.length + 1);
		const relative = path.sep === '/' ? tail : tail.split(path.sep).join('/');
		// Its folders first, each once (a folder is offered as soon as it holds a file).
		const folders: string[] = [];
		for (let slash = relative.lastIndexOf('/'); slash > 0; slash = relative.lastIndexOf('/', slash - 1)) {
			const folder = relative.slice(0, slash + 1);
			if (this.#folders.has(folder)) {
				break;
			}

			this.#folders.add(folder);
			folders.push(folder);
		}

		for (const folder of folders.reverse()) {
			this.#push(folder);
		}

		this.#push(relative);
	}

	#push(entry: string): void {
		this.#paths.push(entry);
		this.#lowered.push(entry.toLowerCase());
	}

	#changed(): void {
		for (const listener of this.#listeners) {
			listener();
		}
	}
}
