/**
The fixed part of a model request — the system prompt and the tool schemas, which every step sends
again — is budgeted (issue 34, "Tokens"): it is measured on the Chat Completions wire as the fake
server receives it, through the same session, agent and provider code as `cardterm --model`, and
counted as the peer bench counts it (bench/peers/request-size.mjs). A new tool or a longer
description fails here, naming each part's size; make room before raising the budget (the decision:
docs/decisions/performance-decisions.md, "Tool descriptions are budgeted").
*/
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {startProviderServer} from '../fixtures/wire/provider-server.mjs';
import {agentHarness} from './agent-harness.js';

/**
Bytes of the fixed part on Chat Completions, the machine's words left out: the workspace path and the
platform (the bench's add ~65). pi, the smallest peer, sends 5 452 bytes (1 363 est. tokens).
*/
const FIXED_BUDGET_BYTES = 5200;

type FixedBytes = (api: string, body: unknown) => number;
const {fixedBytes} = await import(pathToFileURL(join(import.meta.dirname, '../../bench/peers/request-size.mjs')).href) as {fixedBytes: FixedBytes};

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
What the model must still be told to use each tool right (issue 34: "every tool's full schema"), in
the words it is sent: the budget is met by saying things once and briefly, never by leaving these out.
*/
const FACTS: Record<string, readonly string[]> = {
	system: ['relative to it or absolute, and default to it', '`description` argument is 5-10 words'],
	bash: ['stderr after a [stderr] line', 'exit code', 'non-zero is reported, not a failure', 'last 64000 bytes', 'Default 120000, max 600000', 'job id'],
	read: ['UTF-8', 'numbered lines', '1-based', 'Default and max 2000 lines'],
	write: ['Create or overwrite', 'parent directories', 'permissions kept', 'Prefer edit'],
	edit: ['literal text', 'existing', 'old_string must occur exactly once', 'unless replace_all'],
	grep: ['ripgrep regex', 'first 250', 'by path then line', '.gitignored', 'hidden entries unless include names them', 'One glob', 'no list or negation'],
	glob: ['not directories', 'first 100', 'newest first', 'Skips what grep skips', 'only if the pattern names one', 'Without a slash, it matches names at any depth'],
	web_fetch: ['http(s)', 'Markdown', 'refused', 'truncated'],
	todo_write: ['whole updated list', 'unique', 'in_progress before starting it', 'one at a time', 'completed once done'],
	job_output: ['since the last read', 'with wait', 'timeout_ms', 'Default 30000, max 600000'],
	job_list: ['background jobs', 'status'],
	job_kill: ['Stop a background job', 'output stays readable'],
	run_code: ['async function body', 'top-level await, return', '`await tools.name(args)`', 'tools[\'a-b\'](args)', 'ToolCallError (toolName, message)', 'Promise.all', 'mutating ones run alone, in order', 'Only console.log output and the return value come back', 'await import(\'node:fs\')'],
};

/** The first request of a one-step turn, as the fake Chat Completions server received it, and the registry's schemas. */
async function firstRequest() {
	const h = await agentHarness({script: [{text: 'ok'}]});
	await h.turn('hi');
	const body = h.server.requests[0]!.body;
	const schemas = h.session.registry.schemas();
	const workspace = h.workspace;
	await h.finish();
	return {body, schemas, workspace, tools: body.tools ?? [], system: body.messages.filter(message => message.role === 'system')};
}

describe('the fixed part of a model request', () => {
	it(`stays within ${FIXED_BUDGET_BYTES} bytes on Chat Completions while every tool is offered whole`, async () => {
		const {body, schemas, workspace, tools, system} = await firstRequest();
		// Every tool a session offers without a web search backend, each schema the registry's own: nothing is left out to fit.
		expect(tools.map(tool => tool.function.name)).toEqual(schemas.map(schema => schema.name).filter(name => name !== 'web_search'));
		expect(tools.length).toBeGreaterThanOrEqual(12);
		for (const tool of tools) {
			const own = schemas.find(schema => schema.name === tool.function.name)!;
			expect(tool.function.parameters, own.name).toEqual(own.parameters);
			expect(tool.function.description, own.name).toBe(own.description);
		}

		const machine = bytes(workspace) - 2 + Buffer.byteLength(`${process.platform} ${process.arch}`);
		expect(String(system[0]?.content)).toContain(`Workspace: ${workspace}`);
		expect(String(system[0]?.content)).toContain(`Platform: ${process.platform} ${process.arch}.`);
		const fixed = fixedBytes('chat', body) - machine;
		expect(fixed).toBe(bytes(system) - machine + bytes(tools));
		const parts = [`system prompt ${bytes(system) - machine}`, ...tools.map(tool => `${tool.function.name} ${bytes(tool)}`)].join(', ');
		expect(fixed, `fixed part ${fixed} bytes (budget ${FIXED_BUDGET_BYTES}): ${parts}`).toBeLessThanOrEqual(FIXED_BUDGET_BYTES);
	}, 30_000);

	it('still tells the model what each tool needs to be used right', async () => {
		const {tools, system} = await firstRequest();
		const sent = new Map<string, string>([['system', String(system[0]?.content)], ...tools.map(tool => [tool.function.name, JSON.stringify(tool.function)] as [string, string])]);
		expect([...sent.keys()].sort()).toEqual(Object.keys(FACTS).sort());
		for (const [name, facts] of Object.entries(FACTS)) {
			for (const fact of facts) {
				expect(sent.get(name), `${name} no longer says "${fact}"`).toContain(JSON.stringify(fact).slice(1, -1));
			}
		}
	}, 30_000);

	// The schemas are shared: on the other wires they go as the registry made them, with only the
	// fields each wire defines for a tool (no added `$schema`, `additionalProperties` or `strict`).
	const wires = [
		{wire: 'responses', model: 'openai-responses:gpt-5', prefix: '/v1', fields: ['type', 'name', 'description', 'parameters'], schema: 'parameters'},
		// eager_input_streaming is the AI SDK's fine-grained tool streaming: a flag of the API call, not text the model reads.
		{wire: 'anthropic', model: 'anthropic:claude-sonnet-4-5', prefix: '/v1', fields: ['name', 'description', 'input_schema', 'eager_input_streaming', 'cache_control'], schema: 'input_schema'},
		// Gemini's schema subset has no additionalProperties, and an empty parameters object is left out.
		{wire: 'gemini', model: 'google:gemini-2.5-pro', prefix: '/v1beta', fields: ['name', 'description', 'parameters'], schema: 'parameters'},
	] as const;
	it.each(wires)('go unchanged on the $wire wire, which adds no schema of its own', async ({wire, model, prefix, fields, schema}) => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-budget-'));
		const server = await startProviderServer({script: [{text: 'ok'}]});
		try {
			const io = fakeIo({cwd: workspace, env: {OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k', XDG_CONFIG_HOME: join(workspace, '.config')}});
			expect(await main(['-p', 'hi', '--model', model, '--base-url', `${server.url}${prefix}`, '--session-dir', join(workspace, '.sessions'), '--json'], io)).toBe(0);
			expect(server.refusals).toEqual([]);
			const body = server.requests[0]!.body as Record<string, any>;
			expect(server.requests[0]!.wire).toBe(wire);
			const sent = (wire === 'gemini' ? body.tools[0].functionDeclarations : body.tools) as Array<Record<string, unknown>>;
			const offered = (await firstRequest()).schemas.filter(tool => tool.name !== 'web_search');
			expect(sent.map(tool => tool.name)).toEqual(offered.map(tool => tool.name));
			for (const [index, tool] of sent.entries()) {
				const own = offered[index]!;
				expect(Object.keys(tool).filter(key => !(fields as readonly string[]).includes(key)), own.name).toEqual([]);
				expect(tool.description, own.name).toBe(own.description);
				const expected = wire === 'gemini' ? withoutClosedObjects(own.parameters) : own.parameters;
				expect(tool[schema], own.name).toEqual(wire === 'gemini' && Object.keys(own.parameters.properties as object).length === 0 ? undefined : expected);
			}
		} finally {
			await server.close();
			await rm(workspace, {recursive: true, force: true});
		}
	}, 30_000);
});

/** A JSON schema without its `additionalProperties: false` (Gemini's subset has none). */
function withoutClosedObjects(schema: unknown): unknown {
	if (Array.isArray(schema)) {
		return schema.map(withoutClosedObjects);
	}

	if (schema === null || typeof schema !== 'object') {
		return schema;
	}

	return Object.fromEntries(Object.entries(schema).filter(([key, value]) => !(key === 'additionalProperties' && value === false)).map(([key, value]) => [key, withoutClosedObjects(value)]));
}
