/**
@module One MCP server's tool as a registry tool (`mcp__SERVER__TOOL`), so the pipeline, the policy,
the approvals and the log apply as to every tool. Its body checks the arguments against the tool's
input schema, calls the server (cancellation sends `notifications/cancelled`, progress notifications
become the card's progress row, the call has a time limit), saves the bytes of images, audio and
blobs and the whole text of a result over the model's budget beside the session's log, and makes the
result into the model's text and the card's meta (`mcp-result.ts`). A result the server marks
`isError` is a failed call that keeps everything it said (`ToolResultError`).
*/
import {randomBytes} from 'node:crypto';
import {mkdir, open} from 'node:fs/promises';
import {join} from 'node:path';
import type {Client, JsonSchemaValidator, Progress, Tool} from '@modelcontextprotocol/client';
import {z} from 'zod';
import {ToolAbortError} from '../builtin/bash/abort-error.js';
import {mcpPresenter} from '../builtin/mcp/mcp-card.js';
import {binaryItems, mcpResultParts, MCP_MODEL_TEXT_BUDGET, metaJson, resultText, type McpCardMeta, type McpResultParts, type SavedCopy} from '../builtin/mcp/mcp-result.js';
import type {JsonValue} from '../json/json-value.js';
import {valueSchemaSpecToJsonSchema} from '../schema/compile-spec.js';
import type {ContentBlock, ImageAttachment} from '../tools/content.js';
import {attachImageBytes, isImageRefusal, type AttachmentStore} from '../session/store/image-attachments.js';
import {ToolArgsError, ToolResultError} from '../tools/errors.js';
import type {ToolDefinition, ToolRunContext} from '../tools/types.js';

/** What a tool's body needs of its server at call time. */
export type McpToolHost = {
	readonly server: string;
	/** The connected client, or why there is none (the call fails saying it). */
	client(): Client | string;
	/** A call's limit, ms. */
	readonly timeoutMs: number;
	/** Where saved copies go (created on first use). */
	readonly saveDir: string;
	/** The session's attachments: an image result is kept there too, and goes to a model that takes images as an image part. */
	readonly attachments?: AttachmentStore;
	/** Requests of the server's that cardterm refused while this call ran (sampling, elicitation): noted on its card. */
	refusalsSince(mark: number): readonly string[];
	refusalMark(): number;
};

/** A tool as listed, with its schemas compiled (a tool whose input schema does not compile is never made). */
export type CompiledMcpTool = {
	readonly tool: Tool;
	readonly validateInput: JsonSchemaValidator<unknown>;
	/** Absent: no output schema; a string: it did not compile (the card says so). */
	readonly validateOutput?: JsonSchemaValidator<unknown> | string;
};

const anyValue = valueSchemaSpecToJsonSchema({type: 'json'});
/** A `tools/call` result as the server sent it: an object, its items checked by `mcp-result.ts`. */
const looseResult = z.looseObject({});

/** The registry tool `name` for `compiled`, calling through `host`. */
export function mcpToolDefinition(name: string, compiled: CompiledMcpTool, host: McpToolHost): ToolDefinition {
	const {tool} = compiled;
	const presenter = mcpPresenter(name);
	const description = tool.description ?? tool.title ?? tool.annotations?.title ?? `${tool.name} (MCP server ${host.server})`;
	return {
		name,
		description,
		parameters: tool.inputSchema as Record<string, unknown>,
		timeoutMs: host.timeoutMs,
		output: {
			schema: anyValue,
			render: (_args, value) => (value as {content: ContentBlock[]}).content,
			presentationMeta: (_args, value) => (value as {meta: JsonValue}).meta,
		},
		async execute(args: unknown, exec: ToolRunContext) {
			const client = host.client();
			if (typeof client === 'string') {
				throw new Error(`MCP server "${host.server}" is not connected: ${client}`);
			}

			const input = args ?? {};
			const checked = compiled.validateInput(input);
			if (!checked.valid || typeof input !== 'object' || Array.isArray(input)) {
				throw new ToolArgsError([checked.errorMessage ?? 'arguments must be an object']);
			}

			const mark = host.refusalMark();
			let result: Record<string, unknown>;
			try {
				// Read loosely, not through `callTool`: the SDK throws a whole result away for one item of a type it
				// does not know, or structured content that breaks the output schema; the card shows and marks them.
				result = await client.request({method: 'tools/call', params: {name: tool.name, arguments: input as Record<string, unknown>}}, looseResult, {
					signal: exec.signal,
					timeout: host.timeoutMs,
					maxTotalTimeout: host.timeoutMs,
					onprogress: progress => {
						exec.progress({kind: 'output', stream: 'stdout', text: progressLine(progress)});
					},
				});
			} catch (error) {
				if (exec.signal.aborted) {
					// The SDK has sent the server notifications/cancelled; the card is a cancelled one.
					throw new ToolAbortError();
				}

				throw new Error(callFailure(host, tool.name, error));
			}

			const parts = await resultParts(result, compiled, host, exec.callId);
			const refused = host.refusalsSince(mark);
			const meta: McpCardMeta = refused.length === 0 ? parts.meta : {mcp: {...parts.meta.mcp, notes: [...parts.meta.mcp.notes, ...refused]}};
			if (parts.isError) {
				throw new ToolResultError(`MCP server "${host.server}": ${tool.name} reported an error`, parts.content, metaJson(meta));
			}

			return {content: parts.content, meta: metaJson(meta)} as unknown as JsonValue;
		},
		presentCall: args => presenter.presentCall?.(args),
		presentResult: (args, result) => presenter.presentResult?.(args, result),
	};
}

async function resultParts(result: Record<string, unknown>, compiled: CompiledMcpTool, host: McpToolHost, callId: string): Promise<McpResultParts> {
	const saved = new Map<number, SavedCopy>();
	const stem = `${callId.replaceAll(/[^\w.-]/g, '_')}-${randomBytes(3).toString('hex')}`;
	for (const item of binaryItems(result)) {
		// eslint-disable-next-line no-await-in-loop -- a result holds a few items; written in order
		saved.set(item.index, await saveCopy(host.saveDir, `${stem}-${item.index}${extension(item.mimeType)}`, Buffer.from(item.data, 'base64')));
	}

	const text = resultText(result);
	const fullText = text.length > MCP_MODEL_TEXT_BUDGET ? await saveCopy(host.saveDir, `${stem}.txt`, text) : undefined;
	const parts = mcpResultParts(result, {server: host.server, tool: compiled.tool.name, saved, ...(fullText === undefined ? {} : {fullText}), ...conformanceOf(result, compiled)});
	const images = await attachedImages(result, compiled.tool.name, host);
	if (images.length === 0) {
		return parts;
	}

	// The description stays in the text (a text-only model, or a wire whose tool results take text only, reads that).
	const also = `${images.length === 1 ? 'the image' : `${images.length} images`} also as ${images.length === 1 ? 'an image' : 'images'} where the model and its wire take them (Anthropic, Gemini, the Responses API)`;
	const notes = parts.meta.mcp.notes.map(note => note.startsWith(DESCRIBED) ? `${DESCRIBED}; ${also}` : note);
	return {...parts, content: [...parts.content, ...images.map(attachment => ({type: 'image' as const, attachment}))], meta: {mcp: {...parts.meta.mcp, notes}}};
}

/** The note of `mcp-result.ts` that says the model got a description of the media. */
const DESCRIBED = 'the model received a description of each image and audio item (type, size, saved copy)';

/** The result's images that are images (PNG, JPEG, GIF, WebP up to the cap), kept in the session's attachments. */
async function attachedImages(result: Record<string, unknown>, tool: string, host: McpToolHost): Promise<ImageAttachment[]> {
	const {attachments} = host;
	const images: ImageAttachment[] = [];
	for (const item of attachments === undefined ? [] : binaryItems(result)) {
		const content = Array.isArray(result.content) ? result.content[item.index] as {type?: unknown} | undefined : undefined;
		if (content?.type !== 'image') {
			continue;
		}

		// eslint-disable-next-line no-await-in-loop -- a result holds a few items; kept in order
		const attached = await attachImageBytes(Buffer.from(item.data, 'base64'), `${tool}-${item.index}`, attachments!);
		if (!isImageRefusal(attached)) {
			images.push(attached);
		}
	}

	return images;
}

function conformanceOf(result: Record<string, unknown>, compiled: CompiledMcpTool): {conformance?: {conforms: true} | {conforms: false; problem: string}} {
	const {validateOutput} = compiled;
	if (validateOutput === undefined || result.structuredContent === undefined || result.isError === true) {
		return {};
	}

	if (typeof validateOutput === 'string') {
		return {conformance: {conforms: false, problem: `the output schema does not compile (${validateOutput}), so nothing can conform to it`}};
	}

	const checked = validateOutput(result.structuredContent);
	return {conformance: checked.valid ? {conforms: true} : {conforms: false, problem: checked.errorMessage}};
}

async function saveCopy(folder: string, file: string, data: Buffer | string): Promise<SavedCopy> {
	const path = join(folder, file);
	try {
		await mkdir(folder, {recursive: true, mode: 0o700});
		const handle = await open(path, 'wx', 0o600);
		try {
			await handle.writeFile(data);
		} finally {
			await handle.close();
		}

		return {path};
	} catch (error) {
		return {problem: (error as Error).message};
	}
}

/** A file extension for a MIME type cardterm can name, else none. */
function extension(mimeType: string): string {
	const known: Record<string, string> = {'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'image/svg+xml': '.svg', 'audio/wav': '.wav', 'audio/x-wav': '.wav', 'audio/mpeg': '.mp3', 'audio/ogg': '.ogg', 'application/pdf': '.pdf', 'application/gzip': '.gz', 'text/plain': '.txt', 'application/json': '.json'};
	return known[mimeType.toLowerCase()] ?? '.bin';
}

/** `[3/10] message`: one progress notification as a row of the running card. */
function progressLine(progress: Progress): string {
	const total = typeof progress.total === 'number' ? `/${progress.total}` : '';
	const message = typeof progress.message === 'string' && progress.message !== '' ? ` ${progress.message}` : '';
	return `[${progress.progress}${total}]${message}\n`;
}

/** Why a call failed, naming the server: a timeout says the limit, a dead server its exit. */
function callFailure(host: McpToolHost, tool: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	if (/timed? ?out/i.test(message)) {
		return `MCP server "${host.server}": ${tool} did not answer within ${Math.round(host.timeoutMs / 1000)} s (cancelled; the limit is "timeoutMs" in its config)`;
	}

	return `MCP server "${host.server}": ${tool} failed: ${message}`;
}
