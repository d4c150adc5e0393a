// The command line and the package's entry points as a few dozen chunks instead of ~120 modules: Node
// 20 resolves, reads and links an ES module graph file by file, ~30 ms of a replay's start-up
// (docs/decisions/code-layout.md, "The command line runs a bundle of tsc's output"). Input is tsc's
// output (dist/src), so the bundle runs exactly what tsc emitted; packages stay imports of node_modules.
//
// Every chunk is written to dist/bundle/src/cli/, beside the entry `src/cli/main.js`, so the
// paths modules take relative to their own URL keep their meaning: `../index.js` (the public entry
// a plugin's `@deepseek-ai/dsh-tools` resolves to) and `plugin-loader-hooks.js` from load-plugins,
// the walk up to package.json, createRequire's node_modules.
import {isAbsolute} from 'node:path';
import {defineConfig} from 'rolldown';

export default defineConfig({
	input: {
		'src/cli/main': 'dist/src/cli/main.js',
		'src/index': 'dist/src/index.js',
		'src/testing/index': 'dist/src/testing/index.js',
		// Loaded by `module.register` on Node's loader thread: its own entry, by file name.
		'src/cli/plugin-loader-hooks': 'dist/src/cli/plugin-loader-hooks.js',
	},
	platform: 'node',
	// Bare specifiers (packages, `node:` built-ins) stay imports; only our own modules are bundled.
	external: (id) => !id.startsWith('.') && !isAbsolute(id),
	output: {
		dir: 'dist/bundle',
		// A rebuild's chunks have new hashes: the old ones are removed, not left beside them.
		cleanDir: true,
		format: 'esm',
		entryFileNames: '[name].js',
		chunkFileNames: 'src/cli/[name]-[hash].js',
	},
});
