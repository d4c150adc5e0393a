/**
@module Where other agents keep the sessions of a project, each in its own default folder and under
its own environment variable (the one the agent itself reads, so tests and people who moved it are
followed):
- Claude Code: `$CLAUDE_CONFIG_DIR` or `~/.claude`, `projects/<cwd, each character other than a
  letter or digit as ->/<session id>.jsonl`;
- Codex: `$CODEX_HOME` or `~/.codex`, `sessions/YYYY/MM/DD/rollout-*.jsonl` (any project: the reader
  keeps those whose header names this folder);
- Gemini CLI: `$GEMINI_CLI_HOME` or `~`, `.gemini/tmp/<project>/chats/session-*.jsonl` (`.json`
  before 0.5x), the project folder being the one whose `.project_root` names this folder, or the
  SHA-256 of its path (its older chats do not name the folder: the project's folder says it);
- pi: `$PI_CODING_AGENT_DIR` or `~/.pi/agent`, `sessions/--<cwd, / as ->--/*.jsonl`.
A folder that does not exist or cannot be read holds none; at most `MAX_FILES` files per agent.
*/
/* eslint-disable no-await-in-loop -- folders are read one after another, newest first, until MAX_FILES */
import {createHash} from 'node:crypto';
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';

/** Files looked at per agent, at most (newest names first where names sort by time). */
const MAX_FILES = 2000;

type Env = Readonly<Record<string, string | undefined>>;

/** The session files other agents wrote that may belong to `cwd` (Codex's are filtered by their header later). */
export async function agentSessionFiles(cwd: string, env: Env, home: string): Promise<string[]> {
	const found = await Promise.all([claudeCode(cwd, env, home), codex(env, home), geminiCli(cwd, env, home), pi(cwd, env, home)]);
	return found.flat();
}

async function names(dir: string): Promise<Array<{readonly name: string; readonly folder: boolean}>> {
	try {
		return (await readdir(dir, {withFileTypes: true})).map(entry => ({name: entry.name, folder: entry.isDirectory()}));
	} catch {
		return [];
	}
}

async function filesIn(dir: string, keep: (name: string) => boolean): Promise<string[]> {
	return (await names(dir)).filter(entry => !entry.folder && keep(entry.name)).map(entry => entry.name).sort().reverse().slice(0, MAX_FILES).map(name => join(dir, name));
}

async function claudeCode(cwd: string, env: Env, home: string): Promise<string[]> {
	const root = env.CLAUDE_CONFIG_DIR ?? join(home, '.claude');
	// Subagents' transcripts (`agent-*.jsonl`, in the project folder before 2.x) open from their parent's card.
	return filesIn(join(root, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-')), name => name.endsWith('.jsonl') && !name.startsWith('agent-'));
}

async function codex(env: Env, home: string): Promise<string[]> {
	const root = join(env.CODEX_HOME ?? join(home, '.codex'), 'sessions');
	const files: string[] = [];
	// YYYY/MM/DD, newest first.
	for (const year of (await names(root)).filter(entry => entry.folder).map(entry => entry.name).sort().reverse()) {
		for (const month of (await names(join(root, year))).filter(entry => entry.folder).map(entry => entry.name).sort().reverse()) {
			for (const day of (await names(join(root, year, month))).filter(entry => entry.folder).map(entry => entry.name).sort().reverse()) {
				// A loop, not a spread: a day's folder may hold any number of rollouts.
				for (const file of await filesIn(join(root, year, month, day), name => name.startsWith('rollout-') && name.endsWith('.jsonl'))) {
					files.push(file);
				}

				if (files.length >= MAX_FILES) {
					return files.slice(0, MAX_FILES);
				}
			}
		}
	}

	return files;
}

async function geminiCli(cwd: string, env: Env, home: string): Promise<string[]> {
	const root = join(env.GEMINI_CLI_HOME ?? home, '.gemini', 'tmp');
	const hash = createHash('sha256').update(cwd).digest('hex');
	const projects: string[] = [];
	for (const entry of (await names(root)).filter(entry => entry.folder)) {
		const marker = await readFile(join(root, entry.name, '.project_root'), 'utf8').catch(() => undefined);
		if (entry.name === hash || marker?.trim() === cwd) {
			projects.push(entry.name);
		}
	}

	const found = await Promise.all(projects.map(async project => filesIn(join(root, project, 'chats'), name => name.startsWith('session-') && (name.endsWith('.jsonl') || name.endsWith('.json')))));
	return found.flat();
}

async function pi(cwd: string, env: Env, home: string): Promise<string[]> {
	const root = env.PI_CODING_AGENT_DIR ?? join(home, '.pi', 'agent');
	return filesIn(join(root, 'sessions', `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`), name => name.endsWith('.jsonl'));
}
