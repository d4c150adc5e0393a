/**
@module The workspace's shadow repository (issue 20): a git repository of cardterm's own, outside the
project (under the user's data directory), that snapshots the workspace's tracked and
untracked-not-ignored files, so `/undo` can take back what shell commands changed. Git runs with its
own `GIT_DIR`, `GIT_WORK_TREE` and `GIT_INDEX_FILE`, every inherited `GIT_*` variable dropped: the
user's repository, index, stash and config of the project are never written (one read-only question
first: whether the workspace is a git work tree at all) (the project's
`.gitignore` files are honoured, as they are files of the work tree). A snapshot is an index update
(`git add -A`, which re-hashes only files whose stat changed) and a tree; each is kept by a ref, so a
resumed session finds the snapshots of its earlier turns.
*/
import {execFile, type ChildProcess} from 'node:child_process';
import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import {makeDirectory} from '../session/store/make-directory.js';

/** A file that differs between two snapshots: its path (relative to the workspace) and its bytes on each side (`undefined`: absent). */
export type SnapshotChange = {readonly path: string; readonly before: Buffer | undefined; readonly after: Buffer | undefined};

/** Largest output read from one git command (a blob, a diff listing). */
const GIT_MAX_BUFFER = 64 * 1024 * 1024;

export class ShadowGit {
	readonly #env: NodeJS.ProcessEnv;
	readonly #workspace: string;
	readonly #index: string;
	/** Git processes running; `stop` ends them. */
	readonly #running = new Set<ChildProcess>();
	#stopped = false;

	private constructor(env: NodeJS.ProcessEnv, workspace: string, index: string) {
		this.#env = env;
		this.#workspace = workspace;
		this.#index = index;
	}

	/**
	The shadow repository of `workspace` in `directory` (created when new), with an index of session
	`sessionId`'s own (two sessions of a project snapshot side by side), or why there is none: no git,
	or a workspace that is no git work tree of the user's (a home folder is not snapshotted whole).
	*/
	static async open(workspace: string, directory: string, sessionId: string): Promise<ShadowGit | {readonly unavailable: string}> {
		const inherited: NodeJS.ProcessEnv = {};
		for (const [name, value] of Object.entries(process.env)) {
			// The user's GIT_DIR, GIT_INDEX_FILE, … (a hook's environment) must never steer the shadow's git.
			if (!name.startsWith('GIT_')) {
				inherited[name] = value;
			}
		}

		// Read only: whether the workspace is in a work tree of the user's.
		const probe = new ShadowGit({...inherited, GIT_OPTIONAL_LOCKS: '0'}, workspace, '');
		const inside = await probe.#git(['rev-parse', '--is-inside-work-tree']).then(out => out.toString('utf8').trim() === 'true', (error: unknown) => error as Error);
		if (inside !== true) {
			const notRepository = inside === false || /not a git repository/i.test(inside.message);
			return {unavailable: notRepository ? 'no git repository here' : `no git (${(inside as Error).message.split('\n')[0]})`};
		}

		const index = join(directory, `index-${sessionId.replaceAll(/[^\w.-]/g, '_')}`);
		const env: NodeJS.ProcessEnv = {...inherited};
		Object.assign(env, {
			GIT_DIR: directory,
			GIT_WORK_TREE: workspace,
			GIT_INDEX_FILE: index,
			GIT_CONFIG_NOSYSTEM: '1',
			GIT_AUTHOR_NAME: 'cardterm',
			GIT_AUTHOR_EMAIL: 'cardterm@localhost',
			GIT_COMMITTER_NAME: 'cardterm',
			GIT_COMMITTER_EMAIL: 'cardterm@localhost',
			GIT_TERMINAL_PROMPT: '0',
		});
		const shadow = new ShadowGit(env, workspace, index);
		try {
			// A mkdir -p that always ends (Node's recursive mkdir never settles under /proc).
			await makeDirectory(directory);
			await shadow.#git(['init', '--quiet']);
		} catch (error) {
			return {unavailable: `no shadow repository (${(error as Error).message.split('\n')[0]})`};
		}

		return shadow;
	}

	/** Snapshot the workspace now; kept under `ref` (`refs/cardterm/…`). Resolves with the snapshot's tree. */
	async snapshot(ref: string): Promise<string> {
		// Only this session uses its index: a lock left by a snapshot stopped at the last close is stale.
		await rm(`${this.#index}.lock`, {force: true});
		await this.#git(['add', '--all', '--', '.']);
		const tree = (await this.#git(['write-tree'])).toString('utf8').trim();
		const commit = (await this.#git(['commit-tree', tree, '-m', ref])).toString('utf8').trim();
		await this.#git(['update-ref', ref, commit]);
		return tree;
	}

	/** The tree a ref keeps, if any. */
	async tree(ref: string): Promise<string | undefined> {
		try {
			return (await this.#git(['rev-parse', '--verify', '--quiet', `${ref}^{tree}`])).toString('utf8').trim();
		} catch {
			return undefined;
		}
	}

	/** The files that differ between two trees (but those `skip` names), with their bytes on each side. */
	async changes(from: string, to: string, skip: (path: string) => boolean = () => false): Promise<SnapshotChange[]> {
		const listing = (await this.#git(['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to])).toString('utf8');
		const paths = listing.split('\0').filter(path => path !== '' && !skip(path));
		// Every blob in one `cat-file --batch`: a process per blob costs more than the undo itself.
		const blobs = await this.#blobs(paths.flatMap(path => [`${from}:${path}`, `${to}:${path}`]));
		return paths.map((path, index) => ({path, before: blobs[2 * index], after: blobs[(2 * index) + 1]}));
	}

	/** End the git processes running and start no more (the session closes). */
	stop(): void {
		this.#stopped = true;
		for (const child of this.#running) {
			child.kill('SIGKILL');
		}
	}

	/** The blobs `names` (`tree:path`) name, `undefined` where there is none. */
	async #blobs(names: readonly string[]): Promise<Array<Buffer | undefined>> {
		if (names.length === 0) {
			return [];
		}

		const output = await this.#git(['cat-file', '--batch'], `${names.join('\n')}\n`);
		const blobs: Array<Buffer | undefined> = [];
		let at = 0;
		for (let index = 0; index < names.length; index++) {
			const end = output.indexOf(0x0A, at);
			const header = output.subarray(at, end).toString('utf8');
			at = end + 1;
			// `<oid> blob <size>`, or `<name> missing` (the file is absent on that side).
			const size = /^[\da-f]+ blob (\d+)$/.exec(header)?.[1];
			if (size === undefined) {
				blobs.push(undefined);
				continue;
			}

			blobs.push(output.subarray(at, at + Number(size)));
			at += Number(size) + 1;
		}

		return blobs;
	}

	async #git(args: readonly string[], input?: string): Promise<Buffer> {
		if (this.#stopped) {
			throw new Error('the shadow repository is closed');
		}

		return new Promise((resolve, reject) => {
			const child = execFile('git', ['-c', 'core.autocrlf=false', '-c', 'core.quotepath=false', '-c', 'gc.auto=0', '-c', 'core.fsmonitor=false', ...args], {cwd: this.#workspace, env: this.#env, encoding: 'buffer', maxBuffer: GIT_MAX_BUFFER}, (error, stdout, stderr) => {
				this.#running.delete(child);
				if (error === null) {
					resolve(stdout);
				} else {
					reject(new Error(`git ${args[0]}: ${stderr.toString('utf8').trim() || error.message}`));
				}
			});
			this.#running.add(child);
			// A git that exits early closes its stdin: its exit says what went wrong, not the pipe.
			child.stdin?.on('error', () => undefined);
			child.stdin?.end(input ?? '');
		});
	}
}
