import {mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {FsError} from '../../../src/builtin/workspace/fs-error.js';
import {isWithin, realpathDeep, WorkspaceGuard} from '../../../src/builtin/workspace/workspace-guard.js';

let base: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
	base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-ws-')));
	workspace = path.join(base, 'ws');
	outside = path.join(base, 'outside');
	await mkdir(path.join(workspace, 'src'), {recursive: true});
	await mkdir(outside);
	await writeFile(path.join(workspace, 'src', 'a.txt'), 'inside\n');
	await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
});

afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

async function refusal(promise: Promise<unknown>): Promise<{name: string; code: string; message: string}> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(FsError);
		const {name, code, message} = error as FsError;
		return {name, code, message};
	}

	throw new Error('expected a refusal');
}

describe('isWithin', () => {
	it('accepts the root itself and paths below it, and rejects siblings sharing a prefix', () => {
		expect([isWithin('/a/b', '/a/b'), isWithin('/a/b', '/a/b/c'), isWithin('/a/b', '/a/bc'), isWithin('/', '/x')]).toEqual([true, true, false, true]);
	});
});

describe('realpathDeep', () => {
	it('resolves the existing ancestors and appends the missing tail', async () => {
		await symlink(path.join(workspace, 'src'), path.join(workspace, 'link'));
		expect(await realpathDeep(path.join(workspace, 'link', 'new', 'file.txt'))).toBe(path.join(workspace, 'src', 'new', 'file.txt'));
	});

	it('follows a dangling symlink to where it points', async () => {
		await symlink(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling'));
		expect(await realpathDeep(path.join(workspace, 'dangling'))).toBe(path.join(outside, 'not-yet.txt'));
	});
});

describe('WorkspaceGuard.resolve', () => {
	it('resolves relative paths against the workspace and keeps the lexical path for display', async () => {
		const guard = new WorkspaceGuard({workspace});
		expect(await guard.resolve('src/a.txt')).toEqual({
			input: 'src/a.txt',
			absolute: path.join(workspace, 'src/a.txt'),
			real: path.join(workspace, 'src/a.txt'),
			root: workspace,
		});
	});

	it('accepts an absolute path inside the workspace and a path that does not exist yet', async () => {
		const guard = new WorkspaceGuard({workspace});
		expect((await guard.resolve(path.join(workspace, 'src/a.txt'))).real).toBe(path.join(workspace, 'src/a.txt'));
		expect((await guard.resolve('new/dir/file.md')).real).toBe(path.join(workspace, 'new/dir/file.md'));
	});

	it('refuses a path that climbs out with ..', async () => {
		const guard = new WorkspaceGuard({workspace});
		expect(await refusal(guard.resolve('../outside/secret.txt'))).toEqual({
			name: 'FsError',
			code: 'FS_OUTSIDE_WORKSPACE',
			message: `access denied: "../outside/secret.txt" is outside the workspace "${workspace}"`,
		});
	});

	it('refuses an absolute path elsewhere', async () => {
		const guard = new WorkspaceGuard({workspace});
		expect((await refusal(guard.resolve('/etc/passwd'))).code).toBe('FS_OUTSIDE_WORKSPACE');
	});

	it('refuses a symlink to a file outside, naming where it leads', async () => {
		await symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'innocent.txt'));
		const guard = new WorkspaceGuard({workspace});
		expect(await refusal(guard.resolve('innocent.txt'))).toEqual({
			name: 'FsError',
			code: 'FS_OUTSIDE_WORKSPACE',
			message: `access denied: "innocent.txt" (resolves to "${path.join(outside, 'secret.txt')}") is outside the workspace "${workspace}"`,
		});
	});

	it('refuses a path through a symlinked directory that points outside, also for files that do not exist yet', async () => {
		await symlink(outside, path.join(workspace, 'door'));
		const guard = new WorkspaceGuard({workspace});
		expect((await refusal(guard.resolve('door/secret.txt'))).code).toBe('FS_OUTSIDE_WORKSPACE');
		expect((await refusal(guard.resolve('door/new.txt'))).code).toBe('FS_OUTSIDE_WORKSPACE');
	});

	it('refuses a dangling symlink whose target would be created outside', async () => {
		await symlink(path.join(outside, 'planted.txt'), path.join(workspace, 'planted.txt'));
		const guard = new WorkspaceGuard({workspace});
		expect((await refusal(guard.resolve('planted.txt'))).code).toBe('FS_OUTSIDE_WORKSPACE');
	});

	it('accepts a symlink that stays inside the workspace', async () => {
		await symlink(path.join(workspace, 'src', 'a.txt'), path.join(workspace, 'alias.txt'));
		const guard = new WorkspaceGuard({workspace});
		const resolved = await guard.resolve('alias.txt');
		expect([resolved.absolute, resolved.real]).toEqual([path.join(workspace, 'alias.txt'), path.join(workspace, 'src', 'a.txt')]);
	});

	it('accepts paths under an extra allowed root', async () => {
		const guard = new WorkspaceGuard({workspace, allowedRoots: [outside]});
		expect((await guard.resolve(path.join(outside, 'secret.txt'))).root).toBe(outside);
		await symlink(outside, path.join(workspace, 'door'));
		expect((await guard.resolve('door/secret.txt')).real).toBe(path.join(outside, 'secret.txt'));
	});

	it('accepts hard-to-see names inside the workspace', async () => {
		const name = 'evil\u202Etxt.exe\u200B';
		await writeFile(path.join(workspace, name), 'x');
		const guard = new WorkspaceGuard({workspace});
		expect((await guard.resolve(name)).real).toBe(path.join(workspace, name));
	});

	it('refuses a NUL byte in the path', async () => {
		const guard = new WorkspaceGuard({workspace});
		expect((await refusal(guard.resolve('a\0b'))).code).toBe('FS_INVALID_PATH');
	});
});

describe('WorkspaceGuard.openForRead', () => {
	it('opens a contained file', async () => {
		const guard = new WorkspaceGuard({workspace});
		const handle = await guard.openForRead(await guard.resolve('src/a.txt'));
		try {
			expect(await handle.readFile('utf8')).toBe('inside\n');
		} finally {
			await handle.close();
		}
	});

	it('refuses a file that was swapped for a symlink to the outside after the check', async () => {
		const guard = new WorkspaceGuard({workspace});
		const checked = await guard.resolve('src/a.txt');
		await rm(path.join(workspace, 'src', 'a.txt'));
		await symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'src', 'a.txt'));
		expect((await refusal(guard.openForRead(checked))).code).toBe('FS_OUTSIDE_WORKSPACE');
	});

	it('refuses a directory on the path that was swapped for a symlink to the outside after the check', async () => {
		await writeFile(path.join(outside, 'a.txt'), 'outside\n');
		const guard = new WorkspaceGuard({workspace});
		const checked = await guard.resolve('src/a.txt');
		await rename(path.join(workspace, 'src'), path.join(workspace, 'src-old'));
		await symlink(outside, path.join(workspace, 'src'));
		expect((await refusal(guard.openForRead(checked))).code).toBe('FS_OUTSIDE_WORKSPACE');
	});
});

/** A guard on a system without procfs: the opened descriptor is checked by device and inode instead. */
class GuardWithoutProcfs extends WorkspaceGuard {
	protected override async descriptorPath(): Promise<string | undefined> {
		return undefined;
	}
}

describe('WorkspaceGuard.openForRead without procfs', () => {
	it('opens a contained file', async () => {
		const guard = new GuardWithoutProcfs({workspace});
		const handle = await guard.openForRead(await guard.resolve('src/a.txt'));
		try {
			expect(await handle.readFile('utf8')).toBe('inside\n');
		} finally {
			await handle.close();
		}
	});

	it('refuses a directory on the path that was swapped for a symlink to the outside after the check', async () => {
		await writeFile(path.join(outside, 'a.txt'), 'outside\n');
		const guard = new GuardWithoutProcfs({workspace});
		const checked = await guard.resolve('src/a.txt');
		await rename(path.join(workspace, 'src'), path.join(workspace, 'src-old'));
		await symlink(outside, path.join(workspace, 'src'));
		expect((await refusal(guard.openForRead(checked))).code).toBe('FS_OUTSIDE_WORKSPACE');
	});
});
