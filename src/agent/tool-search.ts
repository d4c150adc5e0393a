/**
@module Tool search over large MCP tool lists. The MCP servers' tool schemas are counted (the same
character estimate as the context ledger's); when they pass a share of the model's window (default
10%), they are not sent: the request carries cardterm's own tools, the one `tool_search` tool, and
the MCP tools the model has found so far. `tool_search` looks the deferred tools up by name and
description and returns their full schemas; from the next request on a found tool is in the model's
tool list (it could be called at once too: it is in the registry all along). Found tools stay found
for the session, so a request's tools only grow while the list is deferred.
*/
import {MCP_TOOL_PREFIX} from '../builtin/mcp/mcp-tool-name.js';
import type {JsonValue} from '../json/json-value.js';
import {defineTool} from '../tools/define-tool.js';
import type {ToolDefinition, ToolSchema} from '../tools/types.js';
import {compactCount} from './context-ledger.js';
import {estimateTokens} from './token-estimate.js';

export const TOOL_SEARCH_NAME = 'tool_search';

/** When the MCP tools' schemas are deferred: past `share` of the window (0: always). */
export type ToolSearchSettings = {readonly share: number};

/** The default share of the window the MCP tools' schemas may take before they are deferred. */
export const DEFAULT_TOOL_SEARCH_SHARE = 0.1;

/** Most tools one search returns (the model may ask for fewer). */
const MAX_RESULTS = 20;
const DEFAULT_RESULTS = 5;

/** Whether the MCP tools are deferred now, and what that saves, for `/context` and `/mcp`. */
export type ToolSearchState = {
	readonly on: boolean;
	/** The MCP tools and their schemas' tokens. */
	readonly tools: number;
	readonly tokens: number;
	/** Past this many tokens they are deferred (absent: the window is unknown and the share cannot be applied). */
	readonly limit?: number;
	/** Found by the model, and sent since. */
	readonly found: number;
	/** Tokens not sent in each request (the deferred tools' schemas less the search tool's). */
	readonly saved: number;
};

type Selection = {readonly offered: readonly ToolSchema[]; readonly window: number | undefined; readonly found: number; readonly tools: readonly ToolSchema[]; readonly state: ToolSearchState};

export class ToolSearch {
	readonly #settings: ToolSearchSettings;
	/** The MCP tools of the last selection: what a search looks through. */
	#deferred: readonly ToolSchema[] = [];
	readonly #found = new Set<string>();
	#last: Selection | undefined;
	#mcpCache: {readonly offered: readonly ToolSchema[]; readonly mcp: readonly ToolSchema[]; readonly tokens: number} | undefined;
	readonly #tool: ToolDefinition;
	readonly #schema: ToolSchema;

	constructor(settings: ToolSearchSettings) {
		this.#settings = settings;
		this.#tool = this.#definition();
		this.#schema = {name: this.#tool.name, description: this.#tool.description, parameters: this.#tool.parameters};
	}

	/** The `tool_search` tool, for the registry (a model is offered it only while the MCP tools are deferred). */
	get tool(): ToolDefinition {
		return this.#tool;
	}

	/** The tools the next request carries, of `offered` (without `tool_search`) for a window of `window` tokens. */
	select(offered: readonly ToolSchema[], window: number | undefined): readonly ToolSchema[] {
		const last = this.#last;
		if (last?.offered === offered && last.window === window && last.found === this.#found.size) {
			return last.tools;
		}

		const {mcp, tokens} = this.#mcp(offered);
		const limit = window === undefined ? (this.#settings.share === 0 ? 0 : undefined) : Math.floor(window * this.#settings.share);
		const on = mcp.length > 0 && limit !== undefined && tokens > limit;
		this.#deferred = on ? mcp : [];
		const tools = on ? [...offered.filter(schema => !schema.name.startsWith(MCP_TOOL_PREFIX) || this.#found.has(schema.name)), this.#schema] : offered;
		const found = on ? mcp.filter(schema => this.#found.has(schema.name)) : [];
		const saved = on ? Math.max(0, tokens - estimateTokens(JSON.stringify(found)) - estimateTokens(JSON.stringify(this.#schema))) : 0;
		const state: ToolSearchState = {on, tools: mcp.length, tokens, ...(limit === undefined ? {} : {limit}), found: found.length, saved};
		this.#last = {offered, window, found: this.#found.size, tools, state};
		return tools;
	}

	/** The state of the last selection (before any request: nothing deferred). */
	state(): ToolSearchState {
		return this.#last?.state ?? {on: false, tools: 0, tokens: 0, found: 0, saved: 0};
	}

	/** The MCP tools among `offered` and their schemas' tokens, counted once per tool list. */
	#mcp(offered: readonly ToolSchema[]): {readonly mcp: readonly ToolSchema[]; readonly tokens: number} {
		if (this.#mcpCache?.offered !== offered) {
			const mcp = offered.filter(schema => schema.name.startsWith(MCP_TOOL_PREFIX));
			this.#mcpCache = {offered, mcp, tokens: mcp.length === 0 ? 0 : estimateTokens(JSON.stringify(mcp))};
		}

		return this.#mcpCache;
	}

	/** The deferred tools matching `query`, best first: every word in the name counts three, in the description one. */
	search(query: string, limit: number): ToolSchema[] {
		const words = query.toLowerCase().split(/[\s,]+/u).filter(word => word !== '');
		const exact = new Set(words);
		const scored: Array<{schema: ToolSchema; score: number}> = [];
		for (const schema of this.#deferred) {
			const name = schema.name.toLowerCase();
			const description = schema.description.toLowerCase();
			let score = exact.has(name) ? 100 : 0;
			for (const word of words) {
				score += name.includes(word) ? 3 : (description.includes(word) ? 1 : 0);
			}

			if (score > 0) {
				scored.push({schema, score});
			}
		}

		return scored.sort((a, b) => b.score - a.score || a.schema.name.localeCompare(b.schema.name)).slice(0, limit).map(({schema}) => schema);
	}

	#definition(): ToolDefinition {
		return defineTool({
			name: TOOL_SEARCH_NAME,
			description: `Search the tools of the person's MCP servers, which are too many to list here. Give words of the tool's name or of what it does; you get the matching tools' full names, descriptions and parameter schemas, and from your next step on they are in your tool list to call. Search again with other words when none fits.`,
			parameters: {
				query: {type: 'string', required: true, description: 'Words of the tool\'s name or purpose ("github issue", "create_event"); an exact tool name finds that tool.'},
				limit: {type: 'integer', description: `How many tools at most (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).`},
			},
			output: {
				schema: {
					type: 'object',
					additionalProperties: false,
					properties: {
						searched: {type: 'integer', required: true},
						tools: {type: 'array', required: true, items: {type: 'json'}},
					},
				},
				render: (_args, value) => [{type: 'text', text: renderFound(value as {searched: number; tools: ToolSchema[]})}],
			},
			isConcurrencySafe: () => true,
			execute: async args => {
				const {query, limit} = args as {query: string; limit?: number};
				const found = this.search(query, Math.max(1, Math.min(MAX_RESULTS, limit ?? DEFAULT_RESULTS)));
				for (const schema of found) {
					this.#found.add(schema.name);
				}

				return {searched: this.#deferred.length, tools: found.map(schema => ({name: schema.name, description: schema.description, parameters: schema.parameters})) as unknown as JsonValue[]};
			},
		});
	}
}

function renderFound({searched, tools}: {searched: number; tools: ToolSchema[]}): string {
	if (tools.length === 0) {
		return `No tool matched among ${searched} MCP tools; try other words.`;
	}

	return `${tools.length} of ${searched} MCP tools matched; they are in your tool list from your next step on:\n${JSON.stringify(tools, null, 2)}`;
}

/** What `/context` and `/mcp` say of the tool search, or `undefined` when there are no MCP tools. */
export function toolSearchText(state: ToolSearchState): string | undefined {
	if (state.tools === 0) {
		return undefined;
	}

	const schemas = `${state.tools} MCP ${state.tools === 1 ? 'tool' : 'tools'}' schemas, ${compactCount(state.tokens)} tokens`;
	if (!state.on) {
		return `tool search: off (${schemas}${state.limit === undefined ? '; the window is unknown' : `, within ${compactCount(state.limit)}`})`;
	}

	return `tool search: on (${schemas}, past ${compactCount(state.limit ?? 0)}): not sent, the model searches them (${TOOL_SEARCH_NAME}); ${state.found} found and sent; saves ${compactCount(state.saved)} tokens a request`;
}
