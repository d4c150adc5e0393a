/**
The approval rules judge the path a tool will touch (every link resolved, as the tools resolve it),
name every rule that matched, and ask for Code Mode sub-calls as for calls.
*/
import {mkdir, mkdtemp, realpath, rm, symlink} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {realpathDeep} from '../../src/builtin/workspace/workspace-guard.js';
import {approvalPolicy, ruleQuestion, type RuleQuestion} from '../../src/config/approval-rules.js';
import type {ToolExecution} from '../../src/tools/types.js';

const rules = [{tool: 'bash'}, {tool: ['write', 'edit'], outside: 'src/'}];
const lexical = {cwd: '/p', realPath: async (path: string) => path};

async function reason(name: string, args: unknown, context = lexical): Promise<string | undefined> {
	return (await ruleQuestion(rules, name, args, context))?.reason;
}

describe('ruleQuestion', () => {
	it('asks before every call of a tool named without a directory', async () => {
		expect(await reason('bash', {command: 'ls'})).toBe('the config asks before bash');
	});

	it('asks before a write outside the named directory only', async () => {
		expect(await reason('write', {file_path: 'src/a.ts'})).toBeUndefined();
		expect(await reason('write', {file_path: 'README.md'})).toBe('the config asks before write outside src/');
		expect(await reason('edit', {file_path: '/p/src/../x.ts'})).toBe('the config asks before edit outside src/');
	});

	it('leaves other tools alone', async () => {
		expect(await reason('read', {file_path: '/etc/passwd'})).toBeUndefined();
	});

	it('names every rule that matched, and asks every time when one of them says so', async () => {
		const both = [{tool: 'write', by: 'the agent session'}, {tool: 'write', inside: '.git/', everyTime: true, by: 'cardterm'}];
		expect(await ruleQuestion(both, 'write', {file_path: 'a.txt'}, lexical)).toEqual({reason: 'the agent session asks before write', everyTime: false});
		expect(await ruleQuestion(both, 'write', {file_path: '.git/hooks/pre-commit'}, lexical)).toEqual({
			reason: 'the agent session asks before write; cardterm asks every time before write inside .git/',
			everyTime: true,
		});
		// A rule without a folder after one with a folder still asks.
		expect(await ruleQuestion([{tool: 'write', outside: 'src/'}, {tool: 'write', by: 'the agent session'}], 'write', {file_path: 'src/a.ts'}, lexical)).toEqual({reason: 'the agent session asks before write', everyTime: false});
	});
});

describe('links: the rules judge the resolved path (attacker 5)', () => {
	let workspace = '';
	let outside = '';
	beforeAll(async () => {
		const base = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-rules-')));
		workspace = join(base, 'project');
		outside = join(base, 'elsewhere');
		await mkdir(join(workspace, 'src'), {recursive: true});
		await mkdir(outside);
		// A link inside src/ to a folder outside it, and a link to a file that does not exist yet.
		await symlink(outside, join(workspace, 'src', 'vendor'));
		await symlink(join(outside, 'later.txt'), join(workspace, 'src', 'dangling.txt'));
		await symlink(join(workspace, '.git'), join(workspace, 'src', 'git'));
	});

	afterAll(async () => {
		await rm(join(workspace, '..'), {recursive: true, force: true});
	});

	const context = () => ({cwd: workspace, realPath: realpathDeep});

	it('a write through a link inside src/ that leads outside asks, and says where it leads', async () => {
		expect(await reason('write', {file_path: 'src/vendor/x.ts'}, context())).toBe(`the config asks before write outside src/ (src/vendor/x.ts resolves to ${join(outside, 'x.ts')})`);
		expect(await reason('edit', {file_path: 'src/dangling.txt'}, context())).toBe(`the config asks before edit outside src/ (src/dangling.txt resolves to ${join(outside, 'later.txt')})`);
		expect(await reason('write', {file_path: 'src/real.ts'}, context())).toBeUndefined();
	});

	it('a link into .git/ is inside .git/', async () => {
		const git = [{tool: 'write', inside: '.git/', everyTime: true, by: 'cardterm'}];
		expect(await ruleQuestion(git, 'write', {file_path: 'src/git/hooks/pre-commit'}, context())).toEqual({reason: 'cardterm asks every time before write inside .git/ (src/git/hooks/pre-commit resolves to .git/hooks/pre-commit)', everyTime: true});
	});
});

describe('approvalPolicy', () => {
	const execution = (name: string, args: unknown, parent?: symbol): Readonly<ToolExecution> => ({callId: `${name}-1`, name, arguments: args, ...(parent === undefined ? {} : {parent})}) as unknown as ToolExecution;

	it('asks for a Code Mode sub-call as for a call, and tells the session what it asks', async () => {
		const noted: Array<[string, RuleQuestion]> = [];
		const policy = approvalPolicy(rules, {...lexical, asking: (callId, question) => noted.push([callId, question])});
		const allow = async () => ({kind: 'allow' as const});
		expect(await policy(execution('write', {file_path: 'README.md'}, Symbol('run_code')), allow)).toEqual({kind: 'ask', reason: 'the config asks before write outside src/'});
		expect(await policy(execution('write', {file_path: 'src/a.ts'}, Symbol('run_code')), allow)).toEqual({kind: 'allow'});
		expect(noted).toEqual([['write-1', {reason: 'the config asks before write outside src/', everyTime: false}]]);
	});
});
