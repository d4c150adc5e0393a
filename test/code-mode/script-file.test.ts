import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {runScriptFile, scriptToProgram} from '../../src/code-mode/script-file.js';
import {echo, harness} from './code-mode-fixtures.js';

let directory: string;

beforeAll(async () => {
	directory = await mkdtemp(join(tmpdir(), 'cardterm-script-'));
});

afterAll(async () => {
	await rm(directory, {recursive: true, force: true});
});

describe('scriptToProgram', () => {
	test('static imports become dynamic imports on the same lines, relative ones resolved against the script', () => {
		const script = [
			'#!/usr/bin/env cardterm',
			'import fs from \'node:fs\';',
			'import {join, basename as base} from "node:path"',
			'import * as os from \'node:os\';',
			'import helper, {double} from \'./helper.mjs\';',
			'import {',
			'  a,',
			'  b as c,',
			'} from \'./multi.mjs\';',
			'import \'./side-effect.mjs\';',
			'const meta = typeof import.meta;',
			'return await import(\'node:url\');',
		].join('\n');
		const url = (name: string) => JSON.stringify(pathToFileURL(join('/scripts', name)).href);
		expect(scriptToProgram(script, '/scripts/main.mjs').split('\n')).toEqual([
			'',
			'const {default: fs} = await import("node:fs");',
			'const {join, basename: base} = await import("node:path");',
			'const os = await import("node:os");',
			`const {default: helper, double} = await import(${url('helper.mjs')});`,
			`const {a, b: c} = await import(${url('multi.mjs')});`,
			'',
			'',
			'',
			`await import(${url('side-effect.mjs')});`,
			'const meta = typeof import.meta;',
			'return await import(\'node:url\');',
		]);
	});

	test('an export declaration is refused with its line', () => {
		expect(() => scriptToProgram('const a = 1;\nexport default a;', 'x.mjs')).toThrow(
			'x.mjs:2: this export declaration cannot run as a run_code program; use `const {x} = await import(\'m\')` for imports and `return` (or console.log) instead of exports',
		);
	});
});

describe('runScriptFile', () => {
	test('a script with imports runs as one run_code call with its sub-calls', async () => {
		await writeFile(join(directory, 'helper.mjs'), 'export function double(x) { return x * 2; }\n');
		const script = join(directory, 'main.mjs');
		await writeFile(script, 'import {double} from \'./helper.mjs\';\nconst echoed = await tools.echo({value: double(21)});\nconsole.log(\'echoed\', echoed);\nreturn echoed;\n');
		const h = harness([echo]);
		const result = await runScriptFile(script, {executor: h.registry, signal: new AbortController().signal});
		expect(result).toEqual({isError: false, value: {logs: ['echoed 42'], result: 42}, content: [{type: 'text', text: 'echoed 42\n42'}]});
		expect(h.events.map(event => [event.type, event.data.subCallId])).toEqual([
			['tool/code-dispatch-start', 'run-main.mjs:code:1'],
			['tool/code-dispatch', 'run-main.mjs:code:1'],
		]);
	});

	test('a missing file rejects before anything runs', async () => {
		const h = harness([echo]);
		await expect(runScriptFile(join(directory, 'nope.mjs'), {executor: h.registry, signal: new AbortController().signal})).rejects.toMatchObject({code: 'ENOENT'});
	});
});
