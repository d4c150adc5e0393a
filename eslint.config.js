// The linter `npm test` runs. Type information (the project service, tsconfig.json) is used by the
// rules that need it: exhaustive switches over closed unions, and only errors thrown.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
The layer table of docs/architecture.md: each folder and the folders it may import (its own always).
A layer imports only from the layers above it; `src/agent`, `src/acp` and `src/config` sit beside
each other and never import one another. `src/live` may also import the screen's contract,
`components/session-model.ts`, for its types. `src/cli` is the composition root: it may import all.
*/
const LAYERS = {
	'src/json': [],
	'src/regex': [],
	'src/schema': ['src/json'],
	'src/tools': ['src/json', 'src/regex', 'src/schema'],
	'src/presentation': ['src/json', 'src/regex', 'src/schema', 'src/tools'],
	'src/session': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation'],
	'src/jobs': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session'],
	'src/code-mode': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session'],
	'src/builtin': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/code-mode'],
	'src/agent': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/code-mode', 'src/builtin'],
	'src/acp': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/builtin'],
	'src/config': ['src/json', 'src/schema', 'src/tools', 'src/session'],
	'src/layout': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation'],
	'src/transcript': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/layout'],
	'src/testing': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/layout'],
	'src/host': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/code-mode', 'src/builtin', 'src/agent', 'src/acp', 'src/config', 'src/layout', 'src/transcript'],
	components: ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/code-mode', 'src/builtin', 'src/agent', 'src/acp', 'src/config', 'src/layout', 'src/transcript', 'src/host'],
	'src/live': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/code-mode', 'src/builtin', 'src/agent', 'src/acp', 'src/config', 'src/layout', 'src/transcript', 'src/host', 'components/session-model.ts (types)'],
	'src/cli': ['src/json', 'src/regex', 'src/schema', 'src/tools', 'src/presentation', 'src/session', 'src/jobs', 'src/code-mode', 'src/builtin', 'src/agent', 'src/acp', 'src/config', 'src/layout', 'src/transcript', 'src/host', 'components', 'src/live'],
};

/** Only the model client knows the model library (the AI SDK), so the loop does not care which one streams. */
const MODEL_LIBRARY = {group: ['ai', '@ai-sdk/*'], message: 'only src/agent/model-client.ts imports the model library'};

const escape = text => text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A relative specifier that reaches the layer `target` (`../../session/…` from src/, `../src/session/…` from components/). */
function reaching(target) {
	const [top, name] = target.split('/');
	return top === 'src' ? `^(?:\\.\\./)+(?:src/)?${escape(name)}(?:/|$)` : `^(?:\\.\\./)+${escape(top)}/`;
}

/** The import restrictions of the files in `folder`, from the table. */
function layerRestrictions(folder) {
	const allowed = new Set(LAYERS[folder].map(layer => layer.split(' ')[0]));
	const patterns = [MODEL_LIBRARY];
	for (const other of Object.keys(LAYERS)) {
		if (other === folder || allowed.has(other)) {
			continue;
		}

		const message = `${folder} may not import ${other}: the layer table (docs/architecture.md, eslint.config.js)`;
		if (other === 'components' && allowed.has('components/session-model.ts')) {
			patterns.push({regex: `^(?:\\.\\./)+components/(?!session-model\\.js$)`, message});
			patterns.push({regex: `^(?:\\.\\./)+components/session-model\\.js$`, allowTypeImports: true, message: `${folder} may import components/session-model.ts for its types only`});
		} else {
			patterns.push({regex: reaching(other), message});
		}
	}

	return patterns;
}

const layerConfigs = Object.keys(LAYERS).map(folder => ({
	name: `cardterm/layer ${folder}`,
	files: [`${folder}/**/*.{ts,tsx}`],
	rules: {'@typescript-eslint/no-restricted-imports': ['error', {patterns: layerRestrictions(folder)}]},
}));

export default tseslint.config(
	{
		name: 'cardterm/ignores',
		ignores: ['dist/', 'coverage/', '.bench/', 'node_modules/', 'snapshots/'],
	},
	js.configs.recommended,
	tseslint.configs.recommended,
	{
		name: 'cardterm/all',
		languageOptions: {
			ecmaVersion: 2023,
			sourceType: 'module',
			globals: {
				// Node's globals the sources use (the `globals` package would be a dependency for a dozen names).
				process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', URLSearchParams: 'readonly',
				setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
				setImmediate: 'readonly', clearImmediate: 'readonly', queueMicrotask: 'readonly', structuredClone: 'readonly',
				AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly',
				performance: 'readonly', fetch: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly',
				ReadableStream: 'readonly', WritableStream: 'readonly', TransformStream: 'readonly', Blob: 'readonly',
				FormData: 'readonly', MessageChannel: 'readonly', WebAssembly: 'readonly', global: 'readonly', globalThis: 'readonly',
				Intl: 'readonly', DOMException: 'readonly', Event: 'readonly', EventTarget: 'readonly', atob: 'readonly', btoa: 'readonly',
				crypto: 'readonly', BroadcastChannel: 'readonly', WeakRef: 'readonly', FinalizationRegistry: 'readonly',
			},
		},
		linterOptions: {reportUnusedDisableDirectives: 'error'},
		rules: {
			// `_name` is the house's mark of a binding kept unused on purpose (a rest sibling's drop, a slot).
			'@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true}],
			// A `let` a callback reads before its one assignment (a source its own reader reports to) stays `let`.
			'prefer-const': ['error', {ignoreReadBeforeAssign: true}],
		},
	},
	{
		name: 'cardterm/typed',
		files: ['src/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'types/**/*.ts'],
		ignores: ['test/fixtures/**'],
		languageOptions: {parserOptions: {projectService: true, tsconfigRootDir: import.meta.dirname}},
		rules: {
			'@typescript-eslint/switch-exhaustiveness-check': ['error', {considerDefaultExhaustiveForUnions: true}],
			'@typescript-eslint/only-throw-error': 'error',
		},
	},
	{
		name: 'cardterm/src',
		files: ['src/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
		rules: {
			// Everything written to a terminal goes through the sink (src/layout/terminal/terminal-sink.ts).
			'no-console': 'error',
			// An await in a loop is a place where work waits on work: each one in the product says why.
			'no-await-in-loop': 'error',
		},
	},
	{
		name: 'cardterm/tests-and-benches',
		files: ['test/**', 'bench/**', 'examples/**'],
		rules: {
			// Tests and benchmarks run their steps in order on purpose (one case, key, poll or run after another).
			'no-await-in-loop': 'off',
			// They look for exactly the control bytes a terminal would act on.
			'no-control-regex': 'off',
			// Fixtures read unknown JSON, and type tests name `any` and `{}` on purpose.
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-empty-object-type': 'off',
		},
	},
	{
		name: 'cardterm/components',
		files: ['components/**/*.{ts,tsx}'],
		plugins: {'react-hooks': reactHooks},
		// exhaustive-deps is a warning in the plugin's recommended set; here, as every rule, it fails the run.
		rules: {...reactHooks.configs.recommended.rules, 'react-hooks/exhaustive-deps': 'error'},
	},
	...layerConfigs,
	{
		name: 'cardterm/model-client',
		files: ['src/agent/model-client.ts'],
		rules: {'@typescript-eslint/no-restricted-imports': ['error', {patterns: layerRestrictions('src/agent').filter(pattern => pattern !== MODEL_LIBRARY)}]},
	},
);

export {LAYERS};
