import {chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	applyEdit,
	countOccurrences,
	editPresentationMeta,
	parseEditArgs,
	presentEditCall,
	presentEditResult,
	renderEdit,
} from '../../../src/builtin/fs/edit-card.js';
import {computeHunks, diffsFromMeta} from '../../../src/builtin/fs/hunks.js';
import {DIFF_BASIS_MAX_BYTES, editWorkspaceFile, writeWorkspaceFile} from '../../../src/builtin/fs/mutate-file.js';
import {parseWriteArgs, presentWriteCall, presentWriteResult, renderWrite, writePresentationMeta} from '../../../src/builtin/fs/write-card.js';
import {FsError} from '../../../src/builtin/workspace/fs-error.js';
import {WorkspaceGuard} from '../../../src/builtin/workspace/workspace-guard.js';
import {ToolArgsError} from '../../../src/tools/errors.js';

const caps = {diffBasisMaxBytes: DIFF_BASIS_MAX_BYTES, editMaxBytes: DIFF_BASIS_MAX_BYTES};
const signal = new AbortController().signal;

/** A 20-line file with DEBUG on lines 3 and 16 (the replace_all example of spec §E2.5). */
function twentyLines(word: string): string {
	return `${Array.from({length: 20}, (_, index) => (index === 2 || index === 15 ? `const ${word} = true // ${index + 1}` : `line ${index + 1}`)).join('\n')}\n`;
}

describe('hunks', () => {
	it('gives one entry per changed region with three context lines (spec replace_all example)', () => {
		expect(computeHunks('src/app.ts', twentyLines('DEBUG'), twentyLines('RELEASE'))).toEqual([
			{
				path: 'src/app.ts',
				oldText: 'line 1\nline 2\nconst DEBUG = true // 3\nline 4\nline 5\nline 6',
				newText: 'line 1\nline 2\nconst RELEASE = true // 3\nline 4\nline 5\nline 6',
				oldStart: 1,
				newStart: 1,
			},
			{
				path: 'src/app.ts',
				oldText: 'line 13\nline 14\nline 15\nconst DEBUG = true // 16\nline 17\nline 18\nline 19',
				newText: 'line 13\nline 14\nline 15\nconst RELEASE = true // 16\nline 17\nline 18\nline 19',
				oldStart: 13,
				newStart: 13,
			},
		]);
	});

	it('drops the no-newline markers and joins without a trailing newline', () => {
		expect(computeHunks('data.txt', 'original contents', 'replaced')).toEqual([{path: 'data.txt', oldText: 'original contents', newText: 'replaced', oldStart: 1, newStart: 1}]);
	});

	it('gives oldText null for a hunk without old lines and [] for identical texts', () => {
		expect(computeHunks('e.txt', '', 'new\n')).toEqual([{path: 'e.txt', oldText: null, newText: 'new', oldStart: 1, newStart: 1}]);
		expect(computeHunks('same.txt', 'a\n', 'a\n')).toEqual([]);
	});

	it('keeps hunk starts from meta only as a pair of line numbers (older logs have none)', () => {
		const hunk = {path: 'a', oldText: 'x', newText: 'y'};
		expect(diffsFromMeta({diffs: [{...hunk, oldStart: 4, newStart: 5}]})).toEqual([{...hunk, oldStart: 4, newStart: 5}]);
		for (const bad of [{oldStart: 4}, {oldStart: -1, newStart: 2}, {oldStart: 1.5, newStart: 2}, {oldStart: '3', newStart: 3}, {oldStart: 2 ** 60, newStart: 1}]) {
			expect(diffsFromMeta({diffs: [{...hunk, ...bad}]})).toEqual([hunk]);
		}
	});

	it('narrows meta diffs and rejects empty or malformed lists', () => {
		expect(diffsFromMeta({diffs: [{path: 'a', oldText: null, newText: ''}]})).toEqual([{path: 'a', oldText: null, newText: ''}]);
		expect([diffsFromMeta({diffs: []}), diffsFromMeta({diffs: [{path: 'a', newText: 'x'}]}), diffsFromMeta(null), diffsFromMeta([])]).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
	});
});

describe('write card', () => {
	const args = {file_path: 'docs/NOTES.md', content: '# Notes\n'};

	it('matches the worked create example', () => {
		const value = {path: '/home/u/proj/docs/NOTES.md', operation: 'create' as const, before: null, after: '# Notes\n'};
		expect(renderWrite(value)).toEqual([{type: 'text', text: '<path>/home/u/proj/docs/NOTES.md</path>\n<type>file</type>\n<content>\nCreated file\n</content>'}]);
		expect(writePresentationMeta(args, value)).toEqual({diffs: []});
		const callView = {
			card: 'diff',
			title: 'Write docs/NOTES.md',
			diffs: [{path: 'docs/NOTES.md', oldText: null, newText: '# Notes\n'}],
			locations: [{path: 'docs/NOTES.md'}],
		};
		expect(presentWriteCall(args)).toEqual(callView);
		expect(presentWriteResult(args, {content: renderWrite(value), isError: false, meta: {diffs: []}})).toEqual({
			card: 'diff',
			title: 'Write docs/NOTES.md',
			diffs: [{path: 'docs/NOTES.md', oldText: null, newText: '# Notes\n'}],
		});
	});

	it('matches the overwrite example and uses its hunks on the result card', () => {
		const overwrite = {file_path: 'data.txt', content: 'replaced'};
		const value = {path: '/w/data.txt', operation: 'update' as const, before: 'original contents', after: 'replaced'};
		const meta = writePresentationMeta(overwrite, value);
		expect(meta).toEqual({diffs: [{path: 'data.txt', oldText: 'original contents', newText: 'replaced', oldStart: 1, newStart: 1}]});
		expect(renderWrite(value)[0]).toEqual({type: 'text', text: '<path>/w/data.txt</path>\n<type>file</type>\n<content>\nUpdated file\n</content>'});
		expect(presentWriteResult(overwrite, {content: [], isError: false, meta})).toEqual({
			card: 'diff',
			title: 'Write data.txt',
			diffs: [{path: 'data.txt', oldText: 'original contents', newText: 'replaced', oldStart: 1, newStart: 1}],
		});
	});

	it('falls back to the whole-file diff without usable meta and declines errors', () => {
		expect(presentWriteResult(args, {content: [], isError: false, meta: {diffs: 'x'}})?.diffs).toEqual([{path: 'docs/NOTES.md', oldText: null, newText: '# Notes\n'}]);
		expect(presentWriteResult(args, {content: [], isError: true})).toBeUndefined();
	});

	it('refuses a blank path', () => {
		expect(() => parseWriteArgs({file_path: '  ', content: ''})).toThrow(new ToolArgsError(['"file_path" must not be blank']));
	});
});

describe('edit card', () => {
	const args = {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'};
	const before = "export const config = {\n  DEBUG: true,\n  level: 'info',\n}\n";
	const after = "export const config = {\n  DEBUG: false,\n  level: 'info',\n}\n";
	const diffs = [
		{
			path: 'src/config.ts',
			oldText: "export const config = {\n  DEBUG: true,\n  level: 'info',\n}",
			newText: "export const config = {\n  DEBUG: false,\n  level: 'info',\n}",
			oldStart: 1,
			newStart: 1,
		},
	];

	it('matches the worked example', () => {
		const value = {path: '/home/u/proj/src/config.ts', before, after};
		expect(presentEditCall(args)).toEqual({
			card: 'diff',
			title: 'Edit src/config.ts',
			diffs: [{path: 'src/config.ts', oldText: 'DEBUG: true', newText: 'DEBUG: false'}],
			locations: [{path: 'src/config.ts'}],
		});
		expect(renderEdit(args, value)).toEqual([{type: 'text', text: 'The file /home/u/proj/src/config.ts has been updated successfully.'}]);
		expect(editPresentationMeta(args, value)).toEqual({diffs});
		expect(presentEditResult(args, {content: renderEdit(args, value), isError: false, meta: {diffs}})).toEqual({card: 'diff', title: 'Edit src/config.ts', diffs});
	});

	it('words the replace_all confirmation differently', () => {
		expect(renderEdit({...args, replace_all: true}, {path: '/p/a', before: 'a', after: 'b'})).toEqual([
			{type: 'text', text: 'The file /p/a has been updated. All occurrences were successfully replaced.'},
		]);
	});

	it('declines errors and unusable meta', () => {
		expect([
			presentEditResult(args, {content: [], isError: true}),
			presentEditResult(args, {content: [], isError: false}),
			presentEditResult(args, {content: [], isError: false, meta: {diffs: []}}),
		]).toEqual([undefined, undefined, undefined]);
	});

	it('applies literal replacements, including $ patterns, and counts non-overlapping occurrences', () => {
		const input = parseEditArgs({file_path: 'a', old_string: 'x', new_string: '$&$1'});
		expect(applyEdit('axb', input, '/p/a')).toBe('a$&$1b');
		expect(applyEdit('x x x', {...input, newString: 'y', replaceAll: true}, '/p/a')).toBe('y y y');
		expect(countOccurrences('aaaa', 'aa')).toBe(2);
	});

	it('refuses a missing or ambiguous old_string with classed errors', () => {
		const input = parseEditArgs({file_path: 'a', old_string: 'x', new_string: 'y'});
		expect(() => applyEdit('abc', input, '/p/a')).toThrow(new FsError('old_string was not found in "/p/a"', 'FS_EDIT_NOT_FOUND'));
		expect(() => applyEdit('x x', input, '/p/a')).toThrow(
			'old_string was found 2 times in "/p/a"; include more surrounding text to make it unique, or set replace_all to replace every occurrence',
		);
	});

	it('refuses empty old_string and an unchanged replacement as invalid arguments', () => {
		expect(() => parseEditArgs({file_path: 'a', old_string: 'same', new_string: 'same'})).toThrow(
			new ToolArgsError(['"new_string" must differ from "old_string"']),
		);
		expect(() => parseEditArgs({file_path: '', old_string: '', new_string: 'x'})).toThrow(
			'invalid arguments: "file_path" must not be blank; "old_string" must not be empty',
		);
	});
});

describe('write and edit execution', () => {
	let base: string;
	let workspace: string;
	let guard: WorkspaceGuard;

	beforeEach(async () => {
		base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-mut-')));
		workspace = path.join(base, 'ws');
		await mkdir(workspace);
		guard = new WorkspaceGuard({workspace});
	});

	afterEach(async () => {
		await rm(base, {recursive: true, force: true});
	});

	async function codeOf(promise: Promise<unknown>): Promise<string> {
		try {
			await promise;
			return 'ok';
		} catch (error) {
			return `${(error as FsError).code}: ${(error as FsError).message}`;
		}
	}

	it('creates a file with parent directories and leaves no temp file behind', async () => {
		const value = await writeWorkspaceFile(guard, {filePath: 'docs/NOTES.md', content: '# Notes\n'}, caps, signal);
		expect(value).toEqual({path: path.join(workspace, 'docs/NOTES.md'), operation: 'create', before: null, after: '# Notes\n'});
		expect(await readFile(path.join(workspace, 'docs/NOTES.md'), 'utf8')).toBe('# Notes\n');
		expect(await readdir(path.join(workspace, 'docs'))).toEqual(['NOTES.md']);
	});

	it('overwrites keeping the file mode and reports the prior text', async () => {
		const file = path.join(workspace, 'run.sh');
		await writeFile(file, 'echo old\n');
		await chmod(file, 0o751);
		const value = await writeWorkspaceFile(guard, {filePath: 'run.sh', content: 'echo new\n'}, caps, signal);
		expect(value).toEqual({path: file, operation: 'update', before: 'echo old\n', after: 'echo new\n'});
		expect((await stat(file)).mode & 0o777).toBe(0o751);
	});

	it('has no diff basis for a binary, non-UTF-8 or oversized prior file', async () => {
		await writeFile(path.join(workspace, 'nul.bin'), Buffer.from([1, 0, 2]));
		await writeFile(path.join(workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
		await writeFile(path.join(workspace, 'big.txt'), 'x'.repeat(64));
		const small = {...caps, diffBasisMaxBytes: 64};
		const befores = [
			(await writeWorkspaceFile(guard, {filePath: 'nul.bin', content: 't'}, caps, signal)).before,
			(await writeWorkspaceFile(guard, {filePath: 'latin1.txt', content: 't'}, caps, signal)).before,
			(await writeWorkspaceFile(guard, {filePath: 'big.txt', content: 't'}, small, signal)).before,
		];
		expect(befores).toEqual([null, null, null]);
	});

	it('refuses to write a directory, outside the workspace, or through a symlinked directory that leads out', async () => {
		await mkdir(path.join(workspace, 'dir'));
		await mkdir(path.join(base, 'outside'));
		await symlink(path.join(base, 'outside'), path.join(workspace, 'door'));
		await symlink(path.join(base, 'outside', 'planted.txt'), path.join(workspace, 'planted.txt'));
		expect(await codeOf(writeWorkspaceFile(guard, {filePath: 'dir', content: 'x'}, caps, signal))).toBe(
			`FS_NOT_A_FILE: cannot write "${workspace}/dir": not a regular file`,
		);
		expect((await codeOf(writeWorkspaceFile(guard, {filePath: '../escape.txt', content: 'x'}, caps, signal))).split(':')[0]).toBe('FS_OUTSIDE_WORKSPACE');
		expect((await codeOf(writeWorkspaceFile(guard, {filePath: 'door/x.txt', content: 'x'}, caps, signal))).split(':')[0]).toBe('FS_OUTSIDE_WORKSPACE');
		expect((await codeOf(writeWorkspaceFile(guard, {filePath: 'planted.txt', content: 'x'}, caps, signal))).split(':')[0]).toBe('FS_OUTSIDE_WORKSPACE');
		expect(await readdir(path.join(base, 'outside'))).toEqual([]);
	});

	it('replaces a symlink swapped in at the target instead of writing through it', async () => {
		await writeFile(path.join(base, 'victim.txt'), 'keep me');
		const checked = await guard.resolve('target.txt');
		await symlink(path.join(base, 'victim.txt'), path.join(workspace, 'target.txt'));
		const {writeFileAtomic} = await import('../../../src/builtin/fs/atomic-write.js');
		await writeFileAtomic(guard, checked, 'written');
		expect(await readFile(path.join(base, 'victim.txt'), 'utf8')).toBe('keep me');
		expect(await readFile(path.join(workspace, 'target.txt'), 'utf8')).toBe('written');
	});

	it('edits a file that an earlier write created, without a prior read', async () => {
		await writeWorkspaceFile(guard, {filePath: 'src/config.ts', content: "export const config = {\n  DEBUG: true,\n  level: 'info',\n}\n"}, caps, signal);
		const args = {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'};
		const value = await editWorkspaceFile(guard, parseEditArgs(args), caps, signal);
		expect(value.after).toBe("export const config = {\n  DEBUG: false,\n  level: 'info',\n}\n");
		expect(await readFile(path.join(workspace, 'src/config.ts'), 'utf8')).toBe(value.after);
		expect(editPresentationMeta(args, value)).toEqual({
			diffs: [
				{
					path: 'src/config.ts',
					oldText: "export const config = {\n  DEBUG: true,\n  level: 'info',\n}",
					newText: "export const config = {\n  DEBUG: false,\n  level: 'info',\n}",
					oldStart: 1,
					newStart: 1,
				},
			],
		});
	});

	it('produces the two spec hunks for replace_all on a real file and keeps its mode', async () => {
		const file = path.join(workspace, 'app.ts');
		await writeFile(file, twentyLines('DEBUG'));
		await chmod(file, 0o600);
		const args = {file_path: 'app.ts', old_string: 'DEBUG', new_string: 'RELEASE', replace_all: true};
		const value = await editWorkspaceFile(guard, parseEditArgs(args), caps, signal);
		expect(await readFile(file, 'utf8')).toBe(twentyLines('RELEASE'));
		expect((await stat(file)).mode & 0o777).toBe(0o600);
		expect((editPresentationMeta(args, value) as {diffs: unknown[]}).diffs).toHaveLength(2);
	});

	it('fails edits clearly: missing file, ambiguous match, binary file, too large, outside', async () => {
		await writeFile(path.join(workspace, 'twice.txt'), 'x and x');
		await writeFile(path.join(workspace, 'nul.bin'), Buffer.from([0x78, 0]));
		await writeFile(path.join(workspace, 'big.txt'), 'x'.repeat(100));
		const edit = (file: string, extra: Partial<typeof caps> = {}) =>
			codeOf(editWorkspaceFile(guard, parseEditArgs({file_path: file, old_string: 'x', new_string: 'y'}), {...caps, ...extra}, signal));
		expect(await edit('nope.txt')).toBe(`FS_NOT_FOUND: cannot edit "${workspace}/nope.txt": not found`);
		expect((await edit('twice.txt')).split(':')[0]).toBe('FS_AMBIGUOUS_EDIT');
		expect(await edit('nul.bin')).toBe(`FS_BINARY_FILE: cannot edit "${workspace}/nul.bin": not a UTF-8 text file`);
		expect(await edit('big.txt', {editMaxBytes: 100})).toBe(`FS_FILE_TOO_LARGE: cannot edit "${workspace}/big.txt": the file has 100 bytes, over the 100-byte edit limit`);
		expect((await edit('/etc/hostname')).split(':')[0]).toBe('FS_OUTSIDE_WORKSPACE');
		expect(await readFile(path.join(workspace, 'twice.txt'), 'utf8')).toBe('x and x');
	});
});

describe('write failures from the operating system', () => {
	it('names a permission problem in plain words with FS_IO_FAILED', async () => {
		if (process.getuid?.() === 0) {
			// root ignores directory permissions; the mapping is still covered by the ioFailure unit below.
			const {ioFailure} = await import('../../../src/builtin/workspace/fs-error.js');
			expect(ioFailure('write', '/p/a', Object.assign(new Error('EACCES: permission denied'), {code: 'EACCES'})).message).toBe(
				'cannot write "/p/a": permission denied (EACCES)',
			);
			return;
		}

		const base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-ro-')));
		try {
			await mkdir(path.join(base, 'locked'));
			await chmod(path.join(base, 'locked'), 0o500);
			const guard = new WorkspaceGuard({workspace: base});
			await expect(writeWorkspaceFile(guard, {filePath: 'locked/a.txt', content: 'x'}, caps, signal)).rejects.toMatchObject({
				code: 'FS_IO_FAILED',
				message: `cannot write "${base}/locked/a.txt": permission denied (EACCES)`,
			});
		} finally {
			await chmod(path.join(base, 'locked'), 0o700);
			await rm(base, {recursive: true, force: true});
		}
	});

	it('writes a file whose name is close to the file-system limit', async () => {
		const base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-long-')));
		try {
			const guard = new WorkspaceGuard({workspace: base});
			const name = `${'n'.repeat(250)}.txt`;
			await writeWorkspaceFile(guard, {filePath: name, content: 'x'}, caps, signal);
			expect(await readFile(path.join(base, name), 'utf8')).toBe('x');
		} finally {
			await rm(base, {recursive: true, force: true});
		}
	});
});
