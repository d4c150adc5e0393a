/**
The configuration module: where the files are, what a broken one says (the file, the key, what was
expected), what an unknown key does (a warning, so a newer config still loads), how the files merge,
and that a file cannot hang or flood the reader (a FIFO, a device, an endless or huge file).
*/
import {execFileSync} from 'node:child_process';
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ConfigError} from '../../src/config/config-error.js';
import {loadConfig} from '../../src/config/load-config.js';
import {CONFIG_FILE_BOUND} from '../../src/config/read-config-text.js';

let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
	home = await mkdtemp(join(tmpdir(), 'cardterm-config-home-'));
	project = await mkdtemp(join(tmpdir(), 'cardterm-config-project-'));
	env = {XDG_CONFIG_HOME: home};
});
afterEach(async () => {
	await rm(home, {recursive: true, force: true});
	await rm(project, {recursive: true, force: true});
});

const userFile = (): string => join(home, 'cardterm', 'config.json');
const projectFile = (): string => join(project, '.cardterm', 'config.json');

async function write(path: string, value: unknown): Promise<void> {
	await mkdir(join(path, '..'), {recursive: true});
	await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
}

/** The error `loadConfig` throws, as the command line prints it. */
async function failure(): Promise<string> {
	const error: unknown = await loadConfig(project, env).then(() => undefined, (thrown: unknown) => thrown);
	expect(error).toBeInstanceOf(ConfigError);
	expect((error as ConfigError).exitCode).toBe(2);
	return (error as Error).message;
}

describe('config files', () => {
	it('no file at all is no config', async () => {
		const config = await loadConfig(project, env);
		expect(config.layers).toEqual([]);
		expect(config.approval.ask).toEqual([]);
		expect(config.warnings).toEqual([]);
	});

	it('reads the user\'s file and the project\'s, lowest first; CARDTERM_CONFIG takes the project\'s place and must exist', async () => {
		await write(userFile(), {model: 'openai:gpt-4.1'});
		await write(projectFile(), {agent: {maxSteps: 20}});
		const both = await loadConfig(project, env);
		expect(both.layers.map(layer => [layer.role, layer.path])).toEqual([['user', userFile()], ['project', projectFile()]]);
		const named = join(project, 'elsewhere.json');
		await write(named, {agent: {maxSteps: 30}});
		const instead = await loadConfig(project, {...env, CARDTERM_CONFIG: named});
		expect(instead.layers.map(layer => [layer.role, layer.path])).toEqual([['user', userFile()], ['named', named]]);
		expect(instead.agent.maxSteps).toBe(30);
		env = {...env, CARDTERM_CONFIG: join(project, 'missing.json')};
		expect(await failure()).toBe(`config ${join(project, 'missing.json')}: no such file (named by CARDTERM_CONFIG)`);
	});

	it('merges: the project\'s limits over the user\'s, and every file\'s approval rules add up (a file cannot take one away)', async () => {
		await write(userFile(), {agent: {maxSteps: 100, stallTimeoutMs: 30_000}, approval: {ask: [{tool: 'bash'}]}});
		await write(projectFile(), {agent: {maxSteps: 20}, approval: {ask: [{tool: ['write', 'edit'], outside: 'src/'}]}});
		const config = await loadConfig(project, env);
		expect(config.agent).toEqual({maxSteps: 20, stallTimeoutMs: 30_000});
		expect(config.approval.ask).toEqual([{tool: 'bash'}, {tool: ['write', 'edit'], outside: 'src/'}]);
	});

	it('a rule from a file cannot say who asks (only cardterm\'s own rules do)', async () => {
		await write(projectFile(), {approval: {ask: [{tool: 'bash', by: 'your administrator'}]}});
		const config = await loadConfig(project, env);
		expect(config.approval.ask).toEqual([{tool: 'bash'}]);
		expect(config.warnings).toEqual([`config ${projectFile()}: unknown key "approval.ask[0].by" ignored (a newer cardterm's setting, or a typo?)`]);
	});

	it('an unknown key is a warning naming the file and the key, at any depth; the rest still loads', async () => {
		await write(projectFile(), {telemetry: {fs: {command: 'x'}}, agent: {maxStep: 3, maxSteps: 4}, providers: {anthropic: {baseUrl: 'https://gw.example/anthropic', apiKey: 'k'}}, $schema: 'https://example/schema.json'});
		const config = await loadConfig(project, env);
		expect(config.agent.maxSteps).toBe(4);
		expect(config.warnings.map(warning => warning.replace(`config ${projectFile()}: `, ''))).toEqual([
			'unknown key "telemetry" ignored (a newer cardterm\'s setting, or a typo?)',
			'unknown key "agent.maxStep" ignored (a newer cardterm\'s setting, or a typo?)',
			'unknown key "providers.anthropic.apiKey" ignored (a newer cardterm\'s setting, or a typo?)',
		]);
	});

	it('many unknown keys are named up to ten, then counted', async () => {
		await write(projectFile(), Object.fromEntries(Array.from({length: 5000}, (_, index) => [`k${index}`, index])));
		const {warnings} = await loadConfig(project, env);
		expect(warnings).toHaveLength(11);
		expect(warnings.at(-1)).toBe(`config ${projectFile()}: 4990 more unknown keys ignored`);
	});

	it('a known key of the wrong kind is an error naming the file, the key and what was expected', async () => {
		const cases: Array<[unknown, string]> = [
			[[], 'must be a JSON object ({…})'],
			[{model: 5}, '"model" must be a string'],
			[{model: ' '}, '"model" must be a non-empty string (PROVIDER:MODEL)'],
			[{model: 'm', baseUrl: 'ftp://x'}, '"baseUrl" must be an http(s) URL such as http://127.0.0.1:8080/v1 (got "ftp://x")'],
			[{providers: {anthropic: 'https://x'}}, '"providers.anthropic" must be an object'],
			[{providers: {openai: {baseUrl: 'not a url'}}}, '"providers.openai.baseUrl" must be an http(s) URL such as http://127.0.0.1:8080/v1 (got "not a url")'],
			[{agent: {maxSteps: '10'}}, '"agent.maxSteps" must be an integer'],
			[{agent: {maxSteps: 2.5}}, '"agent.maxSteps" must be an integer'],
			[{agent: {stallTimeoutMs: 0}}, '"agent.stallTimeoutMs" must be a positive integer of at most 2147483647 (got 0)'],
			[{agent: {stallTimeoutMs: 1e12}}, '"agent.stallTimeoutMs" must be a positive integer of at most 2147483647 (got 1000000000000)'],
			[{approval: {ask: {tool: 'bash'}}}, '"approval.ask" must be an array'],
			[{approval: {ask: [{}]}}, 'missing required property "approval.ask[0].tool"'],
			[{approval: {ask: [{tool: []}]}}, '"approval.ask[0].tool" must be a tool name or a non-empty array of tool names'],
			[{approval: {ask: [{tool: 'write', outside: 3}]}}, '"approval.ask[0].outside" must be a string'],
			[{allowedEndpoints: 'http://x'}, '"allowedEndpoints" must be an array'],
		];
		for (const [value, message] of cases) {
			// one file at a time
			await write(projectFile(), value);
			expect(await failure(), JSON.stringify(value)).toBe(`config ${projectFile()}: ${message}`);
		}
	});

	it('several problems are listed one per line', async () => {
		await write(userFile(), {model: 1, agent: {maxSteps: false}});
		expect(await failure()).toBe(`config ${userFile()}: \n  "model" must be a string\n  "agent.maxSteps" must be an integer`);
	});

	it('a file of 100 000 wrong values lists ten of them and counts the rest', async () => {
		await write(projectFile(), {allowedEndpoints: Array.from({length: 100_000}, () => 'x')});
		const message = await failure();
		expect(message.split('\n')).toHaveLength(12);
		expect(message.endsWith('\n  and 99990 more')).toBe(true);
	});

	it('is strict JSON: a comment is an error with its line and column', async () => {
		await write(projectFile(), '{\n  "model": "m", // mine\n}');
		expect(await failure()).toMatch(new RegExp(`^config ${projectFile().replaceAll('.', '\\.')} is not JSON \\(comments are not allowed\\): .*line 2 column 17`, 'u'));
	});

	it('accepts a byte-order mark', async () => {
		await write(projectFile(), '\uFEFF{"agent": {"maxSteps": 7}}');
		expect((await loadConfig(project, env)).agent.maxSteps).toBe(7);
	});

	it('a project\'s file cannot allow servers; the user\'s can', async () => {
		await write(userFile(), {allowedEndpoints: ['https://gw.example/v1']});
		await write(projectFile(), {allowedEndpoints: ['http://evil.example/v1']});
		const config = await loadConfig(project, env);
		expect(config.allowedEndpoints).toEqual(['https://gw.example/v1']);
		expect(config.warnings).toEqual([`config ${projectFile()}: "allowedEndpoints" ignored: only your user config can allow servers, a project's cannot allow its own`]);
	});
});

describe('a config file that is not a small regular file', () => {
	it('a FIFO is refused at once, naming it (no writer: reading would wait forever)', async () => {
		await mkdir(join(project, '.cardterm'));
		execFileSync('mkfifo', [projectFile()]);
		expect(await failure()).toBe(`config ${projectFile()}: not a regular file (a FIFO); a config is a JSON file`);
	});

	it('a device is refused, also through a link (CARDTERM_CONFIG=/dev/urandom)', async () => {
		env = {...env, CARDTERM_CONFIG: '/dev/urandom'};
		expect(await failure()).toBe('config /dev/urandom: not a regular file (a device); a config is a JSON file');
		await mkdir(join(project, '.cardterm'));
		await symlink('/dev/zero', projectFile());
		env = {XDG_CONFIG_HOME: home};
		expect(await failure()).toBe(`config ${projectFile()}: not a regular file (a device); a config is a JSON file`);
	});

	it('a folder where the file should be is named', async () => {
		await mkdir(projectFile(), {recursive: true});
		expect(await failure()).toBe(`config ${projectFile()}: not a regular file (a directory); a config is a JSON file`);
	});

	it('a file past the bound is refused, naming the bound; one at the bound is read', async () => {
		const padded = (size: number): string => `{"model": "m", "x": "${'a'.repeat(size - 23)}"}`;
		expect(padded(CONFIG_FILE_BOUND)).toHaveLength(CONFIG_FILE_BOUND);
		await write(projectFile(), padded(CONFIG_FILE_BOUND));
		expect((await loadConfig(project, env)).layers).toHaveLength(1);
		await write(projectFile(), padded(CONFIG_FILE_BOUND + 1));
		expect(await failure()).toBe(`config ${projectFile()}: larger than 1 MiB, the bound for a config file`);
	});

	it('text that is not UTF-8, and JSON nested past any config\'s shape, are named', async () => {
		await mkdir(join(project, '.cardterm'));
		await writeFile(projectFile(), Buffer.from([0x7B, 0xFF, 0x7D]));
		expect(await failure()).toBe(`config ${projectFile()}: not UTF-8 text`);
		await write(projectFile(), `{"x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
		expect(await failure()).toBe(`config ${projectFile()}: nests deeper than 64 levels; a config is a small JSON object`);
	});

	it.skipIf(process.getuid?.() === 0)('a file that cannot be opened is named with the reason (skipped as root, who can open any file)', async () => {
		await write(projectFile(), '{}');
		execFileSync('chmod', ['000', projectFile()]);
		expect(await failure()).toMatch(new RegExp(`^config ${projectFile().replaceAll('.', '\\.')}: cannot open it: EACCES`, 'u'));
	});
});

describe('secret variables in the config', () => {
	it('adds up every file\'s secrets; only the person\'s own files pass keys to commands, a project\'s passthrough is ignored with a warning', async () => {
		await write(userFile(), {env: {passthrough: ['OPENAI_API_KEY'], secrets: ['GITHUB_TOKEN']}});
		await write(projectFile(), {env: {passthrough: ['ANTHROPIC_API_KEY'], secrets: ['NPM_TOKEN']}});
		const config = await loadConfig(project, env);
		expect(config.env).toEqual({passthrough: ['OPENAI_API_KEY'], secrets: ['GITHUB_TOKEN', 'NPM_TOKEN']});
		expect(config.warnings).toEqual([`config ${projectFile()}: "env.passthrough" ignored: only your user config can pass your keys to commands, a project's cannot`]);
	});

	it('lets confined commands reach the network only from the user\'s config (a project\'s sandbox.network is ignored, named)', async () => {
		await write(projectFile(), {sandbox: {network: true}});
		const fromProject = await loadConfig(project, env);
		expect(fromProject.commandNetwork).toBeUndefined();
		expect(fromProject.warnings).toEqual([`config ${projectFile()}: "sandbox.network" ignored: only your user config can let confined commands reach the network, a project's cannot`]);
		await write(userFile(), {sandbox: {network: true}});
		expect((await loadConfig(project, env)).commandNetwork).toBe(true);
		await write(userFile(), {sandbox: {network: 'yes'}});
		expect(await failure()).toContain('"sandbox.network"');
	});

	it('names an entry that is no variable\'s name, or not a list of strings', async () => {
		await write(userFile(), {env: {secrets: ['OK', 'not ok']}});
		expect(await failure()).toContain('"env.secrets[1]" must be an environment variable\'s name such as GITHUB_TOKEN (got "not ok")');
		await write(userFile(), {env: {passthrough: 'OPENAI_API_KEY'}});
		expect(await failure()).toContain('"env.passthrough" must be an array');
	});
});
