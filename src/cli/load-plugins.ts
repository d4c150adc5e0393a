/**
@module `--plugin FILE`: import each file and make it a `SessionPlugin` (`session-plugin.ts` says
which module shapes are plugins). Before the first import the plugin module hooks are registered
(`plugin-loader-hooks.ts`): the seed's `@deepseek-ai/dsh-tools` resolves to this cardterm and a
TypeScript plugin loads on Node 20 too.
*/
// A namespace import: `register` is missing before Node 20.6, and a named import would fail to link.
import * as nodeModule from 'node:module';
import {stat} from 'node:fs/promises';
import {resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import type {PluginLoaderData} from './plugin-loader-hooks.js';
import {UsageError} from './environment/parse-args.js';
import {bounded, PLUGIN_APPLY_LIMIT_MS, PluginApplyTimeout, pluginFromModule, type PluginApplyOptions, type SessionPlugin} from '../host/session-plugin.js';

/** The seed's package names and the module of this cardterm each stands for. */
const seedPackages: PluginLoaderData['aliases'] = {
	'@deepseek-ai/dsh-tools': new URL('../index.js', import.meta.url).href,
};

let hooksRegistered = false;

function registerPluginHooks(): void {
	if (hooksRegistered) {
		return;
	}

	hooksRegistered = true;
	const data: PluginLoaderData = {aliases: seedPackages};
	if (typeof nodeModule.register === 'function') {
		nodeModule.register(new URL('plugin-loader-hooks.js', import.meta.url), {data});
	}
}

/**
The plugins of `files` (paths from `cwd`), in order. A path with no file is a usage error; a file
that cannot be imported, or is no plugin, throws naming it; a module still loading after the limit (a top-level await that never
settles) is skipped, told to `onSkipped`, as a plugin whose apply takes too long is.
*/
export async function loadPlugins(files: readonly string[], cwd: string, options: PluginApplyOptions & {readonly onSkipped: (message: string) => void}): Promise<SessionPlugin[]> {
	if (files.length === 0) {
		return [];
	}

	registerPluginHooks();
	const plugins: SessionPlugin[] = [];
	for (const file of files) {
		const path = resolve(cwd, file);
		// eslint-disable-next-line no-await-in-loop -- plugins load in the order given
		if (!(await stat(path).then(found => found.isFile(), () => false))) {
			throw new UsageError(`--plugin ${file}: no such file (${path})`);
		}

		let module: Record<string, unknown>;
		const limitMs = options.limitMs ?? PLUGIN_APPLY_LIMIT_MS;
		try {
			// eslint-disable-next-line no-await-in-loop -- plugins load in the order given
			module = await bounded(async () => import(pathToFileURL(path).href) as Promise<Record<string, unknown>>, limitMs, options.signal, () => new PluginApplyTimeout(file, 'its module', limitMs));
		} catch (error) {
			if (error instanceof PluginApplyTimeout) {
				options.onSkipped(error.message);
				continue;
			}

			if (options.signal?.aborted === true) {
				throw error;
			}

			throw new Error(`cannot load plugin ${file}: ${(error as Error).message}`);
		}

		plugins.push(pluginFromModule(module, file));
	}

	return plugins;
}
