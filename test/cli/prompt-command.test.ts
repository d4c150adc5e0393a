import {describe, expect, it} from 'vitest';
import {plainTextMessage, parsePromptLine} from '../../src/cli/interactive/prompt-command.js';

const tools = new Set(['bash', 'read', 'my_tool']);

describe('parsePromptLine', () => {
	it('turns !command into a bash call whose description is the command (the card does not repeat it)', () => {
		expect(parsePromptLine('!echo hi', tools)).toEqual({kind: 'tool', name: 'bash', args: {command: 'echo hi', description: 'echo hi'}});
	});

	it('parses /read with an optional window', () => {
		expect(parsePromptLine('/read README.md', tools)).toEqual({kind: 'tool', name: 'read', args: {file_path: 'README.md'}});
		expect(parsePromptLine('/read "a b.txt" 10 5', tools)).toEqual({kind: 'tool', name: 'read', args: {file_path: 'a b.txt', offset: 10, limit: 5}});
		expect(parsePromptLine('/read x 0', tools)).toEqual({kind: 'usage', message: '/read: offset must be a positive integer, got 0'});
	});

	it('parses /grep with a path and an include glob in any position', () => {
		expect(parsePromptLine('/grep TODO src --include *.ts', tools)).toEqual({kind: 'tool', name: 'grep', args: {pattern: 'TODO', path: 'src', include: '*.ts'}});
		expect(parsePromptLine('/grep --include *.md "two words"', tools)).toEqual({kind: 'tool', name: 'grep', args: {pattern: 'two words', include: '*.md'}});
		expect(parsePromptLine('/grep', tools)).toEqual({kind: 'usage', message: 'usage: /grep PATTERN [PATH] [--include GLOB]'});
	});

	it('maps the other slash commands to their tools', () => {
		expect(parsePromptLine('/glob **/*.ts src', tools)).toEqual({kind: 'tool', name: 'glob', args: {pattern: '**/*.ts', path: 'src'}});
		expect(parsePromptLine('/fetch https://example.com', tools)).toEqual({kind: 'tool', name: 'web_fetch', args: {url: 'https://example.com'}});
		expect(parsePromptLine('/search ink   static output', tools)).toEqual({kind: 'tool', name: 'web_search', args: {queries: ['ink   static output']}});
		expect(parsePromptLine('/jobs', tools)).toEqual({kind: 'tool', name: 'job_list', args: {}});
		expect(parsePromptLine('/kill bash-1', tools)).toEqual({kind: 'tool', name: 'job_kill', args: {job_id: 'bash-1'}});
		expect(parsePromptLine('/write notes.md', tools)).toEqual({kind: 'write', path: 'notes.md'});
		expect(parsePromptLine('/edit src/a.ts', tools)).toEqual({kind: 'edit', path: 'src/a.ts'});
		expect(parsePromptLine('/run script.mjs', tools)).toEqual({kind: 'run', path: 'script.mjs'});
	});

	it('calls any registered tool with JSON arguments', () => {
		expect(parsePromptLine('my_tool {"a": [1, 2]}', tools)).toEqual({kind: 'tool', name: 'my_tool', args: {a: [1, 2]}, rawArgs: '{"a": [1, 2]}'});
		expect(parsePromptLine('my_tool', tools)).toEqual({kind: 'tool', name: 'my_tool', args: {}});
		expect(parsePromptLine('my_tool {oops', tools)).toMatchObject({kind: 'usage'});
		// Words that name no tool are plain text: the model's, when one is connected.
		expect(parsePromptLine('nope {}', tools)).toEqual({kind: 'text', text: 'nope {}'});
	});

	it('says what plain text would do while no model is connected, suggesting the command it may be', () => {
		expect(plainTextMessage('ls -la')).toBe('unknown command: ls — did you mean !ls -la?\nplain text goes to the model; no model connected: see /model');
	});

	it('knows /help TOOL, /tools, /clear, and the bare / as the command list', () => {
		expect(parsePromptLine('/help bash', tools)).toEqual({kind: 'help', topic: 'bash'});
		expect(parsePromptLine('/help a b', tools)).toMatchObject({kind: 'usage'});
		expect(parsePromptLine('/', tools)).toEqual({kind: 'help'});
		expect(parsePromptLine('/tools', tools)).toEqual({kind: 'tools'});
		expect(parsePromptLine('/clear', tools)).toEqual({kind: 'clear'});
	});

	it('knows help, exit and empty lines', () => {
		expect(parsePromptLine('/help', tools)).toEqual({kind: 'help'});
		expect(parsePromptLine('/quit', tools)).toEqual({kind: 'exit'});
		expect(parsePromptLine('   ', tools)).toEqual({kind: 'empty'});
		expect(parsePromptLine('/frobnicate', tools)).toEqual({kind: 'usage', message: 'unknown command: /frobnicate (type /help)'});
	});
});
