import {availableParallelism} from 'node:os';
import {fileURLToPath} from 'node:url';
import {defineConfig} from 'vitest/config';

// Tests import the package by its own name (`cardterm`, `cardterm/testing`), as users do.
// The aliases point those names at the TypeScript sources so a test never runs stale `dist/`.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
	resolve: {
		alias: [
			{find: /^cardterm\/testing$/, replacement: source('./src/testing/index.ts')},
			{find: /^cardterm$/, replacement: source('./src/index.ts')},
			// What `--plugin` resolves the seed's package to at run time (src/cli/load-plugins.ts).
			{find: /^@deepseek-ai\/dsh-tools$/, replacement: source('./src/index.ts')},
		],
	},
	test: {
		include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
		// Type-level tests (test/types/*.test-d.ts) are checked by `tsc -p tsconfig.json`, which `npm test` runs first.
		pool: 'forks',
		// Vitest's default is one worker fewer than the cores: on CI's 2 cores that is one, and the suite ran
		// serially (403 s, of which 341 s in tests that mostly wait on child processes and tmux).
		maxWorkers: Math.max(2, availableParallelism() - 1),
		// Ink draws nothing live under CI variables; screen tests run as on a person's terminal.
		setupFiles: ['test/setup/screen-environment.ts'],
		testTimeout: 20_000,
		env: {NODE_ENV: 'test'},
	},
});
