/**
@module Module hooks for `--plugin` files, registered by `load-plugins.ts` with `module.register`
(they run on Node's loader thread, for every import after that):

- the package names of the seed's plugins (`@deepseek-ai/dsh-tools`) resolve to this cardterm, so a
  plugin written against the seed loads unmodified and gets the very `defineTool` the session uses;
- a TypeScript file (`.ts`, `.mts`) loads with its types stripped when this Node cannot strip them
  itself (Node 20), by the `typescript` package found beside the plugin or beside cardterm. Without
  one the import fails with a message saying what to do.
*/
import {readFile} from 'node:fs/promises';
import {createRequire, type InitializeHook, type LoadHook, type ResolveHook} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';

/** What `register` passes: bare specifier → the URL it stands for. */
export type PluginLoaderData = {readonly aliases: Readonly<Record<string, string>>};

/** The part of the `typescript` package used here (it is optional at run time, so not imported by type). */
type TypeScript = {
	transpileModule(source: string, options: {fileName: string; compilerOptions: Record<string, unknown>}): {outputText: string};
	readonly ModuleKind: {readonly ESNext: number};
	readonly ScriptTarget: {readonly ES2022: number};
};

const aliases = new Map<string, string>();

export const initialize: InitializeHook<PluginLoaderData> = data => {
	for (const [specifier, url] of Object.entries(data.aliases)) {
		aliases.set(specifier, url);
	}
};

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
	const url = aliases.get(specifier);
	return url === undefined ? nextResolve(specifier, context) : {url, shortCircuit: true};
};

export const load: LoadHook = async (url, context, nextLoad) => {
	if (!/\.m?ts$/.test(new URL(url).pathname) || !url.startsWith('file:') || nodeStripsTypes()) {
		return nextLoad(url, context);
	}

	const path = fileURLToPath(url);
	const ts = await typeScriptFor(url);
	const source = await readFile(path, 'utf8');
	const {outputText} = ts.transpileModule(source, {
		fileName: path,
		compilerOptions: {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, inlineSourceMap: true, inlineSources: true},
	});
	return {format: 'module', source: outputText, shortCircuit: true};
};

/** Node ≥ 22.18 (and 22.6+ with `--experimental-strip-types`) loads TypeScript by itself. */
function nodeStripsTypes(): boolean {
	return Boolean((process.features as {typescript?: unknown}).typescript);
}

let loaded: Promise<TypeScript> | undefined;

async function typeScriptFor(pluginUrl: string): Promise<TypeScript> {
	loaded ??= (async () => {
		for (const base of [pluginUrl, import.meta.url]) {
			let path: string;
			try {
				path = createRequire(base).resolve('typescript');
			} catch {
				continue;
			}

			// eslint-disable-next-line no-await-in-loop -- the first one found is used
			const module = await import(pathToFileURL(path).href) as {default: TypeScript};
			return module.default;
		}

		throw new Error(`${fileURLToPath(pluginUrl)} is TypeScript and Node ${process.version} cannot strip its types: install typescript beside it, compile it to JavaScript, or run Node 22.18 or later`);
	})();
	// A failed search is not remembered: a later plugin may have typescript beside it.
	loaded.catch(() => {
		loaded = undefined;
	});
	return loaded;
}
