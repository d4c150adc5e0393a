/**
@module The card of an MCP tool's call (`mcp__SERVER__TOOL`), live and on replay: computed from the
arguments and the result's `meta` (`mcp-result.ts`) alone, so a log shows the same card wherever it
is read. The body is the result by content, item by item in the server's order: text, an image or
audio row (type, size, saved copy), a resource link, an embedded resource (its text readable), the
structured content as pretty JSON with whether it conforms to the tool's output schema, and — when
what the model received differs — a note saying how. A result without that meta (another
producer's log) is the generic card of its content.
*/
import {isIntrinsicArray, isPlainRecord} from '../../json/is-plain-record.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {Presenter, PresenterLookup} from '../../presentation/presenters.js';
import type {ContentBlock, TextBlock} from '../../tools/content.js';
import type {GenericCallView, ToolResult, ToolResultView} from '../../tools/views.js';
import type {McpCardMeta, McpItem} from './mcp-result.js';
import {sizeText} from '../../presentation/size-text.js';
import {MCP_TOOL_PREFIX, splitMcpToolName} from './mcp-tool-name.js';

const KNOWN_ITEMS: ReadonlySet<string> = new Set(['text', 'image', 'audio', 'resource_link', 'resource', 'other']);

/** Structured content longer than this is shown as the model received it, not re-indented. */
const PRETTY_LIMIT = 1_000_000;

/** The presenter of the MCP tool registered (or recorded) as `name` (the card's header names it; the title is what it was asked). */
export function mcpPresenter(name: string): Presenter {
	const parts = splitMcpToolName(name);
	return {
		presentCall(args: unknown): GenericCallView {
			const empty = isPlainRecord(args) && Object.keys(args).length === 0;
			return {card: 'generic', title: empty ? `(no arguments; MCP server ${parts?.server ?? '?'})` : argumentsLine(args), kind: 'other', ...(empty ? {} : {rawInput: args})};
		},
		presentResult(_args: unknown, result: ToolResult): ToolResultView | undefined {
			const meta = mcpMeta(result.meta);
			if (meta === undefined) {
				return undefined;
			}

			return {card: 'generic', content: cardContent(meta, result.content)};
		},
	};
}

/** `location: Chicago, days: 3`: the arguments on one line (the layout cuts it to the width). */
function argumentsLine(args: unknown): string {
	if (!isPlainRecord(args)) {
		return JSON.stringify(args) ?? String(args);
	}

	return Object.entries(args).slice(0, 8).map(([key, value]) => `${key}: ${typeof value === 'string' ? value.slice(0, 200) : (JSON.stringify(value) ?? '').slice(0, 200)}`).join(', ');
}

/** `fallback`'s presenters, and the MCP card for every `mcp__` name (a server gone or never started: its calls still have their card). */
export function withMcpPresenter(fallback: PresenterLookup): PresenterLookup {
	return name => (name.startsWith(MCP_TOOL_PREFIX) ? fallback(name) ?? mcpPresenter(name) : fallback(name));
}

/** The meta when it is an MCP card's (checked: a log may hold anything). */
function mcpMeta(meta: unknown): McpCardMeta['mcp'] | undefined {
	const mcp = isPlainRecord(meta) ? meta.mcp : undefined;
	if (!isPlainRecord(mcp) || typeof mcp.server !== 'string' || typeof mcp.tool !== 'string' || !isIntrinsicArray(mcp.items)) {
		return undefined;
	}

	const items: McpItem[] = [];
	for (const item of mcp.items) {
		if (isPlainRecord(item) && typeof item.type === 'string' && typeof item.block === 'number') {
			// A newer producer's item kind is shown as what the model received.
			items.push(KNOWN_ITEMS.has(item.type) ? item as unknown as McpItem : {type: 'other', block: item.block, kind: item.type});
		}
	}

	const notes = isIntrinsicArray(mcp.notes) ? mcp.notes.filter(note => typeof note === 'string') : [];
	return {...(mcp as unknown as McpCardMeta['mcp']), items, notes: notes as string[]};
}

function cardContent(meta: McpCardMeta['mcp'], content: readonly ContentBlock[]): TextBlock[] {
	const blockText = (index: number): string => {
		const block = content[index];
		return block !== undefined && block.type === 'text' ? block.text : '';
	};

	const rows: TextBlock[] = [];
	const say = (text: string): void => {
		rows.push({type: 'text', text});
	};

	if (meta.isError) {
		say('The server reported an error (isError):');
	}

	for (const item of meta.items) {
		say(itemText(item, blockText));
	}

	const {structured} = meta;
	if (structured !== undefined) {
		const mark = structured.conforms === undefined ? 'no output schema' : (structured.conforms ? 'conforms to the output schema' : `DOES NOT CONFORM to the output schema: ${structured.problem ?? ''}`);
		say(`structured content (${mark}):\n${pretty(blockText(structured.block))}`);
	}

	for (const note of meta.notes) {
		say(`note: ${note}`);
	}

	if (rows.length === 0) {
		say('(the tool returned no content)');
	}

	return rows;
}

function itemText(item: McpItem, blockText: (index: number) => string): string {
	switch (item.type) {
		case 'text': {
			return item.sameAsStructured === true ? 'text: the structured content as JSON (below)' : blockText(item.block);
		}

		case 'image':
		case 'audio': {
			return `${item.type} · ${item.mimeType} · ${sizeText(item.bytes)} · ${copyText(item)}`;
		}

		case 'resource_link': {
			const said = [item.title ?? item.name, item.mimeType, item.size === undefined ? undefined : sizeText(item.size)].filter(part => part !== undefined);
			return `link · ${item.uri}${said.length > 0 ? ` · ${said.join(' · ')}` : ''}${item.description === undefined ? '' : `\n${item.description}`}`;
		}

		case 'resource': {
			const head = `resource · ${item.uri}${item.mimeType === undefined ? '' : ` · ${item.mimeType}`}`;
			if (item.chars !== undefined) {
				// The model's block is the header line, then the resource's text.
				const text = blockText(item.block);
				const at = text.indexOf('\n');
				return `${head} · ${item.chars} characters\n${at < 0 ? '' : text.slice(at + 1)}`;
			}

			return `${head} · ${sizeText(item.bytes ?? 0)} · ${copyText(item)}`;
		}

		case 'other': {
			return `${item.kind} (an item type cardterm does not know): ${blockText(item.block)}`;
		}

		default: {
			return assertNever(item, 'MCP card item');
		}
	}
}

function copyText(item: {readonly path?: string; readonly problem?: string}): string {
	if (item.path !== undefined) {
		return `saved ${item.path}`;
	}

	return item.problem === undefined ? 'not saved' : `not saved: ${item.problem}`;
}

function pretty(json: string): string {
	if (json.length > PRETTY_LIMIT) {
		return json;
	}

	try {
		return JSON.stringify(JSON.parse(json), null, 2);
	} catch {
		return json;
	}
}
