/**
bin/cardterm runs the bundle (rolldown.config.mjs), which writes every chunk to dist/bundle/src/cli/.
A module that names a file relative to its own URL therefore finds the same file from either layout
only when it sits in src/cli/ itself: `new URL('x.js', import.meta.url)` written in src/layout/ would
mean dist/src/layout/x.js unbundled and dist/bundle/src/cli/x.js bundled. `createRequire` and the
walk up to package.json do not depend on the folder, so they may be used anywhere.
*/
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(folder: string): string[] {
	return readdirSync(folder, {withFileTypes: true}).flatMap(entry => {
		const path = join(folder, entry.name);
		return entry.isDirectory() ? sources(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
	});
}

/** Each `new URL(<relative path>, import.meta.url)` of the sources, as `file: path`. */
function urlsRelativeToModule(): string[] {
	return sources(join(root, 'src')).flatMap(file => [...readFileSync(file, 'utf8').matchAll(/new URL\(\s*(['"`])(\.{0,2}\/?[^'"`]*)\1\s*,\s*import\.meta\.url\s*\)/g)]
		.map(match => `${relative(root, file)}: ${match[2]}`));
}

describe('the bundle layout', () => {
	it('finds the relative URLs the sources name (load-plugins names two)', () => {
		const found = urlsRelativeToModule();
		expect(found).toEqual(expect.arrayContaining(['src/cli/load-plugins.ts: ../index.js', 'src/cli/load-plugins.ts: plugin-loader-hooks.js']));
	});

	it('names files relative to a module only from modules directly in src/cli/, where the chunks are', () => {
		const outside = urlsRelativeToModule().filter(entry => !/^src\/cli\/[^/]+: /.test(entry));
		expect(outside).toEqual([]);
	});

	it('bundles into src/cli/ and names the entries bin/cardterm and the package exports use', async () => {
		const config = (await import(pathToFileURL(join(root, 'rolldown.config.mjs')).href) as {default: unknown}).default as {input: Record<string, string>; output: {dir: string; entryFileNames: string; chunkFileNames: string}};
		expect(config.output.chunkFileNames.startsWith('src/cli/')).toBe(true);
		const outputs = Object.keys(config.input).map(name => `./${config.output.dir}/${config.output.entryFileNames.replace('[name]', name)}`);
		const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {exports: Record<string, {default?: string}>};
		const bin = readFileSync(join(root, 'bin', 'cardterm'), 'utf8');
		expect(outputs).toEqual(expect.arrayContaining([manifest.exports['.']!.default, manifest.exports['./testing']!.default]));
		expect(outputs.map(path => path.replace('./dist/', '../dist/')).some(path => bin.includes(`'${path}'`))).toBe(true);
	});
});
