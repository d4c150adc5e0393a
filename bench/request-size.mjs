// What cardterm sends per model step, the part that does not grow (issue 26): the system prompt and
// the tool schemas, as the first request of `cardterm -p` carries them on each wire (OpenAI-compatible,
// OpenAI Responses, Anthropic, Gemini), in bytes and estimated tokens (bytes / 4), with and without
// Anthropic's cache, and each tool's schema in bytes as the wire sends it (`toolSizes`).
//   node bench/request-size.mjs [--bin PATH/TO/bin/cardterm] [--before PATH/TO/OTHER/bin/cardterm]
// --before measures another build too (e.g. main's) and prints the ratio after/before.
// Runs the built binary (`npm run build` first) against the strict fake provider, on loopback.
import {execFile} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {promisify} from 'node:util';
import {startProviderServer} from '../test/fixtures/wire/provider-server.mjs';

const run = promisify(execFile);
const {values} = parseArgs({options: {bin: {type: 'string', default: join(import.meta.dirname, '../bin/cardterm')}, before: {type: 'string'}}});

const wires = [
	{name: 'openai-compatible (deepseek)', wire: 'chat', model: 'deepseek:deepseek-chat', prefix: '/v1', env: {DEEPSEEK_API_KEY: 'k'}, fixed: body => ({system: body.messages[0], tools: body.tools})},
	{name: 'openai-responses', wire: 'responses', model: 'openai-responses:gpt-5', prefix: '/v1', env: {OPENAI_API_KEY: 'k'}, fixed: body => ({system: body.input.filter(item => item.role === 'system' || item.role === 'developer'), tools: body.tools})},
	{name: 'anthropic', wire: 'anthropic', model: 'anthropic:claude-sonnet-4-5', prefix: '/v1', env: {ANTHROPIC_API_KEY: 'k'}, fixed: body => ({system: body.system, tools: body.tools})},
	{name: 'gemini', wire: 'gemini', model: 'google:gemini-2.5-pro', prefix: '/v1beta', env: {GEMINI_API_KEY: 'k'}, fixed: body => ({system: body.systemInstruction, tools: body.tools})},
];

/** The first request's fixed part on each wire, for the binary at `bin`. */
async function measure(bin) {
	const workspace = mkdtempSync(join(tmpdir(), 'cardterm-request-size-'));
	writeFileSync(join(workspace, 'hello.txt'), 'hello\n');
	const rows = [];
	try {
		for (const wire of wires) {
			const server = await startProviderServer({script: [{text: 'ok'}]});
			try {
				// A clean environment: no search backend, no user config.
				await run(process.execPath, [bin, '-p', 'hi', '--model', wire.model, '--base-url', `${server.url}${wire.prefix}`, '--session-dir', join(workspace, '.sessions'), '--json'], {cwd: workspace, env: {PATH: process.env.PATH, HOME: workspace, XDG_CONFIG_HOME: join(workspace, '.config'), ...wire.env}});
			} catch {
				// A build that cannot speak this wire (no --base-url for the provider): the request is still what it sent, if any.
			} finally {
				await server.close();
			}

			// A build without a base URL for this provider sent another wire (or nothing): not measured.
			const body = server.requests[0]?.wire === wire.wire ? server.requests[0].body : undefined;
			if (body === undefined) {
				rows.push({wire: wire.name, bytes: null});
				continue;
			}

			const fixed = wire.fixed(body);
			const system = Buffer.byteLength(JSON.stringify(fixed.system ?? ''));
			const tools = Buffer.byteLength(JSON.stringify(fixed.tools ?? []));
			const cached = JSON.stringify(fixed).includes('"cache_control"');
			const declared = fixed.tools?.[0]?.functionDeclarations ?? fixed.tools ?? [];
			const toolSizes = Object.fromEntries(declared.map(tool => [tool.function?.name ?? tool.name, Buffer.byteLength(JSON.stringify(tool))]));
			rows.push({wire: wire.name, systemBytes: system, toolBytes: tools, bytes: system + tools, tokens: Math.round((system + tools) / 4), tools: declared.length, cached, toolSizes});
		}
	} finally {
		rmSync(workspace, {recursive: true, force: true});
	}

	return rows;
}

const after = await measure(values.bin);
const before = values.before === undefined ? undefined : await measure(values.before);
for (const [index, row] of after.entries()) {
	const old = before?.[index];
	// Anthropic bills a cache read at 0.1x input and a write at 1.25x: what the fixed part costs per step after the first, in input tokens.
	const perStep = row.cached ? Math.round(row.tokens * 0.1) : row.tokens;
	const figure = {
		wire: row.wire,
		tools: row.tools,
		systemBytes: row.systemBytes,
		toolBytes: row.toolBytes,
		fixedBytes: row.bytes,
		fixedTokens: row.tokens,
		cacheBreakpoints: row.cached,
		billedTokensPerLaterStep: perStep,
		...(old === undefined ? {} : {beforeBytes: old.bytes, beforeTokens: old.tokens, beforeBilledTokensPerLaterStep: old.bytes === null ? null : (old.cached ? Math.round(old.tokens * 0.1) : old.tokens), ratio: old.bytes === null ? null : Math.round((row.bytes / old.bytes) * 1000) / 1000}),
		toolSizes: row.toolSizes,
		...(old?.toolSizes === undefined ? {} : {beforeToolSizes: old.toolSizes}),
	};
	console.log(JSON.stringify(figure));
}
