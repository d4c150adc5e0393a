/**
@module An MCP tool's result, made into what the model receives (text blocks: cardterm's conversation
sends a tool's result as text) and the card's `meta`, which says what the server sent — every item,
none dropped: text, images and audio (type, size, the saved copy's path), resource links, embedded
resources, `structuredContent` (with whether it conforms to the tool's `outputSchema`) and `isError`.
Where the model received something else than the server sent (an image described, not shown; text
cut by the budget, its whole copy saved), `meta.notes` says so and the card shows it.

Pure: the bytes were saved and the schema checked by the session host before (`src/host/mcp-*`).
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import type {JsonValue} from '../../json/json-value.js';
import type {ImageBlock, TextBlock} from '../../tools/content.js';
import {sizeText} from '../../presentation/size-text.js';

/** How much text of one result the model receives, in characters (Claude Code's default cap is 25 000 tokens, ~100 000 characters). */
export const MCP_MODEL_TEXT_BUDGET = 100_000;

/** A saved copy of an item's bytes (an image, audio, a blob resource), or why it could not be saved. */
export type SavedCopy = {readonly path: string} | {readonly problem: string};

/** What the host found out before the result is made: saved copies by item index, the output check, the whole text's copy. */
export type McpResultFacts = {
	readonly server: string;
	readonly tool: string;
	readonly saved: ReadonlyMap<number, SavedCopy>;
	/** `structuredContent` checked against the tool's `outputSchema` (absent: the tool declares none). */
	readonly conformance?: {readonly conforms: true} | {readonly conforms: false; readonly problem: string};
	/** Where the whole text is, when it is longer than the budget. */
	readonly fullText?: SavedCopy;
	readonly budget?: number;
};

/** One item of the result as the card shows it; `block` is the index of its text in the result's content. */
export type McpItem =
	| {readonly type: 'text'; readonly block: number; readonly sameAsStructured?: true}
	| {readonly type: 'image' | 'audio'; readonly block: number; readonly mimeType: string; readonly bytes: number; readonly path?: string; readonly problem?: string}
	| {readonly type: 'resource_link'; readonly block: number; readonly uri: string; readonly name?: string; readonly title?: string; readonly description?: string; readonly mimeType?: string; readonly size?: number}
	| {readonly type: 'resource'; readonly block: number; readonly uri: string; readonly mimeType?: string; readonly chars?: number; readonly bytes?: number; readonly path?: string; readonly problem?: string}
	| {readonly type: 'other'; readonly block: number; readonly kind: string};

/** The card's meta of an MCP call. */
export type McpCardMeta = {
	readonly mcp: {
		readonly server: string;
		readonly tool: string;
		readonly isError: boolean;
		readonly items: readonly McpItem[];
		readonly structured?: {readonly block: number; readonly conforms?: boolean; readonly problem?: string};
		/** What the model received differs from what the server sent: said on the card. */
		readonly notes: readonly string[];
	};
};

/** The model's content and the card's meta of one result. */
/** `content`: the text blocks made here; the host adds the image blocks of images it kept in the session's attachments. */
export type McpResultParts = {readonly content: ReadonlyArray<TextBlock | ImageBlock>; readonly meta: McpCardMeta; readonly isError: boolean};

/** The bytes a base64 text decodes to (without decoding it). */
export function base64Bytes(data: string): number {
	const padding = data.endsWith('==') ? 2 : (data.endsWith('=') ? 1 : 0);
	return Math.max(0, Math.floor((data.replaceAll(/\s/g, '').length * 3) / 4) - padding);
}

/** The items of a result's `content` the host saves the bytes of (images, audio, blob resources), by index. */
export function binaryItems(result: unknown): Array<{readonly index: number; readonly data: string; readonly mimeType: string}> {
	const found: Array<{index: number; data: string; mimeType: string}> = [];
	for (const [index, item] of contentItems(result).entries()) {
		if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
			found.push({index, data: item.data, mimeType: stringOr(item.mimeType, 'application/octet-stream')});
		} else if (item.type === 'resource' && isPlainRecord(item.resource) && typeof item.resource.blob === 'string') {
			found.push({index, data: item.resource.blob, mimeType: stringOr(item.resource.mimeType, 'application/octet-stream')});
		}
	}

	return found;
}

/** All the text a result carries for the model, whole (the host saves it when it is over the budget). */
export function resultText(result: unknown): string {
	const parts: string[] = [];
	for (const item of contentItems(result)) {
		if (item.type === 'text' && typeof item.text === 'string') {
			parts.push(item.text);
		} else if (item.type === 'resource' && isPlainRecord(item.resource) && typeof item.resource.text === 'string') {
			parts.push(item.resource.text);
		}
	}

	const structured = isPlainRecord(result) ? result.structuredContent : undefined;
	if (structured !== undefined) {
		parts.push(JSON.stringify(structured) ?? '');
	}

	return parts.join('\n\n');
}

/** Make the model's content and the card's meta of `result` (a `tools/call` result, checked loosely: a server may send anything). */
export function mcpResultParts(result: unknown, facts: McpResultFacts): McpResultParts {
	const budget = facts.budget ?? MCP_MODEL_TEXT_BUDGET;
	const record = isPlainRecord(result) ? result : {};
	const isError = record.isError === true;
	const content: TextBlock[] = [];
	const items: McpItem[] = [];
	const notes: string[] = [];
	let left = budget;
	let cut = false;
	// Text the model receives, within what is left of the budget.
	const give = (text: string): number => {
		let given = text;
		if (text.length > left) {
			given = `${text.slice(0, left)}\n[cut: the model received ${left} of ${text.length} characters]`;
			cut = true;
			left = 0;
		} else {
			left -= text.length;
		}

		content.push({type: 'text', text: given});
		return content.length - 1;
	};

	const structured = record.structuredContent;
	const structuredJson = structured === undefined ? undefined : (JSON.stringify(structured) ?? 'null');
	for (const [index, item] of contentItems(result).entries()) {
		items.push(itemOf(item, index, facts, give, structuredJson));
	}

	let structuredMeta: McpCardMeta['mcp']['structured'];
	if (structuredJson !== undefined) {
		// The model gets the structured content too, unless a text item already is its JSON (the spec asks servers for one).
		const textBlock = items.find(item => item.type === 'text' && item.sameAsStructured === true)?.block;
		const block = textBlock ?? give(structuredJson);
		const {conformance} = facts;
		structuredMeta = {block, ...(conformance === undefined ? {} : {conforms: conformance.conforms}), ...(conformance?.conforms === false ? {problem: conformance.problem} : {})};
		if (conformance?.conforms === false) {
			notes.push(`the structured content does not conform to the tool's output schema: ${conformance.problem}`);
		}
	}

	if (items.some(item => item.type === 'image' || item.type === 'audio')) {
		notes.push('the model received a description of each image and audio item (type, size, saved copy), not the media');
	}

	if (cut) {
		const {fullText} = facts;
		const where = fullText === undefined ? '' : ('path' in fullText ? `; the whole text is in ${fullText.path}` : `; the whole text could not be saved: ${fullText.problem}`);
		notes.push(`the model received the first ${budget} characters of the text${where}`);
		if (fullText !== undefined && 'path' in fullText) {
			content.push({type: 'text', text: `[the whole result is in ${fullText.path}; read it in parts]`});
		}
	}

	if (content.length === 0) {
		content.push({type: 'text', text: isError ? 'the tool failed and said nothing' : 'the tool returned nothing'});
	}

	return {
		content,
		isError,
		meta: {mcp: {server: facts.server, tool: facts.tool, isError, items, ...(structuredMeta === undefined ? {} : {structured: structuredMeta}), notes}},
	};
}

type Item = Record<string, unknown> & {readonly type?: unknown};

function contentItems(result: unknown): Item[] {
	const content = isPlainRecord(result) ? result.content : undefined;
	return Array.isArray(content) ? content.filter(item => isPlainRecord(item)) as Item[] : [];
}

function itemOf(item: Item, index: number, facts: McpResultFacts, give: (text: string) => number, structuredJson: string | undefined): McpItem {
	const saved = facts.saved.get(index);
	const copy = saved === undefined ? {} : ('path' in saved ? {path: saved.path} : {problem: saved.problem});
	const copyText = saved === undefined ? 'not saved' : ('path' in saved ? `saved to ${saved.path}` : `not saved: ${saved.problem}`);
	switch (item.type) {
		case 'text': {
			const text = stringOr(item.text, '');
			const same = structuredJson !== undefined && sameJson(text, structuredJson);
			return {type: 'text', block: give(text), ...(same ? {sameAsStructured: true} : {})};
		}

		case 'image':
		case 'audio': {
			const mimeType = stringOr(item.mimeType, 'unknown type');
			const bytes = typeof item.data === 'string' ? base64Bytes(item.data) : 0;
			return {type: item.type, block: give(`[${item.type} ${mimeType}, ${sizeText(bytes)}, ${copyText}]`), mimeType, bytes, ...copy};
		}

		case 'resource_link': {
			const uri = stringOr(item.uri, '');
			const fields = pick(item, ['name', 'title', 'description', 'mimeType']);
			const size = typeof item.size === 'number' && Number.isFinite(item.size) ? item.size : undefined;
			const said = [fields.title ?? fields.name, fields.mimeType, size === undefined ? undefined : sizeText(size), fields.description].filter(part => part !== undefined);
			return {type: 'resource_link', block: give(`[resource link ${uri}${said.length > 0 ? ` (${said.join(', ')})` : ''}]`), uri, ...fields, ...(size === undefined ? {} : {size})};
		}

		case 'resource': {
			const resource: Record<string, unknown> = isPlainRecord(item.resource) ? item.resource : {};
			const uri = stringOr(resource.uri, '');
			const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
			const typed = mimeType === undefined ? {} : {mimeType};
			if (typeof resource.text === 'string') {
				return {type: 'resource', block: give(`[resource ${uri}${mimeType === undefined ? '' : ` (${mimeType})`}]\n${resource.text}`), uri, ...typed, chars: resource.text.length};
			}

			const bytes = typeof resource.blob === 'string' ? base64Bytes(resource.blob) : 0;
			return {type: 'resource', block: give(`[resource ${uri} (${mimeType ?? 'binary'}, ${sizeText(bytes)}, ${copyText})]`), uri, ...typed, bytes, ...copy};
		}

		default: {
			// A newer server's item: named, its fields given as JSON (the card says what it is).
			const kind = typeof item.type === 'string' ? item.type : 'unknown';
			return {type: 'other', block: give(`[${kind}] ${JSON.stringify(item)}`), kind};
		}
	}
}

function sameJson(text: string, json: string): boolean {
	if (text === json) {
		return true;
	}

	if (text.length > 4 * json.length + 1000) {
		return false;
	}

	try {
		return JSON.stringify(JSON.parse(text)) === json;
	} catch {
		return false;
	}
}

function pick<K extends string>(item: Item, keys: readonly K[]): Partial<Record<K, string>> {
	const picked: Partial<Record<K, string>> = {};
	for (const key of keys) {
		const value = item[key];
		if (typeof value === 'string' && value !== '') {
			picked[key] = value;
		}
	}

	return picked;
}

function stringOr(value: unknown, fallback: string): string {
	return typeof value === 'string' ? value : fallback;
}

/** The meta as JSON (its fields are JSON already). */
export function metaJson(meta: McpCardMeta): JsonValue {
	return meta as unknown as JsonValue;
}
