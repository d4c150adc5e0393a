/**
@module What a `--plugin FILE` module is to a session. Two shapes:

- the seed's (contract.md §T8, "最小構成"): `export const name`, `export const inject`
  (the services it needs; cardterm provides `tools` and `jobs`) and `export function apply(ctx)`,
  which registers through `ctx` (`plugin-context.ts`); the same three on a default-exported object
  work too;
- cardterm's own: tool definitions (`defineTool` results) as exports, or an array of them as the
  default export.

Either way the session applies the plugin after its reference tools and disposes it when it closes.
*/
import {basename} from 'node:path';
import {thrownMessage} from '../tools/errors.js';
import type {ToolDefinition} from '../tools/types.js';
import {openPluginScope, type PluginContext, type PluginHost} from './plugin-context.js';

/** The services a plugin may `inject`. */
const providedServices: ReadonlySet<string> = new Set(['tools', 'jobs']);

/** A plugin ready to be applied to a session. */
export type SessionPlugin = {
	/** The plugin's name (`export const name`, else the file's name). */
	readonly name: string;
	/** The file it came from, for messages. */
	readonly file: string;
	/** Apply it to a session; resolves with the disposal that ends everything it registered (never rejects). */
	apply(host: PluginHost): Promise<() => Promise<void>>;
};

type SeedShape = {readonly name?: unknown; readonly inject?: unknown; readonly apply: (ctx: PluginContext) => unknown};

/** The plugin `module` (the namespace of `file`) stands for; throws naming the file when it is neither shape. */
export function pluginFromModule(module: Readonly<Record<string, unknown>>, file: string): SessionPlugin {
	const seed = seedShape(module);
	if (seed !== undefined) {
		return seedPlugin(seed, file);
	}

	const tools = Object.values(module).flatMap(value => (Array.isArray(value) ? value : [value])).filter(value => isToolDefinition(value));
	if (tools.length === 0) {
		throw new Error(`plugin ${file} exports neither apply(ctx) nor a tool definition (export defineTool(...) results)`);
	}

	return {
		name: basename(file),
		file,
		async apply(host) {
			const scope = openPluginScope(basename(file), host);
			try {
				for (const tool of tools) {
					scope.ctx.tools.register(tool);
				}
			} catch (error) {
				await scope.dispose();
				throw new Error(`cannot register plugin ${file}: ${thrownMessage(error)}`);
			}

			return async () => scope.dispose();
		},
	};
}

function seedShape(module: Readonly<Record<string, unknown>>): SeedShape | undefined {
	if (typeof module.apply === 'function') {
		return module as SeedShape;
	}

	const fallback = module.default;
	return typeof fallback === 'object' && fallback !== null && typeof (fallback as {apply?: unknown}).apply === 'function' ? fallback as SeedShape : undefined;
}

function seedPlugin(seed: SeedShape, file: string): SessionPlugin {
	if (seed.name !== undefined && (typeof seed.name !== 'string' || seed.name === '')) {
		throw new Error(`plugin ${file}: name must be a non-empty string`);
	}

	const name = seed.name ?? basename(file);
	const missing = requiredServices(seed.inject, file).filter(service => !providedServices.has(service));
	if (missing.length > 0) {
		throw new Error(`plugin "${name}" (${file}) needs ${missing.join(', ')}, which cardterm does not provide (it provides ${[...providedServices].join(', ')})`);
	}

	const {apply} = seed;
	return {
		name,
		file,
		async apply(host) {
			const scope = openPluginScope(name, host);
			try {
				await apply.call(seed, scope.ctx);
			} catch (error) {
				// A plugin that fails half-way leaves nothing behind.
				await scope.dispose();
				throw new Error(`cannot apply plugin "${name}" (${file}): ${thrownMessage(error)}`);
			}

			return async () => scope.dispose();
		},
	};
}

/** The required service names of an `inject` declaration: an array, or `{required?, optional?}`. */
function requiredServices(inject: unknown, file: string): string[] {
	if (inject === undefined) {
		return [];
	}

	const names = Array.isArray(inject) ? inject : (typeof inject === 'object' && inject !== null ? (inject as {required?: unknown}).required ?? [] : undefined);
	if (!Array.isArray(names) || names.some(service => typeof service !== 'string')) {
		throw new Error(`plugin ${file}: inject must be an array of service names (or {required, optional})`);
	}

	return names as string[];
}

function isToolDefinition(value: unknown): value is ToolDefinition {
	if (typeof value !== 'object' || value === null) {
		return false;
	}

	const candidate = value as Partial<ToolDefinition>;
	return typeof candidate.name === 'string' && typeof candidate.execute === 'function' && typeof candidate.output === 'object' && candidate.output !== null;
}
