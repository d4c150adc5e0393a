import {mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {fakeIo} from '../cli-io-fake.js';

let folder = '';
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'cardterm-search-ignore-'));
	const files: Record<string, number> = {'README.md': 30, 'docs/guide.md': 10, 'docs/old.md': 50, 'node_modules/pkg/README.md': 5, '.github/notes.md': 20, 'dist/built.md': 1};
	writeFileSync(join(folder, '.gitignore'), 'node_modules/\ndist/\n');
	for (const [file, secondsAgo] of Object.entries(files)) {
		mkdirSync(dirname(join(folder, file)), {recursive: true});
		writeFileSync(join(folder, file), '# TODO heading\n');
		const when = new Date(Date.UTC(2026, 0, 1) - secondsAgo * 1000);
		utimesSync(join(folder, file), when, when);
	}
});

afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

async function call(tool: string, args: unknown): Promise<{paths?: string[]; files?: Array<{path: string}>}> {
	const io = fakeIo({cwd: folder});
	expect(await main(['call', tool, JSON.stringify(args), '--json'], io), io.err()).toBe(0);
	return (JSON.parse(io.out()) as {result: {paths?: string[]; files?: Array<{path: string}>}}).result;
}

describe('glob and grep through cardterm call', () => {
	it('skip the same files (.gitignore\'d node_modules and dist, hidden entries): glob newest-modified first, grep by path', async () => {
		const glob = await call('glob', {pattern: '**/*.md'});
		expect(glob.paths).toEqual(['docs/guide.md', 'README.md', 'docs/old.md']);
		const grep = await call('grep', {pattern: 'TODO'});
		expect(grep.files!.map(file => file.path)).toEqual(['README.md', 'docs/guide.md', 'docs/old.md']);
		expect(new Set(glob.paths)).toEqual(new Set(grep.files!.map(file => file.path)));
		// A pattern that names the hidden folder finds it.
		expect((await call('glob', {pattern: '.github/*.md'})).paths).toEqual(['.github/notes.md']);
	});
});
