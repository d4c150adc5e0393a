/**
@module `builtinTools(options)`: the reference tools of the contract, configured for one session
workspace — bash, read, write, edit, grep, glob, web_search, web_fetch, todo_write and the job tools.
`run_code` is not among them: it is the registry's Code Mode transport (see `attachCodeMode`).
Replay uses the same set for its presenters; nothing executes on replay.
*/
import {codeModeTransport} from '../code-mode/run-code-tool.js';
import type {CodeDispatchEvent} from '../code-mode/code-mode-types.js';
import {JobRuntime} from '../jobs/job-runtime.js';
import {jobTools} from '../jobs/job-tools.js';
import type {TodoItem} from '../session/events/events.js';
import type {ToolRegistry} from '../tools/registry.js';
import type {ToolDefinition} from '../tools/types.js';
import {bashTool} from './bash.js';
import {fsTools} from './fs.js';
import {searchTools} from './search.js';
import {todoTool} from './todo.js';
import {webTools, type WebToolsOptions} from './web.js';
import {WorkspaceGuard} from './workspace/workspace-guard.js';

export type BuiltinToolsOptions = {
	/** The session workspace: relative paths and the shell's default directory. */
	readonly workspace: string;
	/** Extra directories the file and search tools may reach. */
	readonly allowedRoots?: readonly string[];
	/** The background-job runtime (one per session); created when absent. */
	readonly jobs?: JobRuntime;
	/**
	Where bash spills full output of truncated streams (none: the notice says unavailable). The file
	and search tools may read there too, so the model can page through what the marker names.
	*/
	readonly spillDir?: string;
	/** Receives each todo list `todo_write` accepts (the session records it as `todo/write`). */
	readonly onTodos?: (todos: readonly TodoItem[]) => void;
	/** Web tools: fetch limits, a search provider (default: `CARDTERM_SEARXNG_URL` from the environment). */
	readonly web?: WebToolsOptions;
	/** Force ripgrep on or off for grep (default: ripgrep when it is on PATH). */
	readonly useRipgrep?: boolean;
	/** The environment of bash's commands (default: this process's). */
	readonly commandEnv?: NodeJS.ProcessEnv;
	/** The sandbox bash's commands run under now (`BashToolOptions.confine`). */
	readonly confine?: () => Promise<readonly string[] | undefined>;
};

/** The reference tools for one session, and the job runtime they share. */
export function builtinTools(options: BuiltinToolsOptions): {readonly tools: readonly ToolDefinition[]; readonly jobs: JobRuntime} {
	const jobs = options.jobs ?? new JobRuntime();
	const allowedRoots = options.spillDir === undefined ? options.allowedRoots : [...(options.allowedRoots ?? []), options.spillDir];
	const guard = new WorkspaceGuard({workspace: options.workspace, ...(allowedRoots === undefined ? {} : {allowedRoots})});
	const tools: ToolDefinition[] = [
		bashTool({workspace: options.workspace, jobs, spillDir: options.spillDir, ...(options.commandEnv === undefined ? {} : {env: options.commandEnv}), ...(options.confine === undefined ? {} : {confine: options.confine})}) as ToolDefinition,
		...fsTools({workspace: options.workspace, guard}),
		...searchTools({workspace: options.workspace, guard, ...(options.useRipgrep === undefined ? {} : {useRipgrep: options.useRipgrep})}),
		...webTools(options.web),
		todoTool({onWrite: options.onTodos}) as ToolDefinition,
		...jobTools(jobs),
	];
	return {tools, jobs};
}

/** Install `run_code` on a registry; its sub-calls run through that registry. Returns the disposer. */
export function attachCodeMode(registry: ToolRegistry, options: {readonly onDispatch?: (event: CodeDispatchEvent) => void; readonly timeoutMs?: number; readonly env?: NodeJS.ProcessEnv} = {}): () => void {
	return registry.attachCodeTransport(codeModeTransport({executor: registry, ...options}));
}

/** Presenters of `run_code` for replay (the transport is a raw definition with a lenient presenter). */
export function codeModePresenter(): ToolDefinition {
	return codeModeTransport({executor: {execute: async () => {
		throw new Error('replay executes nothing');
	}, schemas: () => []}});
}
