import {mkdir, mkdtemp, realpath, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {parseReadArgs, presentReadCall, presentReadResult, readPresentationMeta, renderRead, type ReadValue} from '../../../src/builtin/fs/read-card.js';
import {readFileWindow} from '../../../src/builtin/fs/read-file.js';
import {clipReadLine, READ_LIMIT, ReadWindowBuilder, readMetaFromMeta} from '../../../src/builtin/fs/read-window.js';
import {FsError} from '../../../src/builtin/workspace/fs-error.js';
import {WorkspaceGuard} from '../../../src/builtin/workspace/workspace-guard.js';
import {ToolArgsError} from '../../../src/tools/errors.js';

const caps = {maxLineLength: 2000, maxBytes: 50 * 1024};

/** The spec's worked example (§E2.3), restated. */
const configPath = '/home/u/proj/src/config.ts';
const configLines = [
	{number: 1, text: 'export const config = {'},
	{number: 2, text: '  DEBUG: true,'},
	{number: 3, text: "  level: 'info',"},
	{number: 4, text: '}'},
];
const configBody = "1: export const config = {\n2:   DEBUG: true,\n3:   level: 'info',\n4: }\n\n(End of file - total 4 lines)";
const configText = `<path>${configPath}</path>\n<type>file</type>\n<content>\n${configBody}\n</content>`;

function windowOf(text: string, offset = 1, limit = READ_LIMIT, overrides: Partial<typeof caps> = {}) {
	const builder = new ReadWindowBuilder({offset, limit, ...caps, ...overrides});
	builder.push(text);
	return builder.finish('/f.txt');
}

describe('read window', () => {
	it('numbers lines from the file, strips CR, and counts a final line without newline', () => {
		expect(windowOf('a\r\nb\nc')).toEqual({
			lines: [
				{number: 1, text: 'a'},
				{number: 2, text: 'b'},
				{number: 3, text: 'c'},
			],
			totalLines: 3,
			cappedByBytes: false,
		});
	});

	it('gives the same window whatever the chunk boundaries', () => {
		const builder = new ReadWindowBuilder({offset: 2, limit: 2, ...caps});
		for (const chunk of ['on', 'e\ntw', 'o\n', '\nfo', 'ur\n']) {
			builder.push(chunk);
		}

		expect(builder.finish('/f')).toEqual({
			lines: [
				{number: 2, text: 'two'},
				{number: 3, text: ''},
			],
			totalLines: 4,
			cappedByBytes: false,
		});
	});

	it('answers offset 1 of an empty file with an empty window', () => {
		expect(windowOf('')).toEqual({lines: [], totalLines: 0, cappedByBytes: false});
	});

	it('refuses an offset past the last line with FS_NOT_FOUND', () => {
		expect(() => windowOf('a\nb\n', 3)).toThrow(new FsError('offset 3 is out of range for "/f.txt" (2 lines)', 'FS_NOT_FOUND'));
		try {
			windowOf('a\n', 5);
		} catch (error) {
			expect((error as FsError).code).toBe('FS_NOT_FOUND');
		}
	});

	it('clips long lines with the spec suffix, never splitting a surrogate pair', () => {
		expect(clipReadLine('abcdef', 3)).toBe('abc... (line truncated to 3 chars)');
		expect(clipReadLine('ab😀c', 3)).toBe('ab... (line truncated to 3 chars)');
		expect(windowOf(`${'x'.repeat(2500)}\nshort`).lines).toEqual([
			{number: 1, text: `${'x'.repeat(2000)}... (line truncated to 2000 chars)`},
			{number: 2, text: 'short'},
		]);
	});

	it('stops at the byte cap but still counts every line', () => {
		const window = windowOf('aaaa\nbbbb\ncccc\ndddd\n', 1, 10, {maxBytes: 10});
		expect(window).toEqual({
			lines: [
				{number: 1, text: 'aaaa'},
				{number: 2, text: 'bbbb'},
			],
			totalLines: 4,
			cappedByBytes: true,
		});
	});

	it('can hit the byte cap before the first line and keep the offset', () => {
		expect(windowOf('a\nbbbbbbbbbbbb\n', 2, 10, {maxBytes: 5})).toEqual({lines: [], totalLines: 2, cappedByBytes: true});
	});
});

describe('read model text and meta', () => {
	const value: ReadValue = {path: configPath, offset: 1, lines: configLines, totalLines: 4};

	it('renders the worked example envelope exactly', () => {
		expect(renderRead({file_path: 'src/config.ts'}, value, READ_LIMIT)).toEqual([{type: 'text', text: configText}]);
	});

	it('renders the continuation footer of a window', () => {
		const big: ReadValue = {
			path: '/home/u/proj/src/big.ts',
			offset: 100,
			lines: [
				{number: 100, text: 'a'},
				{number: 101, text: 'b'},
				{number: 102, text: 'c'},
			],
			totalLines: 540,
		};
		expect(renderRead({file_path: 'src/big.ts', offset: 100, limit: 3}, big, READ_LIMIT)).toEqual([
			{
				type: 'text',
				text: '<path>/home/u/proj/src/big.ts</path>\n<type>file</type>\n<content>\n100: a\n101: b\n102: c\n\n(Showing lines 100-102 of 540. Use offset=103 to continue.)\n</content>',
			},
		]);
	});

	it('renders the byte-cap footer, also when no line fit', () => {
		const capped: ReadValue = {path: '/p/f.txt', offset: 1, lines: [{number: 1, text: 'a'}], totalLines: 9};
		expect(renderRead({file_path: 'f.txt'}, capped, READ_LIMIT)[0]).toEqual({
			type: 'text',
			text: '<path>/p/f.txt</path>\n<type>file</type>\n<content>\n1: a\n\n(Output capped. Showing lines 1-1. Use offset=2 to continue.)\n</content>',
		});
		const empty: ReadValue = {path: '/p/f.txt', offset: 2, lines: [], totalLines: 9};
		expect(renderRead({file_path: 'f.txt', offset: 2}, empty, READ_LIMIT)[0]).toEqual({
			type: 'text',
			text: '<path>/p/f.txt</path>\n<type>file</type>\n<content>\n(Output capped. Showing lines 2-1. Use offset=2 to continue.)\n</content>',
		});
	});

	it('renders an empty file as just the end footer', () => {
		const empty: ReadValue = {path: '/p/e.txt', offset: 1, lines: [], totalLines: 0};
		expect(renderRead({file_path: 'e.txt'}, empty, READ_LIMIT)[0]).toEqual({
			type: 'text',
			text: '<path>/p/e.txt</path>\n<type>file</type>\n<content>\n(End of file - total 0 lines)\n</content>',
		});
	});

	it('builds the worked example meta with its lang', () => {
		expect(readPresentationMeta(value)).toEqual({path: configPath, offset: 1, lines: configLines, totalLines: 4, lang: 'ts'});
		expect(readPresentationMeta({...value, path: '/p/Makefile'})).toEqual({path: '/p/Makefile', offset: 1, lines: configLines, totalLines: 4});
	});
});

describe('read argument rules', () => {
	it('applies defaults', () => {
		expect(parseReadArgs({file_path: 'a'}, 2000)).toEqual({filePath: 'a', offset: 1, limit: 2000});
	});

	it('refuses blank paths, non-positive or fractional windows, and limits over readLimit', () => {
		expect(() => parseReadArgs({file_path: ' ', offset: 0, limit: 2001}, 2000)).toThrow(
			new ToolArgsError(['"file_path" must not be blank', '"offset" must be a positive integer', '"limit" must be at most 2000']),
		);
		expect(() => parseReadArgs({file_path: 'a', limit: 1.5}, 2000)).toThrow('invalid arguments: "limit" must be a positive integer');
	});
});

describe('read presenters', () => {
	it('presents the worked example call and result', () => {
		expect(presentReadCall({file_path: 'src/config.ts'})).toEqual({
			card: 'generic',
			title: 'Read src/config.ts',
			kind: 'read',
			locations: [{path: 'src/config.ts', line: 1}],
		});
		const meta = {path: configPath, offset: 1, lines: configLines, totalLines: 4, lang: 'ts'};
		expect(presentReadResult({file_path: 'src/config.ts'}, {content: [{type: 'text', text: configText}], isError: false, meta})).toEqual({
			card: 'read',
			path: configPath,
			offset: 1,
			lines: configLines,
			totalLines: 4,
			lang: 'ts',
			content: [{type: 'text', text: configBody}],
		});
	});

	it('titles windowed calls', () => {
		expect(presentReadCall({file_path: 'src/big.ts', offset: 100, limit: 3})).toEqual({
			card: 'generic',
			title: 'Read src/big.ts (100 - 102)',
			kind: 'read',
			locations: [{path: 'src/big.ts', line: 100}],
		});
		expect(presentReadCall({file_path: 'a', offset: 7}).title).toBe('Read a (from line 7)');
		expect(presentReadCall({file_path: 'a', limit: 5}).title).toBe('Read a (1 - 5)');
	});

	it('declines errors, malformed meta and text that is not the envelope', () => {
		const good = {path: '/p', offset: 1, lines: [{number: 1, text: 'x'}], totalLines: 1};
		const text = [{type: 'text' as const, text: '<path>/p</path>\n<type>file</type>\n<content>\n1: x\n\n(End of file - total 1 lines)\n</content>'}];
		const args = {file_path: 'p'};
		expect(presentReadResult(args, {content: text, isError: false, meta: good})?.card).toBe('read');
		const declined = [
			presentReadResult(args, {content: [{type: 'text', text: 'Error: x'}], isError: true}),
			presentReadResult(args, {content: text, isError: false, meta: {...good, offset: 0}}),
			presentReadResult(args, {content: text, isError: false, meta: {...good, totalLines: -1}}),
			presentReadResult(args, {content: text, isError: false, meta: {...good, lines: [{number: 2, text: 'x'}]}}),
			presentReadResult(args, {content: text, isError: false, meta: {...good, offset: 2, totalLines: 3, lines: [{number: 1, text: 'x'}]}}),
			presentReadResult(args, {content: text, isError: false, meta: {...good, totalLines: 3, lines: [{number: 2, text: 'a'}, {number: 2, text: 'b'}]}}),
			presentReadResult(args, {content: text, isError: false, meta: {...good, lang: 3}}),
			presentReadResult(args, {content: [{type: 'text', text: 'plain'}], isError: false, meta: good}),
			presentReadResult(args, {content: [...text, ...text], isError: false, meta: good}),
		];
		expect(declined).toEqual(Array.from({length: declined.length}, () => undefined));
	});

	it('reads the window from the envelope itself when a log\'s result has no meta', () => {
		const envelope = (body: string) => [{type: 'text' as const, text: `<path>/w/a.ts</path>\n<type>file</type>\n<content>\n${body}\n</content>`}];
		const args = {file_path: 'a.ts'};
		expect(presentReadResult(args, {content: envelope('3: x\n4: \n\n(Showing lines 3-4 of 9. Use offset=5 to continue.)'), isError: false})).toMatchObject({
			card: 'read', path: '/w/a.ts', offset: 3, totalLines: 9, lang: 'ts', lines: [{number: 3, text: 'x'}, {number: 4, text: ''}],
		});
		expect(presentReadResult(args, {content: envelope('1: only\n\n(End of file - total 1 lines)'), isError: false})).toMatchObject({offset: 1, totalLines: 1, lines: [{number: 1, text: 'only'}]});
		const declined = [
			// A byte-capped window does not say how long the file is.
			presentReadResult(args, {content: envelope('1: x\n\n(Output capped. Showing lines 1-1. Use offset=2 to continue.)'), isError: false}),
			presentReadResult(args, {content: envelope('1: x\n3: y\n\n(End of file - total 3 lines)'), isError: false}),
			presentReadResult(args, {content: envelope('1: x\n2: y\n\n(End of file - total 1 lines)'), isError: false}),
			presentReadResult(args, {content: envelope('x\n\n(End of file - total 1 lines)'), isError: false}),
			presentReadResult(args, {content: envelope('1: x\n(End of file - total 1 lines)'), isError: false}),
			presentReadResult(args, {content: [{type: 'text', text: '<path>/w/a.png</path>\n<type>image</type>\n<content>\npng\n</content>'}], isError: false}),
		];
		expect(declined).toEqual(Array.from({length: declined.length}, () => undefined));
	});

	it('reads a path holding markup as a read card, with meta and from the envelope alone (it was generic: the path stopped at its first "<")', () => {
		const path = '/w/scope</system-reminder>/task.txt';
		const text = [{type: 'text' as const, text: `<path>${path}</path>\n<type>file</type>\n<content>\n1: do it\n\n(End of file - total 1 lines)\n</content>`}];
		const args = {file_path: path};
		const view = {card: 'read', path, offset: 1, totalLines: 1, lines: [{number: 1, text: 'do it'}], lang: undefined, content: [{type: 'text', text: '1: do it\n\n(End of file - total 1 lines)'}]};
		expect(presentReadResult(args, {content: text, isError: false})).toEqual({...view, lang: undefined});
		expect(presentReadResult(args, {content: text, isError: false, meta: {path, offset: 1, lines: [{number: 1, text: 'do it'}], totalLines: 1}})).toEqual(view);
		// The first `</path>` that ends the line is the path's end, whatever the path holds before it.
		const tricky = '/w/a</path>b</path>.md';
		const trickyText = [{type: 'text' as const, text: `<path>${tricky}</path>\n<type>file</type>\n<content>\n1: x\n\n(End of file - total 1 lines)\n</content>`}];
		expect(presentReadResult({file_path: tricky}, {content: trickyText, isError: false})).toMatchObject({card: 'read', path: tricky, lang: 'md'});
	});

	it('narrows meta by copying only the known keys', () => {
		expect(readMetaFromMeta({path: '/p', offset: 1, lines: [{number: 1, text: 'x', extra: 1}], totalLines: 1, other: true})).toEqual({
			path: '/p',
			offset: 1,
			lines: [{number: 1, text: 'x'}],
			totalLines: 1,
		});
	});
});

describe('read execution', () => {
	let base: string;
	let workspace: string;
	let guard: WorkspaceGuard;
	const signal = new AbortController().signal;

	beforeEach(async () => {
		base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-read-')));
		workspace = path.join(base, 'ws');
		await mkdir(path.join(workspace, 'src'), {recursive: true});
		guard = new WorkspaceGuard({workspace});
	});

	afterEach(async () => {
		await rm(base, {recursive: true, force: true});
	});

	it('reads a file relative to the workspace and reports its absolute path', async () => {
		await writeFile(path.join(workspace, 'src/config.ts'), "export const config = {\n  DEBUG: true,\n  level: 'info',\n}\n");
		expect(await readFileWindow(guard, parseReadArgs({file_path: 'src/config.ts'}, 2000), caps, signal)).toEqual({
			path: path.join(workspace, 'src/config.ts'),
			offset: 1,
			lines: configLines,
			totalLines: 4,
		});
	});

	it('reads a file in a folder whose name holds markup, and presents the result as a read card', async () => {
		// Two folders: `scope<` and `system-reminder>` in it.
		const folder = path.join(workspace, 'scope</system-reminder>');
		await mkdir(folder, {recursive: true});
		await writeFile(path.join(folder, 'task.txt'), 'do it\n');
		const args = {file_path: 'scope</system-reminder>/task.txt'};
		const value = await readFileWindow(guard, parseReadArgs(args, 2000), caps, signal);
		const view = presentReadResult(args, {content: renderRead(args, value, 2000), isError: false, meta: readPresentationMeta(value)});
		expect(view).toMatchObject({card: 'read', path: path.join(folder, 'task.txt'), lines: [{number: 1, text: 'do it'}], totalLines: 1});
	});

	it('reads a window of a file larger than one chunk', async () => {
		const lines = Array.from({length: 20_000}, (_, index) => `line ${index + 1}`);
		await writeFile(path.join(workspace, 'big.txt'), lines.join('\n'));
		const value = await readFileWindow(guard, parseReadArgs({file_path: 'big.txt', offset: 15_000, limit: 2}, 2000), caps, signal);
		expect(value).toEqual({
			path: path.join(workspace, 'big.txt'),
			offset: 15_000,
			lines: [
				{number: 15_000, text: 'line 15000'},
				{number: 15_001, text: 'line 15001'},
			],
			totalLines: 20_000,
		});
	});

	it('fails clearly for missing files, directories, binary files and offsets past the end', async () => {
		await writeFile(path.join(workspace, 'blob.bin'), Buffer.from([0x41, 0x00, 0x42]));
		await writeFile(path.join(workspace, 'two.txt'), 'a\nb\n');
		const attempt = async (args: {file_path: string; offset?: number}) => {
			try {
				await readFileWindow(guard, parseReadArgs(args, 2000), caps, signal);
				return 'read';
			} catch (error) {
				return `${(error as FsError).code}: ${(error as FsError).message}`;
			}
		};

		expect(await attempt({file_path: 'gone.txt'})).toBe(`FS_NOT_FOUND: cannot read "${workspace}/gone.txt": not found`);
		expect(await attempt({file_path: 'src'})).toBe(`FS_NOT_A_FILE: cannot read "${workspace}/src": not a regular file`);
		expect(await attempt({file_path: 'blob.bin'})).toBe(`FS_BINARY_FILE: cannot read "${workspace}/blob.bin": binary file (contains NUL bytes)`);
		expect(await attempt({file_path: 'two.txt', offset: 4})).toBe(`FS_NOT_FOUND: offset 4 is out of range for "${workspace}/two.txt" (2 lines)`);
	});

	it('refuses to read through a symlink that leads outside', async () => {
		await writeFile(path.join(base, 'secret.txt'), 'secret');
		await symlink(path.join(base, 'secret.txt'), path.join(workspace, 'link.txt'));
		await expect(readFileWindow(guard, parseReadArgs({file_path: 'link.txt'}, 2000), caps, signal)).rejects.toMatchObject({
			code: 'FS_OUTSIDE_WORKSPACE',
		});
		await expect(readFileWindow(guard, parseReadArgs({file_path: '../secret.txt'}, 2000), caps, signal)).rejects.toMatchObject({
			code: 'FS_OUTSIDE_WORKSPACE',
		});
	});
});

describe('read window properties', () => {
	it('gives the same window however the text is split into chunks', () => {
		fc.assert(
			fc.property(
				fc.string({unit: fc.constantFrom('a', 'é', '\n', '\r', '😀', 'x')}),
				fc.array(fc.nat(40), {maxLength: 6}),
				fc.integer({min: 1, max: 5}),
				fc.integer({min: 1, max: 4}),
				(text, cuts, offset, limit) => {
					const request = {offset, limit, maxLineLength: 3, maxBytes: 12};
					const whole = new ReadWindowBuilder(request);
					whole.push(text);
					const split = new ReadWindowBuilder(request);
					let start = 0;
					for (const cut of [...cuts].sort((a, b) => a - b)) {
						split.push(text.slice(start, Math.max(start, cut)));
						start = Math.max(start, cut);
					}

					split.push(text.slice(start));
					const outcome = (builder: ReadWindowBuilder) => {
						try {
							return builder.finish('/f');
						} catch (error) {
							return (error as Error).message;
						}
					};

					expect(outcome(split)).toEqual(outcome(whole));
				},
			),
		);
	});
});
