import {mkdir, mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {ToolDefinition, ToolExecutionResult} from '../../src/tools/types.js';

/** A temporary workspace with a registry of tools rooted in it. */
export type ToolWorkspace = {
	/** The temporary directory (real path); the workspace is `<base>/proj`, so tests can reach outside it. */
	readonly base: string;
	readonly workspace: string;
	readonly registry: ToolRegistry;
	readonly tools: Map<string, ToolDefinition>;
	/** Execute a tool through the registry, with a fresh call id and signal. */
	readonly call: (name: string, args: unknown) => Promise<ToolExecutionResult>;
	/** Remove the temporary directory. */
	readonly dispose: () => Promise<void>;
};

/**
Make `<tmp>/<prefix>…/proj` with an empty `src/` folder, run `seed` on it, and register the tools
`makeTools` builds for it.
*/
export async function createToolWorkspace(
	prefix: string,
	makeTools: (workspace: string) => readonly ToolDefinition[],
	seed?: (workspace: string) => Promise<void>,
): Promise<ToolWorkspace> {
	const base = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
	const workspace = path.join(base, 'proj');
	await mkdir(path.join(workspace, 'src'), {recursive: true});
	await seed?.(workspace);
	const registry = new ToolRegistry();
	const tools = new Map<string, ToolDefinition>();
	for (const tool of makeTools(workspace)) {
		registry.register(tool);
		tools.set(tool.name, tool);
	}

	let calls = 0;
	return {
		base,
		workspace,
		registry,
		tools,
		call: async (name, args) => registry.execute({callId: `call-${(calls += 1)}`, name, arguments: args, signal: new AbortController().signal}),
		dispose: async () => rm(base, {recursive: true, force: true}),
	};
}

/** What a log keeps of a result, as presenters receive it. */
export function persisted(result: ToolExecutionResult) {
	return {content: result.content, isError: result.isError, ...(result.meta === undefined ? {} : {meta: result.meta})};
}
