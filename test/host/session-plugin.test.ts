/**
Plugins in the seed's shape (`name`, `inject`, `apply(ctx)`), applied to a session in process. The
reference's minimal example is `test/fixtures/plugins/seed-minimal.ts`, verbatim; vitest resolves its
`@deepseek-ai/dsh-tools` as `--plugin` does at run time (vitest.config.ts). The real loader (module
hooks, TypeScript on Node 20) is driven through the binary in test/app/plugin-binary.test.ts.
*/
import {mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {runOne} from '../../src/cli/commands/call-command.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {pluginFromModule, type SessionPlugin} from '../../src/host/session-plugin.js';
import {JobRuntime} from '../../src/jobs/job-runtime.js';
import {renderCardText} from '../../src/layout/terminal/render-lines.js';
import {monochromeTheme} from '../../src/layout/text/theme.js';
import {defineTool} from '../../src/tools/define-tool.js';
import {ToolRegistry} from '../../src/tools/registry.js';

const fixtures = new URL('../fixtures/plugins/', import.meta.url);

/** The fixture's module namespace; the path is a variable so tsc does not type-check the verbatim example. */
async function importFixture(name: string): Promise<Record<string, unknown>> {
	const url = new URL(name, fixtures).href;
	return import(url) as Promise<Record<string, unknown>>;
}

async function fixturePlugin(name: string): Promise<SessionPlugin> {
	return pluginFromModule(await importFixture(name), `test/fixtures/plugins/${name}`);
}

let dir = '';
let session: OpenedSession | undefined;
const reports: string[] = [];

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'cardterm-plugin-'));
	reports.length = 0;
});

afterEach(async () => {
	await session?.close();
	session = undefined;
	await rm(dir, {recursive: true, force: true});
});

function bareHost() {
	const jobs = new JobRuntime();
	jobs.attachController('test');
	return {registry: new ToolRegistry(), jobs, workspace: dir, report: (message: string) => reports.push(message)};
}

const echo = defineTool({
	name: 'echo_back',
	description: 'Echo.',
	parameters: {text: {type: 'string', required: true}},
	output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
	execute: async args => args.text,
});

describe("the reference's minimal plugin", () => {
	it('applies unmodified: its read_file tool is registered, and a call to it is a card with the file', async () => {
		const notes = join(dir, 'notes.txt');
		await writeFile(notes, 'alpha\nbeta\n');
		const plugin = await fixturePlugin('seed-minimal.ts');
		expect(plugin.name).toBe('my-tool');
		session = await openSession({cwd: dir, plugins: [plugin]});
		expect(session.registry.schemas().find(schema => schema.name === 'read_file')).toEqual({
			name: 'read_file',
			description: 'Read a file from disk.',
			parameters: {type: 'object', properties: {path: {type: 'string', description: 'Absolute path'}, limit: {type: 'number'}}, required: ['path']},
		});

		const card = await runOne(session, 'read_file', JSON.stringify({path: notes}), new AbortController().signal);
		expect(card.status).toBe('ok');
		expect(card.result?.content).toEqual([{type: 'text', text: 'alpha\nbeta\n'}]);
		const text = renderCardText(card, {width: 60, theme: monochromeTheme, now: card.resultTime ?? 0, sessionCwd: dir, color: false, hyperlinks: false});
		expect(text).toContain('read_file');
		expect(text).toContain('alpha');
		expect(text).toContain('beta');
	});

	it('ends its registration when disposed; the schema projection no longer has it', async () => {
		const host = bareHost();
		const dispose = await (await fixturePlugin('seed-minimal.ts')).apply(host);
		expect(host.registry.get('read_file')).toBeDefined();
		await dispose();
		expect(host.registry.get('read_file')).toBeUndefined();
		expect(host.registry.schemas()).toEqual([]);
		const result = await host.registry.execute({callId: 'c1', name: 'read_file', arguments: {path: '/etc/hostname'}, signal: new AbortController().signal});
		expect(result).toMatchObject({isError: true, error: {message: 'unknown tool "read_file"'}});
	});

	it('is disposed when its session closes', async () => {
		session = await openSession({cwd: dir, plugins: [await fixturePlugin('seed-minimal.ts')]});
		expect(session.toolNames().has('read_file')).toBe(true);
		await session.close();
		expect(session.registry.get('read_file')).toBeUndefined();
	});
});

describe('a plugin using guard, hooks and jobs (seed-countdown.mjs)', () => {
	it('guards, listens and starts a background job the job tools can read', async () => {
		const module = await importFixture('seed-countdown.mjs');
		const seen = module.seen as string[];
		seen.length = 0;
		session = await openSession({cwd: dir, plugins: [await fixturePlugin('seed-minimal.ts'), pluginFromModule(module, 'seed-countdown.mjs')]});
		const signal = new AbortController().signal;

		const denied = await runOne(session, 'countdown', '{"from": 6}', signal);
		expect(denied.status).toBe('error');
		expect(denied.result?.content).toEqual([{type: 'text', text: 'Error: countdown: at most 5'}]);

		const secret = await runOne(session, 'read_file', JSON.stringify({path: join(dir, 'secret.txt')}), signal);
		expect(secret.result?.content).toEqual([{type: 'text', text: 'Error: countdown: secrets stay secret'}]);

		const started = await runOne(session, 'countdown', '{"from": 2}', signal);
		expect(started.result?.content).toEqual([{type: 'text', text: 'started background job countdown-1'}]);
		const output = await runOne(session, 'job_output', '{"job_id": "countdown-1", "wait": true}', signal);
		expect(output.result?.content).toEqual([{type: 'text', text: '2\n1\n0\n[status: completed]'}]);
		expect(seen).toEqual(['countdown:error', 'read_file:error', 'countdown:ok', 'job_output:ok']);
	});

	it('when disposed, its tool, guard and listeners are gone, but a job it started runs on (jobs belong to their owner)', async () => {
		const module = await importFixture('seed-countdown.mjs');
		const seen = module.seen as string[];
		seen.length = 0;
		const host = bareHost();
		const dispose = await pluginFromModule(module, 'seed-countdown.mjs').apply(host);
		const signal = new AbortController().signal;
		const agent = {id: 'test-agent'};
		const started = await host.registry.execute({callId: 'c1', name: 'countdown', arguments: {from: 3}, agent, signal});
		expect(started).toMatchObject({isError: false, value: {kind: 'background', jobId: 'countdown-1'}});

		await dispose();
		expect(host.registry.get('countdown')).toBeUndefined();
		expect(host.jobs.get('countdown-1', agent).status).toBe('running');
		expect((await host.jobs.wait('countdown-1', 60_000, agent)).status).toBe('completed');

		// A new `countdown` from 9 is not guarded any more, and nobody listens to its result.
		host.registry.register(defineTool({
			name: 'countdown',
			description: 'Not the plugin’s.',
			parameters: {from: {type: 'integer', required: true}},
			output: {schema: {type: 'integer'}, render: (_args, value) => [{type: 'text', text: String(value)}]},
			execute: async args => args.from,
		}));
		const unguarded = await host.registry.execute({callId: 'c2', name: 'countdown', arguments: {from: 9}, signal});
		expect(unguarded).toMatchObject({isError: false, value: 9});
		expect(seen).toEqual(['countdown:ok']);
		expect(reports).toEqual([]);
	});
});

describe('the seed shape, checked', () => {
	it('refuses a plugin that injects a service cardterm does not provide', () => {
		expect(() => pluginFromModule({name: 'wants-settings', inject: ['tools', 'settings'], apply() {}}, 'p.mjs')).toThrow(
			'plugin "wants-settings" (p.mjs) needs settings, which cardterm does not provide (it provides tools, jobs)',
		);
		expect(() => pluginFromModule({name: 'optional', inject: {required: ['tools'], optional: ['settings']}, apply() {}}, 'p.mjs')).not.toThrow();
		expect(() => pluginFromModule({name: 'odd', inject: 'tools', apply() {}}, 'p.mjs')).toThrow('plugin p.mjs: inject must be an array of service names (or {required, optional})');
	});

	it('takes the three exports from a default-exported object too, and names a nameless plugin after its file', async () => {
		const host = bareHost();
		const plugin = pluginFromModule({default: {apply(ctx: {tools: {register(tool: unknown): void}}) {
			ctx.tools.register(echo);
		}}}, 'plugins/echo.mjs');
		expect(plugin.name).toBe('echo.mjs');
		await plugin.apply(host);
		// The plugin's tool as it was registered (`pinnedTool`): its own object behind the pinned parameters.
		expect(Object.getPrototypeOf(host.registry.get('echo_back'))).toBe(echo);
	});

	it('leaves nothing behind when apply throws half-way, and says which plugin failed', async () => {
		const host = bareHost();
		const plugin = pluginFromModule({name: 'half', async apply(ctx: {tools: {register(tool: unknown): void; guard(fn: () => string): void}}) {
			ctx.tools.register(echo);
			ctx.tools.guard(() => 'never');
			throw new Error('boom');
		}}, 'half.mjs');
		await expect(plugin.apply(host)).rejects.toThrow('cannot apply plugin "half" (half.mjs): boom');
		expect(host.registry.get('echo_back')).toBeUndefined();
		host.registry.register(echo);
		expect(await host.registry.execute({callId: 'c1', name: 'echo_back', arguments: {text: 'hi'}, signal: new AbortController().signal})).toMatchObject({isError: false, value: 'hi'});
	});

	it('refuses registrations after disposal, and runs effect cleanups last-registered first', async () => {
		const host = bareHost();
		const order: string[] = [];
		let kept: {tools: {register(tool: unknown): () => void}} | undefined;
		const plugin = pluginFromModule({name: 'effects', apply(ctx: {tools: {register(tool: unknown): () => void}; effect(setup: () => () => void): () => void; on(hook: string, listener: () => void): () => void}) {
			kept = ctx;
			ctx.effect(() => () => order.push('first effect'));
			ctx.on('tools/change', () => order.push('change'));
			ctx.effect(() => () => order.push('second effect'));
		}}, 'effects.mjs');
		const dispose = await plugin.apply(host);
		await dispose();
		expect(order).toEqual(['second effect', 'first effect']);
		expect(() => kept!.tools.register(echo)).toThrow('plugin "effects" is disposed: tool "echo_back" refused');
		expect(host.registry.get('echo_back')).toBeUndefined();
	});

	it('returns each registration’s own disposer: calling it ends that one at once, and disposal later is a no-op for it', async () => {
		const host = bareHost();
		let off: (() => void) | undefined;
		const dispose = await pluginFromModule({name: 'early', apply(ctx: {tools: {register(tool: unknown): () => void}}) {
			off = ctx.tools.register(echo);
		}}, 'early.mjs').apply(host);
		off!();
		expect(host.registry.get('echo_back')).toBeUndefined();
		host.registry.register(echo);
		await dispose();
		// The plugin's registration was already gone; the one made since is not the plugin's.
		expect(host.registry.get('echo_back')).toBe(echo);
		expect(reports).toEqual([]);
	});

	it('still loads a module of tool definitions (cardterm’s own shape), and disposes them', async () => {
		const host = bareHost();
		const dispose = await pluginFromModule({echo}, 'echo.mjs').apply(host);
		// The plugin's tool as it was registered (`pinnedTool`): its own object behind the pinned parameters.
		expect(Object.getPrototypeOf(host.registry.get('echo_back'))).toBe(echo);
		await dispose();
		expect(host.registry.get('echo_back')).toBeUndefined();
		expect(() => pluginFromModule({nothing: 1}, 'empty.mjs')).toThrow('plugin empty.mjs exports neither apply(ctx) nor a tool definition (export defineTool(...) results)');
	});
});

describe("a plugin's workspace (ctx.workspace)", () => {
	it('names the session’s workspace and resolves paths inside it as the file tools do: links followed, escapes refused', async () => {
		const outside = await mkdtemp(join(tmpdir(), 'cardterm-plugin-outside-'));
		try {
			await writeFile(join(dir, 'notes.txt'), 'inside\n');
			await writeFile(join(outside, 'secret.txt'), 'outside\n');
			await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'));
			// The README's example, as a file.
			session = await openSession({cwd: dir, plugins: [await fixturePlugin('workspace-notes.mjs')]});
			expect(session.registry.get('note_read')?.description).toBe(`Read a note of the workspace (${dir}).`);
			const read = async (path: string) => runOne(session!, 'note_read', JSON.stringify({path}), new AbortController().signal);
			expect((await read('notes.txt')).result?.content).toEqual([{type: 'text', text: 'inside\n'}]);
			expect((await read(join(dir, 'notes.txt'))).status).toBe('ok');
			for (const path of ['../' + basename(outside) + '/secret.txt', join(outside, 'secret.txt'), 'link.txt']) {
				const card = await read(path);
				expect({path, status: card.status, error: card.result?.error}).toMatchObject({path, status: 'error', error: {name: 'FsError', code: 'FS_OUTSIDE_WORKSPACE'}});
				expect(JSON.stringify(card.result?.content)).not.toContain('outside\\n');
			}
		} finally {
			await rm(outside, {recursive: true, force: true});
		}
	});
});
