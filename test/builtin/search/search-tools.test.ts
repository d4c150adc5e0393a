import {utimes, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {searchTools} from '../../../src/builtin/search.js';
import type {ToolRegistry} from '../../../src/tools/registry.js';
import type {ToolDefinition} from '../../../src/tools/types.js';
import {createToolWorkspace, persisted, type ToolWorkspace} from '../tool-workspace.js';

let base: string;
let workspace: string;
let registry: ToolRegistry;
let tools: Map<string, ToolDefinition>;
let call: ToolWorkspace['call'];
let dispose: ToolWorkspace['dispose'];

beforeEach(async () => {
	({base, workspace, registry, tools, call, dispose} = await createToolWorkspace(
		'cardterm-searchtools-',
		(root) => searchTools({workspace: root, useRipgrep: false, globMaxResults: 2}),
		async (root) => {
			await writeFile(path.join(root, 'src/config.ts'), "export const config = {\n  DEBUG: false,\n  level: 'info',\n}\n");
			await writeFile(path.join(root, 'src/log.ts'), `${'\n'.repeat(9)}if (config.DEBUG) console.debug(msg)\n`);
			await writeFile(path.join(root, 'README.md'), 'DEBUG mode is documented here\n');
		},
	));
});

afterEach(async () => {
	await dispose();
});

describe('search tools through the registry', () => {
	it('exposes the spec parameter names to the model', () => {
		expect(registry.schemas().map((schema) => [schema.name, Object.keys(schema.parameters.properties as object), schema.parameters.required])).toEqual([
			['grep', ['pattern', 'path', 'include'], ['pattern']],
			['glob', ['pattern', 'path'], ['pattern']],
		]);
	});

	it('runs the grep worked example: text, meta and cards', async () => {
		const args = {pattern: 'DEBUG', include: '*.ts'};
		const result = await call('grep', args);
		const meta = {
			shape: 'matches',
			files: [
				{path: 'src/config.ts', matches: [{lineNumber: 2, line: '  DEBUG: false,'}]},
				{path: 'src/log.ts', matches: [{lineNumber: 10, line: 'if (config.DEBUG) console.debug(msg)'}]},
			],
			truncated: false,
			total: 2,
		};
		expect(persisted(result)).toEqual({
			content: [{type: 'text', text: 'Found 2 matches\n\nsrc/config.ts\nLine 2:   DEBUG: false,\n\nsrc/log.ts\nLine 10: if (config.DEBUG) console.debug(msg)'}],
			isError: false,
			meta,
		});
		const grep = tools.get('grep')!;
		expect(grep.presentCall!(args)).toEqual({card: 'generic', title: 'Grep DEBUG (*.ts)', kind: 'search', rawInput: 'DEBUG'});
		expect(grep.presentResult!(args, persisted(result))).toEqual({card: 'search', shape: 'matches', files: meta.files, truncated: false, total: 2});
	});

	it('runs glob with its cap, newest first, and the over-cap footer', async () => {
		const stamp = async (file: string, seconds: number) => {
			const when = new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
			await utimes(path.join(workspace, file), when, when);
		};

		await stamp('src/config.ts', 3);
		await stamp('src/log.ts', 2);
		await stamp('README.md', 1);
		const args = {pattern: '*'};
		const result = await call('glob', args);
		const meta = {shape: 'paths', paths: ['src/config.ts', 'src/log.ts'], truncated: true, total: 3};
		expect(persisted(result)).toEqual({
			content: [{type: 'text', text: 'src/config.ts\nsrc/log.ts\n\n(Showing 2 of 3 paths. Narrow pattern or path to see more.)'}],
			isError: false,
			meta,
		});
		expect(result.isError === false && result.value).toEqual({root: '.', paths: ['src/config.ts', 'src/log.ts', 'README.md']});
		expect(tools.get('glob')!.presentResult!(args, persisted(result))).toEqual({card: 'search', shape: 'paths', paths: meta.paths, truncated: true, total: 3});
	});

	it('reports no matches and no files as valid empty results', async () => {
		const none = await call('grep', {pattern: 'absent-text'});
		expect(persisted(none)).toEqual({content: [{type: 'text', text: 'No matches found'}], isError: false, meta: {shape: 'matches', files: [], truncated: false, total: 0}});
		const empty = await call('glob', {pattern: '*.rs', path: 'src'});
		expect(persisted(empty)).toEqual({content: [{type: 'text', text: 'No files found'}], isError: false, meta: {shape: 'paths', paths: [], truncated: false, total: 0}});
	});

	it('fails invalid arguments with INVALID_ARGS and errors with their classes', async () => {
		const results = [
			await call('grep', {}),
			await call('grep', {pattern: 'x', include: '*.ts,*.js'}),
			await call('glob', {pattern: 3}),
			await call('grep', {pattern: '(oops'}),
			await call('glob', {pattern: '*', path: '../..'}),
		];
		expect(results.map((result) => [result.isError && result.error.info, result.content[0]])).toEqual([
			[{name: 'ToolArgsError', code: 'INVALID_ARGS'}, {type: 'text', text: 'Error: invalid arguments: missing required property "pattern"'}],
			[
				{name: 'ToolArgsError', code: 'INVALID_ARGS'},
				{type: 'text', text: 'Error: invalid arguments: "include" must be one glob, not a comma-separated list (use {a,b} alternation)'},
			],
			[{name: 'ToolArgsError', code: 'INVALID_ARGS'}, {type: 'text', text: 'Error: invalid arguments: "pattern" must be a string'}],
			[{name: 'SearchError', code: 'SEARCH_INVALID_PATTERN'}, results[3]!.content[0]],
			[{name: 'FsError', code: 'FS_OUTSIDE_WORKSPACE'}, {type: 'text', text: `Error: access denied: "../.." is outside the workspace "${workspace}"`}],
		]);
		expect(tools.get('grep')!.presentResult!({pattern: '(oops'}, persisted(results[3]!))).toBeUndefined();
		expect(tools.get('grep')!.presentCall!({pattern: 1})).toBeUndefined();
	});

	it('declares a 30 s budget and concurrency safety', () => {
		expect([tools.get('grep')!.timeoutMs, tools.get('glob')!.timeoutMs]).toEqual([30_000, 30_000]);
		expect([tools.get('grep')!.isConcurrencySafe!({pattern: 'x'}), tools.get('glob')!.isConcurrencySafe!({pattern: '*'})]).toEqual([true, true]);
	});
});
