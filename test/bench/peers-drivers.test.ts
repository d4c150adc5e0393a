import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, afterEach, describe, expect, it} from 'vitest';

type Driver = {
	name: string;
	configure: (options: {home: string; baseUrl: string; model: string; workFolders: string[]}) => Record<string, string>;
	install: (options: {cache: string; refresh: boolean}) => {command: string[]; version: string};
	launchArgs: (options: {model: string; baseUrl: string}) => string[];
	resumeArgs: (options: {model: string; baseUrl: string}) => string[];
};

const folder = join(import.meta.dirname, '../../bench/peers/drivers');
const load = async (name: string): Promise<Driver> => ((await import(pathToFileURL(join(folder, name)).href)) as {default: Driver}).default;
const scratch = mkdtempSync(join(tmpdir(), 'cardterm-peers-drivers-'));
const baseUrl = 'http://127.0.0.1:4321';
const work = ['/w/warmup', '/w/work-20'];

afterAll(() => {
	rmSync(scratch, {recursive: true, force: true});
});

const home = (name: string) => {
	const path = join(scratch, name);
	mkdirSync(path, {recursive: true});
	return path;
};

describe('peer drivers write their documented custom-provider config', () => {
	it('pi: a models.json provider with baseUrl and the openai-completions api, offline start-up', async () => {
		const pi = await load('pi.mjs');
		const at = home('pi');
		expect(pi.configure({home: at, baseUrl, model: 'fake-model', workFolders: work})).toEqual({PI_OFFLINE: '1'});
		const models = JSON.parse(readFileSync(join(at, '.pi/agent/models.json'), 'utf8'));
		expect(models.providers.fake).toMatchObject({baseUrl: `${baseUrl}/v1`, api: 'openai-completions', models: [{id: 'fake-model'}]});
		expect(pi.resumeArgs({model: 'fake-model', baseUrl})).toContain('--continue');
	});

	it('claude-code: the base URL and key in the environment, onboarding done, the key approved, every work folder trusted, Bash allowed, --continue', async () => {
		const claude = await load('claude-code.mjs');
		const at = home('claude-code');
		const environment = claude.configure({home: at, baseUrl, model: 'claude-sonnet-4-5', workFolders: work});
		expect(environment).toMatchObject({ANTHROPIC_BASE_URL: baseUrl, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1'});
		const config = JSON.parse(readFileSync(join(at, '.claude.json'), 'utf8'));
		expect(config.hasCompletedOnboarding).toBe(true);
		expect(config.customApiKeyResponses.approved).toEqual([environment.ANTHROPIC_API_KEY!.slice(-20)]);
		for (const path of work) {
			expect(config.projects[path].hasTrustDialogAccepted).toBe(true);
		}

		expect(claude.launchArgs({model: 'claude-sonnet-4-5', baseUrl})).toEqual(['--model', 'claude-sonnet-4-5', '--allowedTools', 'Bash']);
		expect(claude.resumeArgs({model: 'claude-sonnet-4-5', baseUrl}).at(-1)).toBe('--continue');
	});

	it('codex: model_providers.fake with the responses wire and env_key, every work folder trusted, no daemon', async () => {
		const codex = await load('codex.mjs');
		const at = home('codex');
		expect(codex.configure({home: at, baseUrl, model: 'fake-model', workFolders: work})).toEqual({FAKE_API_KEY: 'bench'});
		const toml = readFileSync(join(at, '.codex/config.toml'), 'utf8');
		expect(toml).toContain(`[model_providers.fake]\nname = "Fake"\nbase_url = "${baseUrl}/v1"\nwire_api = "responses"\nenv_key = "FAKE_API_KEY"`);
		for (const path of work) {
			expect(toml).toContain(`[projects."${path}"]\ntrust_level = "trusted"`);
		}

		expect(codex.launchArgs({model: 'fake-model', baseUrl})).toEqual(['--dangerously-bypass-approvals-and-sandbox', '--no-daemon']);
	});

	it('opencode: an @ai-sdk/openai-compatible provider with options.baseURL, models fetch and auto-update off, --auto', async () => {
		const opencode = await load('opencode.mjs');
		const at = home('opencode');
		expect(opencode.configure({home: at, baseUrl, model: 'fake-model', workFolders: work})).toEqual({OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1'});
		const config = JSON.parse(readFileSync(join(at, '.config/opencode/opencode.json'), 'utf8'));
		expect(config.provider.fake).toMatchObject({npm: '@ai-sdk/openai-compatible', options: {baseURL: `${baseUrl}/v1`}});
		expect(config.model).toBe('fake/fake-model');
		expect(opencode.launchArgs({model: 'fake-model', baseUrl})).toContain('--auto');
	});

	it('gemini-cli: the base URL and key in the environment, API-key auth selected, the work folders trusted, --yolo', async () => {
		const gemini = await load('gemini.mjs');
		const at = home('gemini');
		expect(gemini.configure({home: at, baseUrl, model: 'gemini-2.5-flash', workFolders: work})).toEqual({GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: baseUrl});
		const settings = JSON.parse(readFileSync(join(at, '.gemini/settings.json'), 'utf8'));
		expect(settings.security.auth.selectedType).toBe('gemini-api-key');
		expect(JSON.parse(readFileSync(join(at, '.gemini/trustedFolders.json'), 'utf8'))).toEqual({'/w/warmup': 'TRUST_FOLDER', '/w/work-20': 'TRUST_FOLDER'});
		expect(gemini.launchArgs({model: 'gemini-2.5-flash', baseUrl})).toEqual(['--yolo', '-m', 'gemini-2.5-flash']);
	});
});

describe('the cardterm driver', () => {
	const saved = process.env.CARDTERM_PEERS_BUILD;
	afterEach(() => {
		if (saved === undefined) {
			delete process.env.CARDTERM_PEERS_BUILD;
		} else {
			process.env.CARDTERM_PEERS_BUILD = saved;
		}
	});

	/** A checkout whose bin prints `help` (or `modelHelp` when given `--model`); `built` decides whether dist/ exists. */
	function checkout(name: string, help: string, built = true, modelHelp = help): string {
		const root = home(name);
		mkdirSync(join(root, 'bin'), {recursive: true});
		writeFileSync(join(root, 'bin/cardterm'), `process.stdout.write(process.argv.includes('--model') ? ${JSON.stringify(modelHelp)} : ${JSON.stringify(help)});\n`);
		writeFileSync(join(root, 'package.json'), '{"version": "9.9.9"}');
		if (built) {
			mkdirSync(join(root, 'dist/src/cli'), {recursive: true});
			writeFileSync(join(root, 'dist/src/cli/main.js'), '');
		}

		return root;
	}

	it('reports a build whose --help does not know --model as not available, instead of running a stand-in', async () => {
		const cardterm = await load('cardterm.mjs');
		process.env.CARDTERM_PEERS_BUILD = checkout('old', 'usage: cardterm [--session-dir DIR]');
		expect(() => cardterm.install({cache: scratch, refresh: false})).toThrow(/not available in this build/);
		process.env.CARDTERM_PEERS_BUILD = checkout('unbuilt', 'usage: cardterm --model NAME', false);
		expect(() => cardterm.install({cache: scratch, refresh: false})).toThrow(/not built/);
	});

	it('finds the agent mode in the interactive help when the top-level help does not list it', async () => {
		const cardterm = await load('cardterm.mjs');
		process.env.CARDTERM_PEERS_BUILD = checkout('interactive-help', 'usage: cardterm [--session-dir DIR]', true, 'usage: cardterm [--model PROVIDER:MODEL] [--base-url URL] [--yolo]');
		expect(cardterm.install({cache: scratch, refresh: false}).version).toMatch(/^9\.9\.9/);
	});

	it('runs a build that knows --model with the agent-mode flags', async () => {
		const cardterm = await load('cardterm.mjs');
		const root = checkout('agent', 'usage: cardterm [--model NAME] [--base-url URL] [--yolo]');
		process.env.CARDTERM_PEERS_BUILD = root;
		const installed = cardterm.install({cache: scratch, refresh: false});
		expect(installed.command).toEqual([process.execPath, join(root, 'bin/cardterm')]);
		expect(installed.version).toMatch(/^9\.9\.9/);
		expect(cardterm.launchArgs({model: 'fake-model', baseUrl})).toEqual(['--model', 'fake-model', '--base-url', `${baseUrl}/v1`, '--yolo', '--max-steps', '100000']);
		expect(cardterm.resumeArgs({model: 'fake-model', baseUrl})).toContain('--continue');
	});
});
