import {execFileSync} from 'node:child_process';
import {readFile, symlink, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {fsTools} from '../../../src/builtin/fs.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {ToolDefinition, ToolExecutionResult} from '../../../src/tools/types.js';
import {createToolWorkspace, persisted, type ToolWorkspace} from '../tool-workspace.js';

let base: string;
let workspace: string;
let registry: ToolRegistry;
let tools: Map<string, ToolDefinition>;
let call: ToolWorkspace['call'];
let dispose: ToolWorkspace['dispose'];
let calls = 0;

beforeEach(async () => {
	({base, workspace, registry, tools, call, dispose} = await createToolWorkspace('cardterm-fstools-', (root) => fsTools({workspace: root})));
});

afterEach(async () => {
	await dispose();
});

describe('fs tools through the registry', () => {
	it('exposes the spec parameter names to the model', () => {
		expect(registry.schemas().map((schema) => [schema.name, Object.keys(schema.parameters.properties as object), schema.parameters.required])).toEqual([
			['read', ['file_path', 'offset', 'limit'], ['file_path']],
			['write', ['file_path', 'content'], ['file_path', 'content']],
			['edit', ['file_path', 'old_string', 'new_string', 'replace_all'], ['file_path', 'old_string', 'new_string']],
		]);
	});

	it('writes, reads and edits the spec worked example end to end', async () => {
		const text = "export const config = {\n  DEBUG: true,\n  level: 'info',\n}\n";
		const file = path.join(workspace, 'src/config.ts');
		const written = await call('write', {file_path: 'src/config.ts', content: text});
		expect(written).toEqual({
			isError: false,
			value: {path: file, operation: 'create', before: null, after: text},
			content: [{type: 'text', text: `<path>${file}</path>\n<type>file</type>\n<content>\nCreated file\n</content>`}],
			meta: {diffs: []},
		});

		const read = await call('read', {file_path: 'src/config.ts'});
		const lines = [
			{number: 1, text: 'export const config = {'},
			{number: 2, text: '  DEBUG: true,'},
			{number: 3, text: "  level: 'info',"},
			{number: 4, text: '}'},
		];
		const body = "1: export const config = {\n2:   DEBUG: true,\n3:   level: 'info',\n4: }\n\n(End of file - total 4 lines)";
		expect(persisted(read)).toEqual({
			content: [{type: 'text', text: `<path>${file}</path>\n<type>file</type>\n<content>\n${body}\n</content>`}],
			isError: false,
			meta: {path: file, offset: 1, lines, totalLines: 4, lang: 'ts'},
		});
		expect(tools.get('read')!.presentResult!({file_path: 'src/config.ts'}, persisted(read))).toEqual({
			card: 'read',
			path: file,
			offset: 1,
			lines,
			totalLines: 4,
			lang: 'ts',
			content: [{type: 'text', text: body}],
		});

		const editArgs = {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'};
		const edited = await call('edit', editArgs);
		const diffs = [
			{
				path: 'src/config.ts',
				oldText: "export const config = {\n  DEBUG: true,\n  level: 'info',\n}",
				newText: "export const config = {\n  DEBUG: false,\n  level: 'info',\n}",
				oldStart: 1,
				newStart: 1,
			},
		];
		expect(persisted(edited)).toEqual({
			content: [{type: 'text', text: `The file ${file} has been updated successfully.`}],
			isError: false,
			meta: {diffs},
		});
		expect(tools.get('edit')!.presentResult!(editArgs, persisted(edited))).toEqual({card: 'diff', title: 'Edit src/config.ts', diffs});
		expect(await readFile(file, 'utf8')).toBe(text.replace('true', 'false'));
	});

	it('reports the overwrite hunks of write in meta and on the result card', async () => {
		await writeFile(path.join(workspace, 'data.txt'), 'original contents');
		const args = {file_path: 'data.txt', content: 'replaced'};
		const result = await call('write', args);
		expect(result.meta).toEqual({diffs: [{path: 'data.txt', oldText: 'original contents', newText: 'replaced', oldStart: 1, newStart: 1}]});
		expect(tools.get('write')!.presentResult!(args, persisted(result))).toEqual({
			card: 'diff',
			title: 'Write data.txt',
			diffs: [{path: 'data.txt', oldText: 'original contents', newText: 'replaced', oldStart: 1, newStart: 1}],
		});
	});

	it('fails schema violations with INVALID_ARGS and returns no view for invalid arguments', async () => {
		const missing = await call('read', {});
		expect(persisted(missing)).toEqual({
			content: [{type: 'text', text: 'Error: invalid arguments: missing required property "file_path"'}],
			isError: true,
		});
		expect(missing.isError && missing.error.info).toEqual({name: 'ToolArgsError', code: 'INVALID_ARGS'});
		const wrongType = await call('edit', {file_path: 'a', old_string: 'x', new_string: 1});
		expect(wrongType.content).toEqual([{type: 'text', text: 'Error: invalid arguments: "new_string" must be a string'}]);
		const same = await call('edit', {file_path: 'a', old_string: 'x', new_string: 'x'});
		expect(same.content).toEqual([{type: 'text', text: 'Error: invalid arguments: "new_string" must differ from "old_string"'}]);
		const badWindow = await call('read', {file_path: 'a', offset: 0});
		expect(badWindow.isError && badWindow.error.info).toEqual({name: 'ToolArgsError', code: 'INVALID_ARGS'});
		expect(tools.get('read')!.presentCall!({file_path: 3})).toBeUndefined();
		expect(tools.get('write')!.presentCall!({file_path: 'a'})).toBeUndefined();
	});

	it('reports file errors with FsError codes and no meta', async () => {
		await writeFile(path.join(workspace, 'src/config.ts'), 'x\n');
		await writeFile(path.join(base, 'secret.txt'), 'secret');
		await symlink(path.join(base, 'secret.txt'), path.join(workspace, 'link.txt'));
		const cases = [
			await call('read', {file_path: 'nope.txt'}),
			await call('edit', {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'}),
			await call('read', {file_path: 'link.txt'}),
			await call('write', {file_path: '../escape.txt', content: 'x'}),
		];
		expect(cases.map((result) => [result.isError && result.error.info, result.content[0], result.meta])).toEqual([
			[{name: 'FsError', code: 'FS_NOT_FOUND'}, {type: 'text', text: `Error: cannot read "${workspace}/nope.txt": not found`}, undefined],
			[{name: 'FsError', code: 'FS_EDIT_NOT_FOUND'}, {type: 'text', text: `Error: old_string was not found in "${workspace}/src/config.ts"`}, undefined],
			[
				{name: 'FsError', code: 'FS_OUTSIDE_WORKSPACE'},
				{type: 'text', text: `Error: access denied: "link.txt" (resolves to "${base}/secret.txt") is outside the workspace "${workspace}"`},
				undefined,
			],
			[{name: 'FsError', code: 'FS_OUTSIDE_WORKSPACE'}, {type: 'text', text: `Error: access denied: "../escape.txt" is outside the workspace "${workspace}"`}, undefined],
		]);
		expect(tools.get('read')!.presentResult!({file_path: 'nope.txt'}, persisted(cases[0]!))).toBeUndefined();
		expect(tools.get('write')!.presentResult!({file_path: '../escape.txt', content: 'x'}, persisted(cases[3]!))).toBeUndefined();
	});

	it('classifies read as concurrency-safe and the mutations as exclusive', () => {
		expect([
			tools.get('read')!.isConcurrencySafe!({file_path: 'a'}),
			tools.get('write')!.isConcurrencySafe!({file_path: 'a', content: ''}),
			tools.get('edit')!.isConcurrencySafe!({file_path: 'a', old_string: 'a', new_string: 'b'}),
		]).toEqual([true, false, false]);
	});

	it('works on hard-to-see file names inside the workspace', async () => {
		const name = 'notes\u202Egnp.md\u200B';
		const written = await call('write', {file_path: name, content: 'one\n'});
		expect(written.isError).toBe(false);
		const edited = await call('edit', {file_path: name, old_string: 'one', new_string: 'two'});
		expect(edited.content).toEqual([{type: 'text', text: `The file ${path.join(workspace, name)} has been updated successfully.`}]);
		const read = await call('read', {file_path: name});
		expect(read.meta).toEqual({path: path.join(workspace, name), offset: 1, lines: [{number: 1, text: 'two'}], totalLines: 1});
	});

	it('refuses a FIFO without blocking', async () => {
		execFileSync('mkfifo', [path.join(workspace, 'pipe')]);
		const results = [await call('read', {file_path: 'pipe'}), await call('write', {file_path: 'pipe', content: 'x'})];
		expect(results.map((result) => result.isError && result.error.info)).toEqual([
			{name: 'FsError', code: 'FS_NOT_A_FILE'},
			{name: 'FsError', code: 'FS_NOT_A_FILE'},
		]);
	});

	it('applies the opt-in read-before-edit policy only when asked', async () => {
		const strict = new ToolRegistry();
		for (const tool of fsTools({workspace, requireReadBeforeEdit: true})) {
			strict.register(tool);
		}

		const run = async (name: string, args: unknown) => strict.execute({callId: `strict-${(calls += 1)}`, name, arguments: args, signal: new AbortController().signal});
		const file = path.join(workspace, 'settings.txt');
		await writeFile(file, 'color: blue\n');
		const outcome = (result: ToolExecutionResult) => (result.isError ? `${result.error.info?.code}: ${result.error.message}` : 'ok');
		expect(outcome(await run('edit', {file_path: 'settings.txt', old_string: 'blue', new_string: 'green'}))).toBe(
			`FS_NOT_OBSERVED: edit requires reading "${file}" first — read the file, then retry`,
		);
		expect(outcome(await run('write', {file_path: 'settings.txt', content: 'x'}))).toBe(
			`FS_NOT_OBSERVED: write requires reading "${file}" first — read the file, then retry`,
		);
		expect(outcome(await run('read', {file_path: 'settings.txt'}))).toBe('ok');
		expect(outcome(await run('edit', {file_path: 'settings.txt', old_string: 'blue', new_string: 'green'}))).toBe('ok');
		expect(outcome(await run('edit', {file_path: 'settings.txt', old_string: 'green', new_string: 'red'}))).toBe('ok');
		await writeFile(file, 'color: changed elsewhere\n');
		expect(outcome(await run('edit', {file_path: 'settings.txt', old_string: 'color', new_string: 'colour'}))).toBe(
			`FS_STALE_VERSION: "${file}" changed since it was last read — read it again, then retry`,
		);
		expect(outcome(await run('write', {file_path: 'fresh.txt', content: 'new'}))).toBe('ok');
		expect(outcome(await run('edit', {file_path: 'fresh.txt', old_string: 'new', new_string: 'newer'}))).toBe('ok');
		expect(outcome(await call('edit', {file_path: 'settings.txt', old_string: 'color', new_string: 'colour'}))).toBe('ok');
	});

	it('fails a write without content as invalid arguments', async () => {
		const result = await call('write', {file_path: 'a.txt'});
		expect([result.isError && result.error.info, result.content]).toEqual([
			{name: 'ToolArgsError', code: 'INVALID_ARGS'},
			[{type: 'text', text: 'Error: invalid arguments: missing required property "content"'}],
		]);
	});
});
