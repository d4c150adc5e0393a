/**
The commands a person writes (issue 31): Markdown files in `.cardterm/commands/` and the user's
commands folder, Claude Code's format (front matter, `$ARGUMENTS`, `$1`…), a subfolder as a
namespace, the project's winning over the user's, the built-in table winning over both, and files
that cannot be commands named, not read.
*/
import {execFileSync} from 'node:child_process';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadUserCommands, parseCommandFile} from '../../src/host/user-commands.js';
import {BUILTIN_COMMANDS} from '../../src/live/commands/builtin-commands.js';
import {expandCommand, userCommandPrompt, withUserCommands} from '../../src/live/commands/user-command.js';
import {bodyPieces, fillPieces, INLINE_OUTPUT_LIMIT, inlineOutput} from '../../src/live/commands/inline-shell.js';

let base = '';
let env: NodeJS.ProcessEnv = {};
const project = (): string => join(base, 'work', '.cardterm', 'commands');
const user = (): string => join(base, 'config', 'cardterm', 'commands');

async function put(path: string, text: string): Promise<void> {
	await mkdir(dirname(path), {recursive: true});
	await writeFile(path, text);
}

beforeEach(async () => {
	base = await mkdtemp(join(tmpdir(), 'cardterm-user-commands-'));
	env = {XDG_CONFIG_HOME: join(base, 'config')};
});
afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

describe('command files', () => {
	it('reads front matter as Claude Code writes it, and a file without any as all body', () => {
		expect(parseCommandFile('---\ndescription: "Review a file"\nargument-hint: [file] [focus]\nallowed-tools: Read\n---\nReview $1 for $2.\n')).toEqual({description: 'Review a file', argumentHint: '[file] [focus]', body: 'Review $1 for $2.'});
		expect(parseCommandFile('Just a prompt.\n')).toEqual({body: 'Just a prompt.'});
		expect(parseCommandFile('---\r\ndescription: crlf\r\n---\r\nbody\r\n')).toEqual({description: 'crlf', body: 'body'});
	});

	it('fills $ARGUMENTS and $1… (quotes group words), and appends arguments a body does not place', () => {
		expect(expandCommand('Fix issue $ARGUMENTS now', '#12 fast')).toBe('Fix issue #12 fast now');
		expect(expandCommand('Review $1 for $2; $3.', '"src/a b.ts" security')).toBe('Review src/a b.ts for security; .');
		expect(expandCommand('Summarise the repo.', 'briefly')).toBe('Summarise the repo.\n\nARGUMENTS: briefly');
		expect(expandCommand('Summarise the repo.', '')).toBe('Summarise the repo.');
		// A "$&" in the arguments is text, not a replacement pattern.
		expect(expandCommand('say $ARGUMENTS', '$& $1')).toBe('say $& $1');
	});

	it('loads project and user commands, namespaces from folders, the project winning a shared name', async () => {
		await put(join(project(), 'review.md'), '---\ndescription: Review\n---\nproject review $ARGUMENTS');
		await put(join(project(), 'git', 'commit.md'), 'commit it');
		await put(join(user(), 'review.md'), 'user review');
		await put(join(user(), 'standup.md'), 'What did I do yesterday?');
		await put(join(user(), 'notes.txt'), 'not a command');
		const loaded = await loadUserCommands(join(base, 'work'), env);
		expect(loaded.commands.map(command => [command.name, command.scope, command.body])).toEqual([
			['/git:commit', 'project', 'commit it'],
			['/review', 'project', 'project review $ARGUMENTS'],
			['/standup', 'user', 'What did I do yesterday?'],
		]);
		expect(loaded.notes).toEqual([]);
		expect(userCommandPrompt('/review src/app.ts', loaded.commands)).toBe('project review src/app.ts');
		expect(userCommandPrompt('/reviewer x', loaded.commands)).toBeUndefined();
	});

	it('names files it cannot take: a bad name, a FIFO; the built-in table keeps its names', async () => {
		await put(join(project(), 'bad name.md'), 'x');
		await put(join(project(), 'help.md'), 'my help');
		await put(join(project(), 'ok.md'), 'fine');
		execFileSync('mkfifo', [join(project(), 'pipe.md')]);
		const loaded = await loadUserCommands(join(base, 'work'), env);
		expect(loaded.commands.map(command => command.name)).toEqual(['/help', '/ok']);
		expect(loaded.notes).toEqual([
			`${join(project(), 'bad name.md')}: a command's name is letters, digits, "-", "_" and "."; not read`,
			`${join(project(), 'pipe.md')}: not a regular file: not read`,
		]);
		const table = withUserCommands(BUILTIN_COMMANDS, loaded.commands);
		expect(table.filter(command => command.name === '/help')).toHaveLength(1);
		expect(table.at(-1)).toMatchObject({name: '/ok', help: 'fine (.cardterm/commands)'});
	});
});

describe('shell commands in a command file\'s body', () => {
	it('are cut out in Claude Code\'s and Gemini CLI\'s forms; an unclosed or empty one stays text', () => {
		expect(bodyPieces('a !`git status` b !{echo {x}} c')).toEqual([{text: 'a '}, {shell: 'git status'}, {text: ' b '}, {shell: 'echo {x}'}, {text: ' c'}]);
		for (const text of ['Wow! `code`', 'open !` never closed', 'open !{ never {closed}', 'empty !`` here', 'empty !{} here']) {
			expect(bodyPieces(text)).toEqual([{text}]);
		}
	});

	it('quote the arguments inside a command, as one shell word each', () => {
		expect(fillPieces([{shell: 'grep $1 $ARGUMENTS'}, {text: ' for $1'}], '"it\'s" b')).toEqual({pieces: [{shell: 'grep \'it\'\\\'\'s\' \'it\'\\\'\'s\' \'b\''}, {text: ' for it\'s'}], used: true});
		expect(inlineOutput(`${'x'.repeat(INLINE_OUTPUT_LIMIT + 5)}\n`)).toBe(`${'x'.repeat(INLINE_OUTPUT_LIMIT)}\n[… 5 more characters cut]`);
	});

	it('make -p refuse the command, naming it: -p runs none before its prompt', () => {
		const file = {name: '/st', body: 'now: !`date`', path: '/p/st.md', scope: 'project' as const};
		expect(() => userCommandPrompt('/st', [file])).toThrow('/st runs shell commands (!`…` in /p/st.md), which -p does not run');
	});
});
