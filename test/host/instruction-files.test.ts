/**
The instruction files a session loads (issue 31): the user's global file, then `AGENTS.md` from the
repository's root down to the working directory with `CLAUDE.md` where a folder has none, `@path`
imports (once each, bounded, only inside the workspace or the user's config folder), the size caps
with their notes, and a FIFO that is never opened.
*/
import {execFileSync} from 'node:child_process';
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {FILE_LIMIT, IMPORT_DEPTH, importsOf, loadInstructions, TOTAL_LIMIT} from '../../src/host/instruction-files.js';
import {instructionsReport} from '../../src/live/commands/instructions.js';

let base = '';
let repo = '';
let env: NodeJS.ProcessEnv = {};

async function put(path: string, text: string): Promise<void> {
	await mkdir(dirname(path), {recursive: true});
	await writeFile(path, text);
}

beforeEach(async () => {
	base = await mkdtemp(join(tmpdir(), 'cardterm-instructions-'));
	repo = join(base, 'repo');
	await mkdir(join(repo, '.git'), {recursive: true});
	env = {XDG_CONFIG_HOME: join(base, 'config'), HOME: base};
});
afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

describe('which files are loaded, in which order', () => {
	it('reads the user file, then AGENTS.md from the root down, CLAUDE.md only where no AGENTS.md is', async () => {
		await put(join(base, 'config', 'cardterm', 'AGENTS.md'), 'user rule');
		await put(join(repo, 'AGENTS.md'), 'root rule');
		await put(join(repo, 'CLAUDE.md'), 'root claude: not read, AGENTS.md is beside it');
		await put(join(repo, 'pkg', 'CLAUDE.md'), 'pkg claude rule');
		await put(join(repo, 'pkg', 'app', 'AGENTS.md'), 'app rule');
		// A file above the repository's root is not the project's.
		await put(join(base, 'AGENTS.md'), 'above the root');
		const loaded = await loadInstructions(join(repo, 'pkg', 'app'), env);
		expect(loaded.root).toBe(repo);
		expect(loaded.files.map(file => [file.path, file.scope, file.text])).toEqual([
			[join(base, 'config', 'cardterm', 'AGENTS.md'), 'user', 'user rule'],
			[join(repo, 'AGENTS.md'), 'project', 'root rule'],
			[join(repo, 'pkg', 'CLAUDE.md'), 'project', 'pkg claude rule'],
			[join(repo, 'pkg', 'app', 'AGENTS.md'), 'project', 'app rule'],
		]);
		expect(loaded.notes).toEqual([]);
	});

	it('outside a repository reads only the working directory (and the user file)', async () => {
		const plain = join(base, 'plain', 'inner');
		await put(join(base, 'plain', 'AGENTS.md'), 'parent');
		await put(join(plain, 'CLAUDE.md'), 'here');
		const loaded = await loadInstructions(plain, env);
		expect(loaded.files.map(file => file.text)).toEqual(['here']);
	});

	it('says there are none, and where it looked', async () => {
		const loaded = await loadInstructions(repo, env);
		expect(loaded.files).toEqual([]);
		expect(instructionsReport(loaded, repo)).toContain(`none of AGENTS.md or CLAUDE.md from ${repo} down to ${repo}`);
	});
});

describe('@path imports', () => {
	it('finds imports as Claude Code writes them, not in code, e-mail addresses or decorators', () => {
		expect(importsOf('See @docs/style.md, and @./rules.md.\nMail me@example.com; use `@not/this.md`; @Component\n```\n@fenced/out.md\n```\n@~/personal.md')).toEqual(['docs/style.md', './rules.md', '~/personal.md']);
	});

	it('follows imports after their file, each once, relative to the importing file (a cycle ends)', async () => {
		await put(join(repo, 'AGENTS.md'), 'root, see @docs/a.md');
		await put(join(repo, 'docs', 'a.md'), 'a, see @b.md and @../AGENTS.md');
		await put(join(repo, 'docs', 'b.md'), 'b, see @a.md');
		const loaded = await loadInstructions(repo, env);
		expect(loaded.files.map(file => [file.path, file.scope, file.importedBy])).toEqual([
			[join(repo, 'AGENTS.md'), 'project', undefined],
			[join(repo, 'docs', 'a.md'), 'import', join(repo, 'AGENTS.md')],
			[join(repo, 'docs', 'b.md'), 'import', join(repo, 'docs', 'a.md')],
		]);
		expect(instructionsReport(loaded, repo)).toContain('docs/b.md  imported by docs/a.md  ~3 tokens');
	});

	it('reads no import outside the workspace and the user folder, not through a symlink either, nor a missing one', async () => {
		await put(join(base, 'secret.md'), 'SECRET');
		await symlink(join(base, 'secret.md'), join(repo, 'link.md'));
		await put(join(base, 'config', 'cardterm', 'mine.md'), 'from the user folder');
		await put(join(repo, 'AGENTS.md'), `@../secret.md @link.md @${join(base, 'config', 'cardterm', 'mine.md')} @gone.md @/etc/passwd`);
		const loaded = await loadInstructions(repo, env);
		expect(loaded.files.map(file => file.text)).toEqual([expect.stringContaining('@../secret.md'), 'from the user folder']);
		expect(loaded.notes).toEqual([
			`${join(repo, 'AGENTS.md')} imports @../secret.md, outside the workspace and the user's config folder: not read`,
			`${join(repo, 'AGENTS.md')} imports @link.md, outside the workspace and the user's config folder: not read`,
			`${join(repo, 'AGENTS.md')} imports @gone.md, which does not exist`,
			`${join(repo, 'AGENTS.md')} imports @/etc/passwd, outside the workspace and the user's config folder: not read`,
		]);
	});

	it(`follows a chain of imports ${IMPORT_DEPTH} deep and says where it stopped`, async () => {
		await put(join(repo, 'AGENTS.md'), '@i1.md');
		for (let index = 1; index <= IMPORT_DEPTH + 1; index++) {
			await put(join(repo, `i${index}.md`), `level ${index} @i${index + 1}.md`);
		}

		const loaded = await loadInstructions(repo, env);
		expect(loaded.files).toHaveLength(1 + IMPORT_DEPTH);
		expect(loaded.notes).toEqual([`${join(repo, `i${IMPORT_DEPTH}.md`)} imports @i${IMPORT_DEPTH + 1}.md, deeper than ${IMPORT_DEPTH} imports: not read`]);
	});
});

describe('hostile files', () => {
	it('cuts a file at the limit, and leaves out what passes the total, each with a note', async () => {
		await put(join(repo, 'AGENTS.md'), `${'x'.repeat(FILE_LIMIT)}TAIL`);
		await put(join(repo, 'a', 'AGENTS.md'), 'y'.repeat(FILE_LIMIT));
		await put(join(repo, 'a', 'b', 'AGENTS.md'), 'z'.repeat(10));
		const loaded = await loadInstructions(join(repo, 'a', 'b'), env);
		expect(loaded.files.map(file => [file.text.length, file.cut])).toEqual([[FILE_LIMIT, true], [TOTAL_LIMIT - FILE_LIMIT, false]]);
		expect(loaded.files[0]!.text).not.toContain('TAIL');
		expect(loaded.notes).toEqual([
			`${join(repo, 'AGENTS.md')} was cut at ${FILE_LIMIT} characters`,
			`${join(repo, 'a', 'b', 'AGENTS.md')} was left out: the instruction files reached ${TOTAL_LIMIT} characters`,
		]);
		expect(instructionsReport(loaded, repo)).toContain('(cut)');
	});

	it('never opens a FIFO named AGENTS.md (it would never end), and says why', async () => {
		execFileSync('mkfifo', [join(repo, 'AGENTS.md')]);
		const loaded = await loadInstructions(repo, env);
		expect(loaded.files).toEqual([]);
		expect(loaded.notes).toEqual([`${join(repo, 'AGENTS.md')}: not a regular file: not read`]);
	});

	it('reads a huge file only up to the limit (multi-byte text stays whole)', async () => {
		await put(join(repo, 'AGENTS.md'), 'é'.repeat(FILE_LIMIT * 20));
		const loaded = await loadInstructions(repo, env);
		expect(loaded.files[0]!.text).toBe('é'.repeat(FILE_LIMIT));
		expect(loaded.files[0]!.cut).toBe(true);
	});
});
