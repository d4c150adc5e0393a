/**
@module `--plugin FILE`: a module whose exports are tool definitions (`defineTool` results, or an
array of them as the default export). Anything else exported is ignored; a module that exports no
tool is an error naming the file.
*/
import {resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {pushAll} from '../layout/push-all.js';
import type {ToolDefinition} from '../tools/types.js';

function isToolDefinition(value: unknown): value is ToolDefinition {
	if (typeof value !== 'object' || value === null) {
		return false;
	}

	const candidate = value as Partial<ToolDefinition>;
	return typeof candidate.name === 'string' && typeof candidate.execute === 'function' && typeof candidate.output === 'object' && candidate.output !== null;
}

export async function loadPlugins(files: readonly string[], cwd: string): Promise<ToolDefinition[]> {
	const tools: ToolDefinition[] = [];
	for (const file of files) {
		const path = resolve(cwd, file);
		let module: Record<string, unknown>;
		try {
			// eslint-disable-next-line no-await-in-loop -- plugins load in the order given
			module = await import(pathToFileURL(path).href) as Record<string, unknown>;
		} catch (error) {
			throw new Error(`cannot load plugin ${file}: ${(error as Error).message}`);
		}

		const found = Object.values(module).flatMap(value => (Array.isArray(value) ? value : [value])).filter(value => isToolDefinition(value));
		if (found.length === 0) {
			throw new Error(`plugin ${file} exports no tool definition (export defineTool(...) results)`);
		}

		pushAll(tools, found);
	}

	return tools;
}
