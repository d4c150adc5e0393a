/**
@module The one module that knows the model library (the Vercel AI SDK, `ai` + provider packages):
it resolves `PROVIDER:MODEL` (or `--base-url` → an OpenAI-compatible server) with the key from
the provider's usual variable, and turns the SDK's stream into `ModelStreamPart`s. Retries are the
loop's (the provider interface does not retry), so each one is logged as `llm/retry`.
*/
import type {LanguageModel} from 'ai';
import type {JsonValue} from '../json/json-value.js';
import {assertNever} from '../presentation/assert-never.js';
import {readArgumentsText} from '../tools/call-arguments.js';
import type {ToolSchema} from '../tools/types.js';
import {errorFacts} from './error-facts.js';
import {modelLimits, modelTakesImages} from './model-catalog.js';
import {classifyModelError, serverRetryDelayMs} from './model-errors.js';
import type {AssistantPart, ConversationMessage, ModelClient, ModelError, ModelFinishReason, ModelUsage, ProviderMetadata} from './model-types.js';

/** A model that cannot be set up (unknown provider, missing key); its message is the one line a person sees. */
export class ModelConfigError extends Error {
	override readonly name = 'ModelConfigError';
}

/** The provider packages of the SDK; a session loads the one its model needs. */
type Packages = {
	readonly anthropic: typeof import('@ai-sdk/anthropic');
	readonly google: typeof import('@ai-sdk/google');
	readonly openai: typeof import('@ai-sdk/openai');
	readonly compatible: typeof import('@ai-sdk/openai-compatible');
};
type PackageName = keyof Packages;

const importers: {readonly [Name in PackageName]: () => Promise<Packages[Name]>} = {
	anthropic: async () => import('@ai-sdk/anthropic'),
	google: async () => import('@ai-sdk/google'),
	openai: async () => import('@ai-sdk/openai'),
	compatible: async () => import('@ai-sdk/openai-compatible'),
};

let ai: Promise<typeof import('ai')> | undefined;
/** The SDK once it is loaded (an `APICallError` can only come from it). */
let loadedAi: typeof import('ai') | undefined;
const packages = new Map<PackageName, Promise<unknown>>();

/**
The SDK (zod, OpenTelemetry, the providers: ~180 modules, chunks of the bundle): imported when a model is first asked,
not at start-up, so the prompt is drawn without waiting for them (issue 16's launch → prompt); and
only the provider package of the session's model, not all four (about 35 ms and 5 MB less).
*/
async function loadPackage<Name extends PackageName>(name: Name): Promise<Packages[Name]> {
	ai ??= import('ai').then(loaded => {
		loadedAi = loaded;
		return loaded;
	});
	let loading = packages.get(name) as Promise<Packages[Name]> | undefined;
	if (loading === undefined) {
		loading = importers[name]();
		packages.set(name, loading);
	}

	const [, loaded] = await Promise.all([ai, loading]);
	return loaded;
}

/** Start loading the SDK for `model` now (a session with a model, once its prompt is drawn), so the first request need not wait for it. */
export function preloadModelLibrary(model: ModelClient): void {
	// A failure to load is the first request's to report, as an error part.
	model.preload?.().catch(() => undefined);
}

/**
The wire a model speaks: it decides the SDK package, and what of the conversation is sent back
(`promptPolicy`). Several providers share one (DeepSeek, OpenRouter and Ollama speak `compatible`).
*/
export type Wire = 'anthropic' | 'google' | 'openai-chat' | 'openai-responses' | 'compatible';

type ProviderSpec = {
	readonly keyVariables: readonly string[];
	readonly needsKey: boolean;
	/** The provider's own server, when `--base-url` or the config names no other. */
	readonly baseUrl: (env: NodeJS.ProcessEnv) => string | undefined;
	readonly wire: (model: string) => Wire;
};

/**
`fetch` with a JSON text body sent as its UTF-8 bytes. The SDK posts the whole conversation as a
string on every request, and undici's string path (a well-formed-UTF-16 pass, then an encoder) cost
more than the serialisation itself as the conversation grew (`bench/agent-overhead.mjs --calls 2000`).
*/
export const bytesBodyFetch = (inner: typeof fetch = globalThis.fetch): typeof fetch => async (input, init) =>
	inner(input, typeof init?.body === 'string' ? {...init, body: Buffer.from(init.body, 'utf8')} : init);

/**
OpenAI models that exist only on the Responses API (a 404 on Chat Completions): the Codex models,
the `-pro` reasoning models, deep research and computer use. `openai-responses:MODEL` forces the wire.
*/
const RESPONSES_ONLY = [/codex/, /^(o1|o3|gpt-5(\.\d+)?)-pro(\b|-)/, /deep-research/, /^computer-use/];
const openaiWire = (model: string): Wire => RESPONSES_ONLY.some(pattern => pattern.test(model)) ? 'openai-responses' : 'openai-chat';

/** The providers `--model PROVIDER:MODEL` knows. */
const providers: Readonly<Record<string, ProviderSpec>> = {
	openai: {keyVariables: ['OPENAI_API_KEY'], needsKey: true, baseUrl: () => undefined, wire: openaiWire},
	anthropic: {keyVariables: ['ANTHROPIC_API_KEY'], needsKey: true, baseUrl: () => undefined, wire: () => 'anthropic'},
	google: {keyVariables: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'], needsKey: true, baseUrl: () => undefined, wire: () => 'google'},
	deepseek: {keyVariables: ['DEEPSEEK_API_KEY'], needsKey: true, baseUrl: () => 'https://api.deepseek.com/v1', wire: () => 'compatible'},
	openrouter: {keyVariables: ['OPENROUTER_API_KEY'], needsKey: true, baseUrl: () => 'https://openrouter.ai/api/v1', wire: () => 'compatible'},
	'openai-responses': {keyVariables: ['OPENAI_API_KEY'], needsKey: true, baseUrl: () => undefined, wire: () => 'openai-responses'},
	ollama: {keyVariables: [], needsKey: false, baseUrl: env => `${(env.OLLAMA_HOST ?? 'http://127.0.0.1:11434').replace(/\/+$/, '')}/v1`, wire: () => 'compatible'},
};
const aliases: Readonly<Record<string, string>> = {gemini: 'google'};

/** Provider names for messages and help. */
export const PROVIDER_NAMES: readonly string[] = Object.keys(providers);

/** Every variable a provider's key is read from (an OpenAI-compatible server's is `OPENAI_API_KEY`): secrets of the session. */
export const PROVIDER_KEY_VARIABLES: readonly string[] = [...new Set(Object.values(providers).flatMap(provider => provider.keyVariables))];

/** Per-provider settings (the config module's `providers`): a gateway's base URL, and the variable its key is read from. */
type ProviderSettings = {readonly [provider: string]: {readonly baseUrl?: string; readonly apiKeyEnv?: string}};

export type ModelOptions = {
	/** `PROVIDER:MODEL`, or just the model's name with `baseUrl`. */
	readonly spec: string;
	/**
	`--base-url`: with a known provider (`anthropic:claude-…`), that provider's server (a gateway or
	proxy), speaking its own wire with its own key; with a bare model name, an OpenAI-compatible
	server whose key, if any, is `OPENAI_API_KEY`.
	*/
	readonly baseUrl?: string;
	/** Per-provider base URLs and key variables (from the config); `baseUrl` wins over them. */
	readonly providers?: ProviderSettings;
	readonly env: NodeJS.ProcessEnv;
};

/** Resolve a model; throws `ModelConfigError` with one clear line. Nothing is contacted (or loaded) yet. */
export function resolveModel(options: ModelOptions): ModelClient {
	// The SDK's warning log writes to the console, which belongs to the screen here.
	(globalThis as {AI_SDK_LOG_WARNINGS?: boolean}).AI_SDK_LOG_WARNINGS = false;
	const spec = options.spec.trim();
	const colon = spec.indexOf(':');
	const prefix = colon < 0 ? '' : spec.slice(0, colon).toLowerCase();
	const known = aliases[prefix] ?? (prefix in providers || prefix === 'openai-compatible' ? prefix : undefined);
	const baseUrl = options.baseUrl === undefined ? undefined : checkedUrl(options.baseUrl, '--base-url');
	if (known === undefined || known === 'openai-compatible') {
		if (baseUrl === undefined) {
			if (colon <= 0 || colon === spec.length - 1) {
				throw new ModelConfigError(`--model needs PROVIDER:MODEL (for example openai:gpt-4.1), got "${spec}"; providers: ${PROVIDER_NAMES.join(', ')}, or --base-url URL for an OpenAI-compatible server`);
			}

			throw new ModelConfigError(`unknown model provider "${spec.slice(0, colon)}"; providers: ${PROVIDER_NAMES.join(', ')}, or --base-url URL for an OpenAI-compatible server`);
		}

		// Local model names may hold colons (`qwen2.5:7b`): only a known provider prefix is dropped.
		const model = known === undefined ? spec : spec.slice(colon + 1);
		if (model === '') {
			throw new ModelConfigError('--model needs the model\'s name with --base-url');
		}

		return {...sdkClient('openai-compatible', model, 'compatible', {baseUrl, key: nonEmpty(options.env.OPENAI_API_KEY)}), keyVariable: 'OPENAI_API_KEY'};
	}

	const model = spec.slice(colon + 1);
	if (model === '') {
		throw new ModelConfigError(`--model needs PROVIDER:MODEL (for example openai:gpt-4.1), got "${spec}"`);
	}

	const provider = providers[known]!;
	const settings = options.providers?.[known] ?? (known === 'openai-responses' ? options.providers?.openai : undefined);
	const keyVariables = settings?.apiKeyEnv === undefined ? provider.keyVariables : [settings.apiKeyEnv];
	const keyVariable = keyVariables.find(name => nonEmpty(options.env[name]) !== undefined);
	const key = keyVariable === undefined ? undefined : options.env[keyVariable];
	if (provider.needsKey && key === undefined) {
		throw new ModelConfigError(`no API key for ${known}: set ${keyVariables.join(' or ')}`);
	}

	const url = baseUrl ?? (settings?.baseUrl === undefined ? provider.baseUrl(options.env) : checkedUrl(settings.baseUrl, `the ${known} base URL`));
	// `openai-responses:` names the wire, not another provider: the log says `openai`.
	const client = sdkClient(known === 'openai-responses' ? 'openai' : known, model, provider.wire(model), {...(url === undefined ? {} : {baseUrl: url}), ...(key === undefined ? {} : {key})});
	return keyVariable === undefined ? client : {...client, keyVariable};
}

function checkedUrl(text: string, what: string): string {
	try {
		return new URL(text).href.replace(/\/+$/, '');
	} catch {
		throw new ModelConfigError(`${what} ${text} is not a URL (e.g. http://127.0.0.1:8080/v1)`);
	}
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}

/** The SDK model of `model` on `wire`, at `baseUrl` (else the provider's own server). */
async function createModel(provider: string, model: string, wire: Wire, connection: Connection): Promise<LanguageModel> {
	const common = {fetch: bytesBodyFetch(), ...(connection.baseUrl === undefined ? {} : {baseURL: connection.baseUrl}), ...(connection.key === undefined ? {} : {apiKey: connection.key})};
	switch (wire) {
		case 'anthropic': {
			return (await loadPackage('anthropic')).createAnthropic(common)(model);
		}

		case 'google': {
			return (await loadPackage('google')).createGoogleGenerativeAI(common)(model);
		}

		case 'openai-chat': {
			return (await loadPackage('openai')).createOpenAI(common).chat(model);
		}

		case 'openai-responses': {
			return (await loadPackage('openai')).createOpenAI(common).responses(model);
		}

		case 'compatible': {
			return (await loadPackage('compatible')).createOpenAICompatible({name: provider, baseURL: connection.baseUrl ?? '', includeUsage: true, ...common}).chatModel(model);
		}

		default: {
			return assertNever(wire);
		}
	}
}

type Connection = {readonly baseUrl?: string; readonly key?: string};

/** A provider's streaming model (the SDK's `LanguageModelV3`), as the providers' factories return it. */
type StreamingModel = Extract<Exclude<LanguageModel, string>, {readonly specificationVersion: 'v3'}>;
type CallOptions = Parameters<StreamingModel['doStream']>[0];
type ProviderPart = Awaited<ReturnType<StreamingModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/**
A `ModelClient` over one SDK model, made on the first request. It calls the provider's `doStream` itself rather than
`streamText`: one step per request is all the loop asks for, and `streamText` re-validates the
whole conversation against its schemas on every request — work that grows with the session (it
was most of cardterm's per-call cost in `bench/agent-overhead.mjs`).
*/
function sdkClient(provider: string, model: string, wire: Wire, connection: Connection): ModelClient {
	let made: Promise<StreamingModel> | undefined;
	const streamingModel = async (): Promise<StreamingModel> => {
		made ??= createModel(provider, model, wire, connection).then(created => {
			if (typeof created === 'string' || created.specificationVersion !== 'v3') {
				throw new ModelConfigError(`${provider}:${model}: the provider's model does not stream in the supported interface`);
			}

			return created;
		});
		return made;
	};

	const maxOutputTokens = modelLimits(model)?.maxOutputTokens;
	return {
		provider,
		model,
		preload: streamingModel,
		async * stream(request) {
			const options: CallOptions = {
				prompt: toPrompt(request.system, request.messages, wire, modelTakesImages(model) !== false),
				tools: toolDefinitions(request.tools, wire),
				abortSignal: request.signal,
				...(maxOutputTokens === undefined ? {} : {maxOutputTokens}),
				...(wire === 'openai-responses' ? {providerOptions: RESPONSES_OPTIONS} : {}),
			};
			// Raw argument text per call, as the model streamed it.
			const argumentsById = new Map<string, string>();
			// Calls the provider runs itself: their input is not a client call's.
			const providerCalls = new Set<string>();
			try {
				const {stream} = await (await streamingModel()).doStream(options);
				// Node's web streams are async iterable; the DOM typings the SDK uses do not say so.
				for await (const part of stream as unknown as AsyncIterable<ProviderPart>) {
					switch (part.type) {
						case 'text-start':
						case 'text-end':
						case 'reasoning-start':
						case 'reasoning-end': {
							yield {type: part.type, id: part.id, ...metadataOf(part.providerMetadata)};
							break;
						}

						case 'text-delta':
						case 'reasoning-delta': {
							yield {type: part.type, id: part.id, text: part.delta, ...metadataOf(part.providerMetadata)};
							break;
						}

						case 'tool-input-start': {
							if (part.providerExecuted === true) {
								providerCalls.add(part.id);
								break;
							}

							argumentsById.set(part.id, '');
							yield {type: 'tool-input-start', id: part.id, name: part.toolName};
							break;
						}

						case 'tool-input-delta': {
							if (providerCalls.has(part.id)) {
								break;
							}

							argumentsById.set(part.id, (argumentsById.get(part.id) ?? '') + part.delta);
							yield {type: 'tool-input-delta', id: part.id, delta: part.delta};
							break;
						}

						case 'tool-call': {
							if (part.providerExecuted === true) {
								yield {type: 'provider-tool-call', id: part.toolCallId, name: part.toolName, arguments: part.input};
								break;
							}

							const streamed = argumentsById.get(part.toolCallId);
							yield {type: 'tool-call', id: part.toolCallId, name: part.toolName, arguments: streamed !== undefined && streamed !== '' ? streamed : part.input, ...metadataOf(part.providerMetadata)};
							break;
						}

						case 'tool-result': {
							yield {type: 'provider-tool-result', id: part.toolCallId, name: part.toolName, result: jsonOf(part.result), isError: part.isError === true};
							break;
						}

						case 'finish': {
							const detail = finishDetail(part.providerMetadata);
							yield {type: 'finish', reason: finishReason(part.finishReason.unified), usage: usageOf(part.usage), ...(part.finishReason.raw === undefined ? {} : {raw: part.finishReason.raw}), ...(detail === undefined ? {} : {detail})};
							break;
						}

						case 'error': {
							yield {type: 'error', error: modelError(part.error, true)};
							return;
						}

						default: {
							break;
						}
					}
				}
			} catch (error) {
				if (!request.signal.aborted) {
					yield {type: 'error', error: modelError(error)};
				}
			}
		},
	};
}

/**
The Responses API used statelessly: nothing is stored at OpenAI, so each request carries the
conversation, reasoning items included as the encrypted content the SDK then asks for
(`include: ['reasoning.encrypted_content']`); reasoning summaries stream as reasoning.
*/
const RESPONSES_OPTIONS = {openai: {store: false, reasoningSummary: 'auto'}} as const;

/** The SDK's provider metadata as ours (JSON only), or nothing. */
function metadataOf(metadata: unknown): {providerMetadata?: ProviderMetadata} {
	if (typeof metadata !== 'object' || metadata === null || Object.keys(metadata).length === 0) {
		return {};
	}

	return {providerMetadata: jsonOf(metadata) as ProviderMetadata};
}

/** A value from the SDK as JSON (a provider result may hold `undefined` fields). */
function jsonOf(value: unknown): JsonValue {
	try {
		return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
	} catch {
		return null;
	}
}

type PromptMessage = CallOptions['prompt'][number];
type AssistantContent = Extract<PromptMessage, {role: 'assistant'}>['content'];
type ToolResultPart = Extract<Extract<PromptMessage, {role: 'tool'}>['content'][number], {type: 'tool-result'}>;

/** Anthropic's cache breakpoint; `ephemeral` is its 5-minute cache. */
const CACHE_BREAKPOINT = {anthropic: {cacheControl: {type: 'ephemeral'}}} as const;

/**
The tools in the provider interface's shape. Anthropic caches the tool definitions, the first
part of every request, up to a breakpoint on the last one.
*/
function toolDefinitions(tools: readonly ToolSchema[], wire: Wire): CallOptions['tools'] {
	return tools.map((schema, index) => ({
		type: 'function' as const,
		name: schema.name,
		description: schema.description,
		inputSchema: schema.parameters as never,
		...(wire === 'anthropic' && index === tools.length - 1 ? {providerOptions: CACHE_BREAKPOINT} : {}),
	}));
}

/**
The wires whose tool results carry images (Anthropic's tool_result blocks, Gemini's function
responses, the Responses API's function_call_output): an MCP tool's image reaches the model there.
Chat Completions' tool messages take text only, so there the result's text (which describes each
image) is all the model gets.
*/
const TOOL_RESULT_IMAGES: ReadonlySet<Wire> = new Set(['anthropic', 'google', 'openai-responses']);

/**
Each message's prompt form, made once per wire: a message never changes once it is in the
conversation, and rebuilding every one (parsing every call's arguments again) on every request grew
with the session.
*/
const promptForms = new WeakMap<ConversationMessage, {readonly wire: Wire; readonly images: boolean; readonly form: PromptMessage | ToolResultPart}>();

/**
Our conversation in the provider interface's prompt shape, for `wire`. The results of one step's
calls travel as one message (Gemini refuses N calls answered by N contents: it wants one content
with N function responses; the others send each result on its own either way). For Anthropic, cache
breakpoints sit on the system prompt, the last message and the end of the previous request's
conversation (the message before the newest answer), so each step reads what the last one wrote;
the bytes of the rest never change, so providers that cache a prefix implicitly hit it too.
*/
export function toPrompt(system: string, messages: readonly ConversationMessage[], wire: Wire = 'compatible', images = true): CallOptions['prompt'] {
	const prompt: PromptMessage[] = [{role: 'system', content: system, ...(wire === 'anthropic' ? {providerOptions: CACHE_BREAKPOINT} : {})}];
	for (const [index, message] of messages.entries()) {
		let made = promptForms.get(message);
		if (made?.wire !== wire || made.images !== images) {
			made = {wire, images, form: promptMessage(message, wire, messages[index - 1], images)};
			promptForms.set(message, made);
		}

		const {form} = made;
		if ('role' in form) {
			prompt.push(form);
			continue;
		}

		const last = prompt.at(-1)!;
		if (last.role === 'tool' && messages[index - 1]?.role === 'tool') {
			last.content.push(form);
		} else {
			prompt.push({role: 'tool', content: [form]});
		}
	}

	if (wire === 'anthropic') {
		markCacheBreakpoints(prompt);
	}

	return prompt;
}

function markCacheBreakpoints(prompt: PromptMessage[]): void {
	const lastAnswer = prompt.findLastIndex(message => message.role === 'assistant');
	const marks = new Set([prompt.length - 1, lastAnswer - 1].filter(index => index > 0));
	for (const index of marks) {
		// A copy: the message's form is shared with later requests, which mark other messages.
		prompt[index] = {...prompt[index]!, providerOptions: CACHE_BREAKPOINT} as PromptMessage;
	}
}

function promptMessage(message: ConversationMessage, wire: Wire, previous: ConversationMessage | undefined, images: boolean): PromptMessage | ToolResultPart {
	switch (message.role) {
		case 'user': {
			// The person's images follow their words: file parts of an image type, which each provider package sends as its image part.
			const images = (message.images ?? []).map(image => ({type: 'file' as const, data: image.data, mediaType: image.attachment.mediaType}));
			return {role: 'user', content: [...(message.text === '' && images.length > 0 ? [] : [{type: 'text' as const, text: message.text}]), ...images]};
		}

		case 'assistant': {
			const content: AssistantContent = [];
			const reasoning = sendsReasoning(wire, message, previous);
			for (const part of message.content) {
				const metadata = sentMetadata(part.providerMetadata);
				const options = metadata === undefined ? {} : {providerOptions: metadata as never};
				if (part.type === 'tool-call') {
					content.push({type: 'tool-call', toolCallId: part.id, toolName: part.name, input: callInput(part.arguments), ...options});
				} else if (part.type === 'text' ? part.text !== '' || part.providerMetadata !== undefined : reasoning(part)) {
					content.push({type: part.type, text: part.text, ...options});
				}
			}

			return {role: 'assistant', content};
		}

		case 'tool': {
			const shown = images && !message.isError && TOOL_RESULT_IMAGES.has(wire) ? message.images ?? [] : [];
			if (shown.length > 0) {
				const parts = shown.map(image => ({type: 'image-data' as const, data: Buffer.from(image.data).toString('base64'), mediaType: image.attachment.mediaType}));
				return {type: 'tool-result', toolCallId: message.callId, toolName: message.name, output: {type: 'content', value: [{type: 'text', text: message.text}, ...parts]}};
			}

			return {type: 'tool-result', toolCallId: message.callId, toolName: message.name, output: message.isError ? {type: 'error-text', value: message.text} : {type: 'text', value: message.text}};
		}

		default: {
			return assertNever(message);
		}
	}
}

/**
What of a block's metadata goes back: all but Anthropic's citations, which point into search
results the conversation does not carry (the provider's own tools are not sent back).
*/
function sentMetadata(metadata: ProviderMetadata | undefined): ProviderMetadata | undefined {
	if (metadata?.anthropic?.citations === undefined) {
		return metadata;
	}

	const {citations: _citations, ...anthropic} = metadata.anthropic;
	const rest = Object.fromEntries(Object.entries(metadata).filter(([provider]) => provider !== 'anthropic'));
	const sent = Object.keys(anthropic).length === 0 ? rest : {...rest, anthropic};
	return Object.keys(sent).length === 0 ? undefined : sent;
}

type ReasoningPart = Exclude<AssistantPart, {type: 'tool-call'}>;

/**
Which reasoning of an earlier step goes back, per wire:
- `compatible` (DeepSeek, Kimi, Qwen, …): the reasoning of a turn that called tools, as
  `reasoning_content` — DeepSeek's thinking mode refuses a tool-calling assistant message without
  it ("Missing `reasoning_content` field…"), and its docs say reasoning of a turn without tool calls
  is ignored, so that is left out. A step is in such a turn when it calls tools or answers results.
- `anthropic`: every thinking block with its signature (or redacted data) — required for the
  assistant turn that called tools while thinking is on; the API drops older ones itself.
- `google`: only parts that carry a thought signature; thought summaries are not read back.
- `openai-responses`: reasoning items (their id and encrypted content), which the stateless
  Responses API needs to continue a tool loop's reasoning.
- `openai-chat`: none (the Chat API has no field for it).
*/
function sendsReasoning(wire: Wire, message: Extract<ConversationMessage, {role: 'assistant'}>, previous: ConversationMessage | undefined): (part: ReasoningPart) => boolean {
	switch (wire) {
		case 'compatible': {
			const toolTurn = previous?.role === 'tool' || message.content.some(part => part.type === 'tool-call');
			return part => toolTurn && part.text !== '';
		}

		case 'anthropic': {
			return part => part.providerMetadata?.anthropic !== undefined;
		}

		case 'google': {
			return part => part.providerMetadata?.google?.thoughtSignature !== undefined;
		}

		case 'openai-responses': {
			return part => part.providerMetadata?.openai !== undefined;
		}

		case 'openai-chat': {
			return () => false;
		}

		default: {
			return assertNever(wire);
		}
	}
}

/**
A call's arguments as sent back: parsed; `{}` when they were not JSON or passed the bounds of
`call-arguments.ts` (Anthropic and Gemini refuse a call whose input is not an object, the SDK's
`JSON.stringify` of a value nested thousands deep overflows the stack, and the call's result
already tells the model what it wrote and where it broke — `call-refusals.ts`).
*/
function callInput(raw: string): unknown {
	const read = readArgumentsText(raw);
	return read.ok ? read.value : {};
}

function finishReason(reason: string): ModelFinishReason {
	return reason === 'tool-calls' || reason === 'stop' || reason === 'length' || reason === 'content-filter' || reason === 'error' ? reason : 'other';
}

/**
What the provider said about why it stopped, when it said something: Anthropic's refusal
explanation (`stop_details`, fixture anthropic-refusal), Gemini's finish message or the reason it
blocked the prompt.
*/
function finishDetail(metadata: unknown): string | undefined {
	const of = (provider: string): Record<string, unknown> | undefined => {
		const value = (metadata as Record<string, unknown> | undefined)?.[provider];
		return typeof value === 'object' && value !== null ? value as Record<string, unknown> : undefined;
	};

	const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
	const stop = of('anthropic')?.stopDetails as Record<string, unknown> | undefined;
	const google = of('google') ?? of('vertex');
	const blocked = (google?.promptFeedback as Record<string, unknown> | null | undefined)?.blockReason;
	return text(stop?.explanation) ?? text(google?.finishMessage) ?? (text(blocked) === undefined ? undefined : `the prompt was blocked (${String(blocked)})`);
}

type ProviderUsage = Extract<ProviderPart, {type: 'finish'}>['usage'];

function usageOf(usage: ProviderUsage | undefined): ModelUsage {
	return {
		inputTokens: usage?.inputTokens.total ?? 0,
		outputTokens: usage?.outputTokens.total ?? 0,
		cacheReadTokens: usage?.inputTokens.cacheRead ?? 0,
		cacheWriteTokens: usage?.inputTokens.cacheWrite ?? 0,
		reasoningTokens: usage?.outputTokens.reasoning ?? 0,
	};
}

/** Network failures worth another attempt (the server may be restarting or the link flapping). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
Classify a failure: the server's status, its message, type and code, and how long it asks to wait.
`inStream`: the error came as a stream part, after the provider had answered 200 (Anthropic's
`event: error`, an OpenAI-style `data: {"error": …}`); the SDK hands those over as the provider's
plain object.
*/
export function modelError(error: unknown, inStream = false): ModelError {
	if (error instanceof RangeError && error.message === 'Invalid string length') {
		// V8's words when the request's JSON passes the longest string it can make (the loop's bound, `oversizedRequest`, comes first).
		return {message: 'the request is too large to send: its JSON passes the longest string the runtime can make (about 512 Mi characters); start a new session', kind: 'context-overflow', retryable: false};
	}

	const facts = errorFacts(error);
	if (loadedAi?.APICallError.isInstance(error) === true) {
		const retryAfterMs = serverRetryDelayMs(error.responseHeaders, error.responseBody, Date.now());
		return classifyModelError(facts, {
			...(error.statusCode === undefined ? {} : {status: error.statusCode}),
			sdkRetryable: error.isRetryable,
			...(retryAfterMs === undefined ? {} : {retryAfterMs}),
		});
	}

	const code = networkCode(error);
	if (code !== undefined) {
		return classifyModelError(facts.message.includes(code) ? facts : {...facts, message: `${facts.message} (${code})`}, {networkCode: code});
	}

	return classifyModelError(facts, {inStream});
}

function networkCode(error: unknown): string | undefined {
	for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; cause = (cause as {cause?: unknown}).cause, depth++) {
		const code = (cause as {code?: unknown}).code;
		if (typeof code === 'string' && NETWORK_CODES.has(code)) {
			return code;
		}
	}

	return undefined;
}

