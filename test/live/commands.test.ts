/**
The prompt's commands as the live session runs them (one object per command, `src/live/commands/`):
each line goes through the real session core and the command table; a recording driver stands in
for the agent and the tools, so what a line asks for is seen whole — the call it queues, or what it
says. A new command is one object: registered, it is in `/help`, in Tab's completions, and it runs,
in a native session and an ACP agent's alike.
*/
import {mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {Approvals} from '../../src/host/approvals.js';
import {lineText} from '../../src/layout/text/spans.js';
import {acpLiveSession} from '../../src/live/acp-driver.js';
import {BUILTIN_COMMANDS} from '../../src/live/commands/builtin-commands.js';
import type {PromptCommand} from '../../src/live/commands/prompt-command.js';
import {LiveSession} from '../../src/live/live-session.js';
import {nativeLine, plainTextMessage} from '../../src/live/native-lines.js';
import {isProgramOnPath} from '../../src/live/complete.js';
import type {LiveWork, SessionDriver} from '../../src/live/session-driver.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {startHarness} from '../acp/acp-harness.js';
import {until} from './live-session-harness.js';

const tools = new Set(['bash', 'read', 'my_tool']);

/** A native session's core over a driver that records the work it is given (and runs it at once). */
function recordingSession(cwd = '/', commands?: readonly PromptCommand[]): {session: LiveSession; ran: LiveWork[]; said: () => string[]} {
	const ran: LiveWork[] = [];
	const driver: SessionDriver = {
		tools: {names: () => tools, schema: name => (tools.has(name) ? {name, description: `The ${name} tool.`, parameters: {type: 'object', properties: {}}} : undefined)},
		helpNotes: ['the notes'],
		line: line => nativeLine(line, tools, {connected: false}),
		async run(work) {
			ran.push(work);
		},
		status: () => ({}),
		onChange: () => () => true,
		stop: async () => undefined,
		close: async () => undefined,
	};
	const session = new LiveSession({cwd, sessionId: 's', fold: new SessionFold(referencePresenters(cwd)), onFoldChange: () => () => true, approvals: new Approvals(), driver, ...(commands === undefined ? {} : {commands})});
	const written: ScrollbackEntry[] = [];
	session.onScrollback(entry => written.push(entry));
	const said = (): string[] => written.flatMap(entry => entry.kind === 'lines' ? [entry.lines.map(line => lineText(line)).join('\n')] : []);
	return {session, ran, said};
}

/** What `line` does: the one piece of work it queued, else what it said. */
async function lineDoes(line: string, cwd?: string): Promise<LiveWork | string | undefined> {
	const {session, ran, said} = recordingSession(cwd);
	session.submit(line);
	// A command may read a file first: wait for what it does (a fixed wait lost that race under load).
	await until(() => ran.length > 0 || said().length > 0);
	return ran[0] ?? said()[0];
}

describe('the native commands', () => {
	it('turns !command into a bash call whose description is the command (the card does not repeat it)', async () => {
		expect(await lineDoes('!echo hi')).toEqual({kind: 'tool', name: 'bash', args: {command: 'echo hi', description: 'echo hi'}});
		expect(await lineDoes('!  ')).toBe('usage: !<command>');
	});

	it('parses /read with an optional window', async () => {
		expect(await lineDoes('/read README.md')).toEqual({kind: 'tool', name: 'read', args: {file_path: 'README.md'}});
		expect(await lineDoes('/read "a b.txt" 10 5')).toEqual({kind: 'tool', name: 'read', args: {file_path: 'a b.txt', offset: 10, limit: 5}});
		expect(await lineDoes('/read x 0')).toBe('/read: offset must be a positive integer, got 0');
	});

	it('parses /grep with a path and an include glob in any position', async () => {
		expect(await lineDoes('/grep TODO src --include *.ts')).toEqual({kind: 'tool', name: 'grep', args: {pattern: 'TODO', path: 'src', include: '*.ts'}});
		expect(await lineDoes('/grep --include *.md "two words"')).toEqual({kind: 'tool', name: 'grep', args: {pattern: 'two words', include: '*.md'}});
		expect(await lineDoes('/grep')).toBe('usage: /grep PATTERN [PATH] [--include GLOB]');
	});

	it('maps the other slash commands to their tools', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-commands-'));
		await writeFile(join(workspace, 'script.mjs'), 'await tools.read({file_path: "a"});\n');
		expect(await lineDoes('/glob **/*.ts src')).toEqual({kind: 'tool', name: 'glob', args: {pattern: '**/*.ts', path: 'src'}});
		expect(await lineDoes('/fetch https://example.com')).toEqual({kind: 'tool', name: 'web_fetch', args: {url: 'https://example.com'}});
		expect(await lineDoes('/search ink   static output')).toEqual({kind: 'tool', name: 'web_search', args: {queries: ['ink   static output']}});
		expect(await lineDoes('/jobs')).toEqual({kind: 'tool', name: 'job_list', args: {}});
		expect(await lineDoes('/kill bash-1')).toEqual({kind: 'tool', name: 'job_kill', args: {job_id: 'bash-1'}});
		expect(await lineDoes('/run script.mjs', workspace)).toEqual({kind: 'tool', name: 'run_code', args: {code: 'await tools.read({file_path: "a"});\n', description: 'Run script.mjs'}});
		expect(await lineDoes('/run missing.mjs', workspace)).toMatch(/^\/run: cannot read missing\.mjs: ENOENT/);
	});

	it('/write and /edit collect their text before queuing the call', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-commands-'));
		await writeFile(join(workspace, 'a.ts'), 'old\n');
		const {session, ran} = recordingSession(workspace);
		session.submit('/write notes.md');
		await until(() => session.getSnapshot().multiline !== undefined);
		expect(session.getSnapshot().multiline).toEqual({label: 'content of notes.md', lines: 0});
		session.submit('one\ntwo');
		session.submit('.');
		session.submit('/edit a.ts');
		await until(() => session.getSnapshot().multiline !== undefined);
		session.submit('old\n.\nnew\n.');
		await until(() => ran.length === 2);
		expect(ran).toEqual([
			{kind: 'tool', name: 'write', args: {file_path: 'notes.md', content: 'one\ntwo\n'}},
			{kind: 'tool', name: 'edit', args: {file_path: 'a.ts', old_string: 'old\n', new_string: 'new\n'}},
		]);
	});

	it('calls any registered tool with JSON arguments', async () => {
		expect(await lineDoes('my_tool {"a": [1, 2]}')).toEqual({kind: 'tool', name: 'my_tool', args: {a: [1, 2]}, rawArgs: '{"a": [1, 2]}'});
		expect(await lineDoes('my_tool')).toEqual({kind: 'tool', name: 'my_tool', args: {}});
		expect(await lineDoes('my_tool {oops')).toMatch(/^my_tool: arguments are not JSON: /);
		// Words that name no tool are plain text: the model's, when one is connected.
		expect(await lineDoes('nope {}')).toBe(plainTextMessage('nope {}', undefined));
		expect(nativeLine('nope {}', tools, {connected: true})).toEqual({work: {kind: 'prompt', text: 'nope {}'}});
	});

	it('says that plain text was not sent while no model is connected, and how to connect one; a command line without its ! gets the command', () => {
		const programs = new Set(['ls', 'make', 'git', 'test']);
		const isProgram = (name: string): boolean => programs.has(name);
		const connect = () => 'no model: pass --model PROVIDER:MODEL\n/model PROVIDER:MODEL connects one now';
		const said = (line: string): string => {
			const outcome = nativeLine(line, tools, {connected: false, howToConnect: connect}, isProgram);
			return 'say' in outcome ? outcome.say : 'queued';
		};

		// A request is never offered as a shell command, whatever its first word.
		for (const line of ['fix the failing test', 'make the tests pass', 'test the parser please', 'why does ls fail?', 'refactor']) {
			expect(said(line)).toBe(`not sent: no model is connected to answer "${line}"\nno model: pass --model PROVIDER:MODEL\n/model PROVIDER:MODEL connects one now`);
		}

		// A command line the person forgot the ! of.
		for (const line of ['ls -la', 'make', 'git commit -m "fix the bug"', 'test -f a.txt']) {
			expect(said(line)).toBe(`unknown command: ${line.split(' ')[0]} — did you mean !${line}?\ntext that is no command goes to a model, and none is connected (/model says how to connect one)`);
		}

		// With a model, text is the model's.
		expect(nativeLine('fix the failing test', tools, {connected: true}, isProgram)).toEqual({work: {kind: 'prompt', text: 'fix the failing test'}});
		// A session with no agent at all says what its prompt takes.
		expect(plainTextMessage('fix it', undefined, isProgram)).toBe('not sent: no model is connected to answer "fix it"\nthis session has no model: !COMMAND runs a shell command, /help lists the commands');
		expect(isProgramOnPath('sh')).toBe(true);
		expect(isProgramOnPath('cardterm-no-such-program')).toBe(false);
		expect(isProgramOnPath('../sh')).toBe(false);
	});

	it('knows /help TOOL, /tools, /clear, and the bare / as the command list', async () => {
		const help = recordingSession();
		const written: ScrollbackEntry[] = [];
		help.session.onScrollback(entry => written.push(entry));
		help.session.submit('/help bash');
		help.session.submit('/');
		help.session.submit('/tools');
		help.session.submit('/clear');
		const texts = written.map(entry => entry.kind === 'lines' ? entry.lines.map(line => lineText(line)).join('\n') : entry.kind);
		expect(texts[0]).toContain('bash  call it as: bash {json}');
		expect(texts[1]).toMatch(/^Commands\n {2}!<command> +run a shell command \(bash\)\n {2}\/read PATH \[OFFSET \[LIMIT\]\]/u);
		expect(texts[1]).toContain('the notes');
		expect(texts[2]).toMatch(/^Tools \(\/help TOOL shows one in full\)/u);
		expect(texts[3]).toBe('clear');
		expect(await lineDoes('/help a b')).toBe('usage: /help [TOOL]');
		expect(await lineDoes('/help nosuch')).toBe('/help: no tool named nosuch; /tools lists the tools');
		expect(await lineDoes('/help clear')).toBe('/help: no tool named clear (/clear is a command: see /help); /tools lists the tools');
	});

	it('knows exit, empty lines and unknown commands', async () => {
		const {session, said} = recordingSession();
		session.submit('   ');
		expect(said()).toEqual([]);
		expect(await lineDoes('/frobnicate')).toBe('unknown command: /frobnicate (type /help)');
		session.submit('/quit');
		expect(session.getSnapshot().closing).toBe(true);
	});
});

describe('an ACP agent\'s announced commands', () => {
	it('are shown sanitized however hostile their names and descriptions', async () => {
		const harness = await startHarness();
		try {
			const session = acpLiveSession(harness, harness.workspace);
			const written: string[] = [];
			session.onScrollback(entry => {
				if (entry.kind === 'lines') {
					written.push(entry.lines.map(line => line.spans.map(each => each.text).join('')).join('\n'));
				}
			});
			// The hostile turn announces `cmd<escapes>` described with escapes.
			session.submit('hostile');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			session.submit('/help');
			const help = written.at(-1)!;
			expect(help).toContain('/cmd');
			expect(help).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u);
			await session.close();
		} finally {
			await harness.dispose();
		}
	});
});

describe('a new command is one object', () => {
	const shout: PromptCommand = {
		name: '/shout',
		args: 'WORDS',
		help: 'say it louder',
		run(text, context) {
			context.say(text.toUpperCase(), 'info');
		},
	};

	it('in a native session: /help lists it, Tab completes it, and it runs', async () => {
		const {session, said} = recordingSession('/', [...BUILTIN_COMMANDS, shout]);
		expect(await session.complete('/sh', 3)).toEqual(['/shout']);
		session.submit('/help');
		expect(said().at(-1)).toMatch(/ {2}\/shout WORDS +say it louder/u);
		session.submit('/shout hello');
		expect(said().at(-1)).toBe('HELLO');
	});

	it('in an ACP agent\'s session: beside the agent\'s own commands, which go to the agent', async () => {
		const harness = await startHarness();
		try {
			const session = acpLiveSession(harness, harness.workspace, {commands: [...BUILTIN_COMMANDS, shout]});
			const said: string[] = [];
			session.onScrollback(entry => {
				if (entry.kind === 'lines') {
					said.push(entry.lines.map(line => lineText(line)).join('\n'));
				}
			});
			// The agent announces its commands in its first turn.
			session.submit('tour');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(await session.complete('/', 1)).toEqual(['/undo', '/redo', '/rewind', '/pager', '/mode', '/help', '/clear', '/exit', '/shout', '/review', '/test']);
			session.submit('/help');
			const help = said.at(-1)!;
			expect(help).toMatch(/ {2}\/shout WORDS +say it louder/u);
			expect(help).toMatch(/ {2}\/review +Review the changes/u);
			expect(help).toMatch(/ {2}\/test \[filter\] +Run the tests/u);
			// The tools' commands are the native session's: an agent has its own.
			expect(help).not.toContain('/read');
			// The session's own commands are the session's: /pager asks the screen, the agent hears nothing.
			let pagers = 0;
			session.onOpenPager(() => {
				pagers++;
			});
			session.submit('/pager');
			expect(pagers).toBe(1);
			session.submit('/shout acp');
			expect(said.at(-1)).toBe('ACP');
			session.submit('/review now');
			await until(() => harness.session.fold.entries.filter(entry => entry.entry === 'turn').length === 2);
			expect(harness.session.fold.entries.flatMap(entry => entry.entry === 'user' ? [entry.text] : [])).toEqual(['tour', '/review now']);
			await session.close();
		} finally {
			await harness.dispose();
		}
	});
});
