import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import * as cardterm from 'cardterm';

const root = resolve(import.meta.dirname, '../..');

describe('the package', () => {
	it('exports the public API named in the architecture', () => {
		for (const name of ['defineTool', 'ToolRegistry', 'ToolArgsError', 'ToolOutputError', 'readSessionLog', 'openSessionLog', 'foldEvents', 'SessionLogWriter', 'builtinTools', 'layoutCard', 'renderCardText']) {
			expect({name, type: typeof (cardterm as Record<string, unknown>)[name]}).toEqual({name, type: 'function'});
		}
	});

	it('shows in the README exactly the example file, and that file runs as written through the built package', () => {
		const example = readFileSync(resolve(root, 'examples/readme-example.mjs'), 'utf8');
		const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
		expect(readme).toContain('```js\n' + example + '```');
		const output = execFileSync(process.execPath, [resolve(root, 'examples/readme-example.mjs')], {cwd: root, encoding: 'utf8'});
		expect(output).toBe("[ { type: 'text', text: 'Hello, Ada!' } ]\n");
	});

	it('resolves its own name from inside the package (self-reference through exports)', () => {
		const output = execFileSync(process.execPath, ['--input-type=module', '-e', "import {defineTool, ToolRegistry} from 'cardterm'; import {serializeFrame} from 'cardterm/testing'; console.log(typeof defineTool, typeof ToolRegistry, typeof serializeFrame)"], {cwd: root, encoding: 'utf8'});
		expect(output).toBe('function function function\n');
	});

	it('shows in the README the card test that test/examples/tool-card.test.ts runs', () => {
		const test = readFileSync(resolve(root, 'test/examples/tool-card.test.ts'), 'utf8');
		const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
		expect(readme).toContain('```ts\n' + test.slice(test.indexOf('\n') + 1) + '```');
	});

	it('shows in the README the workspace plugin that test/host/session-plugin.test.ts runs', () => {
		const plugin = readFileSync(resolve(root, 'test/fixtures/plugins/workspace-notes.mjs'), 'utf8');
		const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
		expect(readme).toContain('```js\n' + plugin.slice(plugin.indexOf('\n') + 1) + '```');
	});

	it('starts with the two commands a newcomer needs', () => {
		const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
		const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
		expect(firstBlock.split('\n')[0]).toMatch(/^npm install && npm start/);
		expect(firstBlock).toContain('npm test');
	});
});
