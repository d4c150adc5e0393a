/**
@module `--plugin FILE`: import each file and make it a `SessionPlugin` (`session-plugin.ts` says
which module shapes are plugins). Before the first import the plugin module hooks are registered
(`plugin-loader-hooks.ts`): the seed's `@deepseek-ai/dsh-tools` resolves to this cardterm and a
TypeScript plugin loads on Node 20 too.
*/
// A namespace import: `register` is missing before Node 20.6, and a named import would fail to link.
import * as nodeModule from 'node:module';
import {resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import type {PluginLoaderData} from './plugin-loader-hooks.js';
import {pluginFromModule, type SessionPlugin} from '../host/session-plugin.js';

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

export async function loadPlugins(files: readonly string[], cwd: string): Promise<SessionPlugin[]> {
	if (files.length === 0) {
		return [];
	}

	registerPluginHooks();
	const plugins: SessionPlugin[] = [];
	for (const file of files) {
		const path = resolve(cwd, file);
		let module: Record<string, unknown>;
		try {
			// eslint-disable-next-line no-await-in-loop -- plugins load in the order given
			module = await import(pathToFileURL(path).href) as Record<string, unknown>;
		} catch (error) {
			throw new Error(`cannot load plugin ${file}: ${(error as Error).message}`);
		}

		plugins.push(pluginFromModule(module, file));
	}

	return plugins;
}
