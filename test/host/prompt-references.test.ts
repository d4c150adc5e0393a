/**
`@` references (issue 31): which `@`s are references, and what each attaches — a file as the read
tool reads it (its window and envelope, a line range), a folder as its listing by the search tools'
ignore rule, and every case that attaches nothing said in the reference's facts.
*/
import {mkdir, mkdtemp, realpath, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {createRequire} from 'node:module';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {openSession} from '../../src/host/open-session.js';
import {PathIndex} from '../../src/host/path-index.js';
import {attachReferences, FOLDER_ENTRIES, MAX_REFERENCES, mcpReferences, parseReferences} from '../../src/host/prompt-references.js';
import {userMessageFields} from '../../src/session/events/user-prompt.js';

let base = '';
let work = '';

beforeAll(async () => {
	base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-refs-')));
	work = path.join(base, 'work');
	await mkdir(path.join(work, 'src', 'deep'), {recursive: true});
	await mkdir(path.join(work, 'many'), {recursive: true});
	await mkdir(path.join(work, 'src', 'node_modules', 'x'), {recursive: true});
	await writeFile(path.join(work, '.gitignore'), 'node_modules/\n');
	await writeFile(path.join(work, 'src', 'app.ts'), Array.from({length: 100}, (_, index) => `line ${index + 1}`).join('\n'));
	await writeFile(path.join(work, 'src', 'deep', 'b.ts'), 'export const b = 1;\n');
	await writeFile(path.join(work, 'src', '.hidden'), 'secret\n');
	await writeFile(path.join(work, 'src', 'node_modules', 'x', 'index.js'), 'ignored\n');
	await writeFile(path.join(work, 'with space.md'), 'spaced\n');
	await writeFile(path.join(work, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
	await writeFile(path.join(base, 'outside.txt'), 'outside\n');
	await symlink(path.join(base, 'outside.txt'), path.join(work, 'escape.txt'));
	await Promise.all(Array.from({length: FOLDER_ENTRIES + 5}, async (_, index) => writeFile(path.join(work, 'many', `f${index}.txt`), '')));
});

afterAll(async () => {
	await rm(base, {recursive: true, force: true});
});

describe('which @ is a reference', () => {
	it('takes @path, @path:40-80, @path:12 and @"path with spaces", and drops a sentence\'s punctuation', () => {
		const tokens = parseReferences('see @src/app.ts:40-80, then @README.md. Also (@"with space.md":3) and @a/b:12');
		expect(tokens.map(token => [token.path, token.range])).toEqual([
			['src/app.ts', {start: 40, end: 80}],
			['README.md', undefined],
			['with space.md', {start: 3}],
			['a/b', {start: 12}],
		]);
		expect(tokens.map(token => token.token)).toEqual(['src/app.ts:40-80', 'README.md', 'with space.md:3', 'a/b:12']);
	});

	it('an e-mail address, an @ inside a word, a lone @, @@ and code spans are no references', () => {
		expect(parseReferences('mail me@example.com or a@b, pay 5@ each, say @ alone, @@twice, `@Decorator` and\n```\n@Override\n```')).toEqual([]);
	});
});

describe('what a reference attaches', () => {
	it('a file as the read tool reads it, a range as that window; the facts say lines, bytes and tokens', async () => {
		const prompt = await attachReferences('explain @src/app.ts:40-42 and @src/deep/b.ts', {cwd: work});
		expect(prompt.references).toHaveLength(2);
		const [ranged, whole] = prompt.references;
		expect(ranged).toMatchObject({token: 'src/app.ts:40-42', kind: 'file', attached: {lines: 3, range: {start: 40, end: 42}}});
		expect(whole).toMatchObject({token: 'src/deep/b.ts', kind: 'file', attached: {lines: 1}});
		const text = prompt.attachments[0]!.text;
		expect(text).toBe(`<path>${path.join(work, 'src', 'app.ts')}</path>\n<type>file</type>\n<content>\n40: line 40\n41: line 41\n42: line 42\n\n(Showing lines 40-42 of 100. Use offset=43 to continue.)\n</content>`);
		expect(ranged!.attached!.bytes).toBe(Buffer.byteLength(text));
		expect(ranged!.attached!.tokens).toBeGreaterThan(0);
		expect(prompt.attachments.map(attachment => attachment.reference)).toEqual([0, 1]);
		expect(prompt.attachments[0]!.uri).toBe(`file://${path.join(work, 'src', 'app.ts')}`);
		// The model's message: the person's text, then each attachment marked as its reference's.
		const {content} = userMessageFields(prompt);
		expect(content[0]).toEqual({type: 'text', text: 'explain @src/app.ts:40-42 and @src/deep/b.ts'});
		expect(content.slice(1).map(block => block.reference)).toEqual([0, 1]);
	});

	it('a folder as its listing: ignored and hidden entries left out, a long one cut and said so', async () => {
		const prompt = await attachReferences('look at @src and @many/', {cwd: work});
		const [src, many] = prompt.references;
		expect(src).toMatchObject({kind: 'folder', attached: {lines: 2}});
		expect(prompt.attachments[0]!.text).toContain('\napp.ts\ndeep/b.ts\n\n(2 files; ignored and hidden ones are not listed.)');
		expect(prompt.attachments[0]!.text).not.toMatch(/\.hidden|node_modules/u);
		expect(many).toMatchObject({kind: 'folder', attached: {lines: FOLDER_ENTRIES, cut: `listing cut at ${FOLDER_ENTRIES} files`}});
	});

	it('names what it cannot attach, and the message goes all the same', async () => {
		const prompt = await attachReferences('@missing.ts @../outside.txt @escape.txt @image.bin @src/app.ts:90-80 @src/app.ts:200 @src:3 @/etc/hostname', {cwd: work});
		expect(prompt.text).toBe('@missing.ts @../outside.txt @escape.txt @image.bin @src/app.ts:90-80 @src/app.ts:200 @src:3 @/etc/hostname');
		expect(prompt.attachments).toEqual([]);
		expect(prompt.references.map(reference => reference.refused)).toEqual([
			'not found',
			'outside the workspace',
			'outside the workspace',
			'binary file',
			'no lines 90-80',
			'offset 200 is out of range (100 lines)',
			'a folder has no lines',
			'outside the workspace',
		]);
	});

	it('attaches at most MAX_REFERENCES; the rest are named', async () => {
		const prompt = await attachReferences(Array.from({length: MAX_REFERENCES + 2}, () => '@src/deep/b.ts').join(' '), {cwd: work});
		expect(prompt.attachments).toHaveLength(MAX_REFERENCES);
		expect(prompt.references.at(-1)!.refused).toBe(`more than ${MAX_REFERENCES} references in one message`);
	});

	it('a huge file attaches the read\'s window, a giant line its first 2 000 characters; the row says what was left out', async () => {
		await writeFile(path.join(work, 'huge.txt'), 'x\n'.repeat(200_000));
		await writeFile(path.join(work, 'one-line.txt'), 'y'.repeat(5_000_000));
		const prompt = await attachReferences('@huge.txt @one-line.txt @huge.txt:199990-200000', {cwd: work});
		expect(prompt.references[0]).toMatchObject({attached: {lines: 2000, cut: 'lines 2001-200000 left out (a read\'s bound)'}});
		expect(prompt.references[1]).toMatchObject({attached: {lines: 1}});
		expect(prompt.attachments[1]!.text).toContain('... (line truncated to 2000 chars)');
		expect(prompt.references[2]).toMatchObject({attached: {lines: 11, range: {start: 199_990, end: 200_000}}});
		expect(prompt.attachments.every(attachment => Buffer.byteLength(attachment.text) < 60 * 1024)).toBe(true);
	});

	it('an aborted turn stops attaching', async () => {
		const abort = new AbortController();
		abort.abort();
		await expect(attachReferences('@src/app.ts', {cwd: work, signal: abort.signal})).rejects.toThrow();
	});

	it('a path with spaces, quoted', async () => {
		const prompt = await attachReferences('read @"with space.md"', {cwd: work});
		expect(prompt.references[0]).toMatchObject({token: 'with space.md', kind: 'file', attached: {lines: 1}});
	});
});

describe('MCP resources (@server:uri)', () => {
	const require = createRequire(import.meta.url);
	const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

	it('a ready server\'s resources are listed for the picker, and @server:uri attaches one\'s text; a bad one is named', async () => {
		const {entries} = readMcpServers({everything: {command: process.execPath, args: [everything, 'stdio'], allow: true}}, 'test config', false);
		const session = await openSession({cwd: work, mcp: {servers: entries, env: process.env, ask: true}});
		try {
			await session.mcp!.settled();
			const listed = await session.mcp!.resources();
			expect(listed).toContainEqual({server: 'everything', uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', mimeType: 'text/markdown'});
			const prompt = await attachReferences('see @everything:demo://resource/static/document/architecture.md and @everything:demo://nothing/here', {cwd: work, resources: mcpReferences(session.mcp!)});
			expect(prompt.references[0]).toMatchObject({token: 'everything:demo://resource/static/document/architecture.md', kind: 'resource', attached: {lines: expect.any(Number) as unknown}});
			expect(prompt.attachments[0]!.text).toMatch(/^<path>everything:demo:\/\/resource\/static\/document\/architecture\.md<\/path>\n<type>resource<\/type>\n<content>\n# Everything Server/u);
			expect(prompt.attachments[0]!.uri).toBe('demo://resource/static/document/architecture.md');
			expect(prompt.references[1]).toMatchObject({token: 'everything:demo://nothing/here', kind: 'resource'});
			expect(prompt.references[1]!.refused).toBeTruthy();
			// A word before a colon that names no server is a path as before.
			expect((await attachReferences('@nosuch:thing', {cwd: work, resources: mcpReferences(session.mcp!)})).references[0]).toEqual({token: 'nosuch:thing', refused: 'not found'});

			// The picker ranks them with the workspace's files.
			const index = new PathIndex(work);
			await index.start();
			index.add(listed.map(resource => `${resource.server}:${resource.uri}`));
			expect(index.find('archmd', 3).picks[0]!.path).toBe('everything:demo://resource/static/document/architecture.md');
			index.close();
		} finally {
			await session.close();
		}
	}, 30_000);
});
