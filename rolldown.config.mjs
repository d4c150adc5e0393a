// The command line and the package's entry points as a few dozen chunks instead of ~120 modules: Node
// 20 resolves, reads and links an ES module graph file by file, ~30 ms of a replay's start-up
// (docs/decisions/code-layout.md, "The command line runs a bundle of tsc's output"). Input is tsc's
// output (dist/src), so the bundle runs exactly what tsc emitted; packages are bundled too, React's aside.
//
// Every chunk is written to dist/bundle/src/cli/, beside the entry `src/cli/main.js`, so the
// paths modules take relative to their own URL keep their meaning: `../index.js` (the public entry
// a plugin's `@deepseek-ai/dsh-tools` resolves to) and `plugin-loader-hooks.js` from load-plugins,
// the walk up to package.json, createRequire's node_modules.
import {isBuiltin} from 'node:module';
import {defineConfig} from 'rolldown';

/**
Packages the bundle leaves as imports of node_modules: React's, so the app and anything that renders
beside it share one React. Every other package is bundled with the code that imports it: Node 20
loads an ES module graph file by file, and Ink's (~500 modules, es-toolkit/compat alone 415) and the
AI SDK's (~180) loaded in the session's first second, after its prompt was drawn: the chunk holding
Ink imported in 252–278 ms, bundled in 129–146 (docs/decisions/code-layout.md). Packages our code loads with `createRequire`
(diff, highlight.js, turndown, re2js, string-width) still load from node_modules when first used.
*/
const SHARED = /^(react|react-reconciler|scheduler|react-devtools-core)(\/|$)/;

export default defineConfig({
	input: {
		'src/cli/main': 'dist/src/cli/main.js',
		'src/index': 'dist/src/index.js',
		'src/testing/index': 'dist/src/testing/index.js',
		// Loaded by `module.register` on Node's loader thread: its own entry, by file name.
		'src/cli/plugin-loader-hooks': 'dist/src/cli/plugin-loader-hooks.js',
	},
	platform: 'node',
	external: id => isBuiltin(id) || SHARED.test(id),
	output: {
		dir: 'dist/bundle',
		// A rebuild's chunks have new hashes: the old ones are removed, not left beside them.
		cleanDir: true,
		format: 'esm',
		entryFileNames: '[name].js',
		chunkFileNames: 'src/cli/[name]-[hash].js',
	},
});
