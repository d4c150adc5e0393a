/**
@module What a `--plugin FILE` module is to a session. Two shapes:

- the seed's (contract.md §T8, "最小構成"): `export const name`, `export const inject`
  (the services it needs; cardterm provides `tools` and `jobs`) and `export function apply(ctx)`,
  which registers through `ctx` (`plugin-context.ts`); the same three on a default-exported object
  work too;
- cardterm's own: tool definitions (`defineTool` results) as exports, or an array of them as the
  default export.

Either way the session applies the plugin after its reference tools and disposes it when it closes.
An `apply` that has not settled after `PLUGIN_APPLY_LIMIT_MS` is given up (`PluginApplyTimeout`):
what it registered so far is removed, later registrations are refused, and the session goes on
without it — a plugin must not hold the session's start for ever, where no key or signal is heard
(issue 16, attacker item 7). A termination signal gives it up at once.
*/
import {basename} from 'node:path';
import {formatDuration} from '../layout/text/format.js';
import {thrownMessage} from '../tools/errors.js';
import type {ToolDefinition} from '../tools/types.js';
import {openPluginScope, type PluginContext, type PluginHost} from './plugin-context.js';

/** How long a plugin's `apply(ctx)` may take: a start-up wait as long as an MCP server's (Codex: 10 s). */
export const PLUGIN_APPLY_LIMIT_MS = 10_000;

/** A plugin that took too long to load or apply: the session goes on without it. */
export class PluginApplyTimeout extends Error {
	constructor(plugin: string, what: string, limitMs: number) {
		super(`plugin ${plugin} skipped: ${what} did not finish within ${formatDuration(limitMs)}`);
		this.name = 'PluginApplyTimeout';
	}
}

/** What applying a plugin needs besides the session's host: when to give up on it. */
export type PluginApplyOptions = {
	/** Give up at once (a termination signal): rejects with the signal's reason. */
	readonly signal?: AbortSignal;
	/** Default `PLUGIN_APPLY_LIMIT_MS`. */
	readonly limitMs?: number;
};

/** The services a plugin may `inject`. */
const providedServices: ReadonlySet<string> = new Set(['tools', 'jobs']);

/** A plugin ready to be applied to a session. */
export type SessionPlugin = {
	/** The plugin's name (`export const name`, else the file's name). */
	readonly name: string;
	/** The file it came from, for messages. */
	readonly file: string;
	/**
	Apply it to a session; resolves with the disposal that ends everything it registered (which never
	rejects). Rejects naming the plugin when it cannot be applied (nothing it registered is left), with
	`PluginApplyTimeout` when it took longer than `host.limitMs`, and with the signal's reason when
	`host.signal` aborts.
	*/
	apply(host: PluginHost & PluginApplyOptions): Promise<() => Promise<void>>;
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
			const limitMs = host.limitMs ?? PLUGIN_APPLY_LIMIT_MS;
			try {
				await bounded(async () => apply.call(seed, scope.ctx), limitMs, host.signal, () => new PluginApplyTimeout(`"${name}" (${file})`, 'its apply(ctx)', limitMs));
			} catch (error) {
				// A plugin that fails half-way, or is given up, leaves nothing behind.
				await scope.dispose();
				if (error instanceof PluginApplyTimeout || host.signal?.aborted === true) {
					throw error;
				}

				throw new Error(`cannot apply plugin "${name}" (${file}): ${thrownMessage(error)}`);
			}

			return async () => scope.dispose();
		},
	};
}

/**
`run()`'s promise, unless `limitMs` passes first (rejects with `timeout()`) or `signal` aborts (rejects
with its reason). The work is not stopped — a promise cannot be — only no longer waited for.
*/
export async function bounded<T>(run: () => Promise<T>, limitMs: number, signal: AbortSignal | undefined, timeout: () => Error): Promise<T> {
	signal?.throwIfAborted();
	let timer: NodeJS.Timeout | undefined;
	let onAbort: (() => void) | undefined;
	const givenUp = new Promise<never>((_resolve, reject) => {
		// The timer keeps the process alive: a promise that never settles would otherwise end it (exit 13).
		timer = setTimeout(() => {
			reject(timeout());
		}, limitMs);
		onAbort = () => {
			reject(signal!.reason);
		};

		signal?.addEventListener('abort', onAbort, {once: true});
	});
	try {
		return await Promise.race([run(), givenUp]);
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener('abort', onAbort!);
	}
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
