/**
The `--plugin` module hooks called directly, as Node's loader thread calls them (the binary test,
test/app/plugin-binary.test.ts, runs them for real).
*/
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {initialize, load, resolve} from '../../src/cli/plugin-loader-hooks.js';

type NextResolve = Parameters<typeof resolve>[2];
type NextLoad = Parameters<typeof load>[2];
const resolveContext = {conditions: [], importAssertions: {}, importAttributes: {}, parentURL: 'file:///plugin.mjs'};
const loadContext = {conditions: [], format: undefined, importAssertions: {}, importAttributes: {}};

let dir = '';
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'cardterm-hooks-'));
});
afterEach(async () => {
	await rm(dir, {recursive: true, force: true});
});

describe('the plugin resolve hook', () => {
	it('resolves the seed package to the URL it was given, and leaves every other specifier to Node', async () => {
		await initialize({aliases: {'@deepseek-ai/dsh-tools': 'file:///opt/cardterm/dist/src/index.js'}});
		const asked: string[] = [];
		const next: NextResolve = async specifier => {
			asked.push(specifier);
			return {url: `file:///node/${specifier}`};
		};

		expect(await resolve('@deepseek-ai/dsh-tools', resolveContext, next)).toEqual({url: 'file:///opt/cardterm/dist/src/index.js', shortCircuit: true});
		expect(await resolve('@deepseek-ai/dsh-tools/extra', resolveContext, next)).toEqual({url: 'file:///node/@deepseek-ai/dsh-tools/extra'});
		expect(await resolve('node:fs', resolveContext, next)).toEqual({url: 'file:///node/node:fs'});
		expect(asked).toEqual(['@deepseek-ai/dsh-tools/extra', 'node:fs']);
	});
});

describe.skipIf(Boolean((process.features as {typescript?: unknown}).typescript))('the plugin load hook on a Node without type stripping', () => {
	it('strips a TypeScript module’s types (import type too) and loads it as an ES module', async () => {
		const file = join(dir, 'plugin.ts');
		await writeFile(file, "import type {Context} from '@deepseek-ai/cordis'\nexport const name: string = 'typed'\nexport function apply(ctx: Context): void {}\n");
		const next: NextLoad = async () => {
			throw new Error('Node was asked to load TypeScript');
		};

		const loaded = await load(pathToFileURL(file).href, loadContext, next);
		expect(loaded.format).toBe('module');
		expect(loaded.shortCircuit).toBe(true);
		const source = String(loaded.source);
		expect(source).toContain("export const name = 'typed';");
		expect(source).toContain('export function apply(ctx) { }');
		expect(source).not.toContain('@deepseek-ai/cordis');
	});

	it('leaves JavaScript to Node', async () => {
		const url = pathToFileURL(join(dir, 'plugin.mjs')).href;
		const next: NextLoad = async asked => ({format: 'module', source: `// ${asked}`});
		expect(await load(url, loadContext, next)).toEqual({format: 'module', source: `// ${url}`});
	});
});
