/**
@module The one module that knows the model library (the Vercel AI SDK, `ai` + provider packages):
it resolves `PROVIDER:MODEL` (or `--base-url` → an OpenAI-compatible server) with the key from
the provider's usual variable, and turns the SDK's stream into `ModelStreamPart`s. Retries are the
loop's (the provider interface does not retry), so each one is logged as `llm/retry`.
*/
import type {LanguageModel} from 'ai';
import {assertNever} from '../presentation/assert-never.js';
import {errorFacts} from './error-facts.js';
import {classifyModelError, serverRetryDelayMs} from './model-errors.js';
import type {ConversationMessage, ModelClient, ModelError, ModelFinishReason, ModelStreamPart, ModelUsage} from './model-types.js';

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
The SDK is ~180 modules (zod, OpenTelemetry, the providers): imported when a model is first asked,
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

type ProviderSpec = {
	readonly keyVariables: readonly string[];
	/** Build the SDK model; `key` is present when the provider needs one. */
	readonly create: (model: string, key: string | undefined, env: NodeJS.ProcessEnv) => Promise<LanguageModel>;
	readonly needsKey: boolean;
};

/**
`fetch` with a JSON text body sent as its UTF-8 bytes. The SDK posts the whole conversation as a
string on every request, and undici's string path (a well-formed-UTF-16 pass, then an encoder) cost
more than the serialisation itself as the conversation grew (`bench/agent-overhead.mjs --calls 2000`).
*/
export const bytesBodyFetch = (inner: typeof fetch = globalThis.fetch): typeof fetch => async (input, init) =>
	inner(input, typeof init?.body === 'string' ? {...init, body: Buffer.from(init.body, 'utf8')} : init);

const compatible = (name: string, baseURL: string) => async (model: string, key: string | undefined): Promise<LanguageModel> =>
	(await loadPackage('compatible')).createOpenAICompatible({name, baseURL, includeUsage: true, fetch: bytesBodyFetch(), ...(key === undefined ? {} : {apiKey: key})}).chatModel(model);

/** The providers `--model PROVIDER:MODEL` knows. */
const providers: Readonly<Record<string, ProviderSpec>> = {
	openai: {keyVariables: ['OPENAI_API_KEY'], needsKey: true, create: async (model, key) => (await loadPackage('openai')).createOpenAI({apiKey: key, fetch: bytesBodyFetch()}).chat(model)},
	anthropic: {keyVariables: ['ANTHROPIC_API_KEY'], needsKey: true, create: async (model, key) => (await loadPackage('anthropic')).createAnthropic({apiKey: key, fetch: bytesBodyFetch()})(model)},
	google: {keyVariables: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'], needsKey: true, create: async (model, key) => (await loadPackage('google')).createGoogleGenerativeAI({apiKey: key, fetch: bytesBodyFetch()})(model)},
	deepseek: {keyVariables: ['DEEPSEEK_API_KEY'], needsKey: true, create: compatible('deepseek', 'https://api.deepseek.com/v1')},
	openrouter: {keyVariables: ['OPENROUTER_API_KEY'], needsKey: true, create: compatible('openrouter', 'https://openrouter.ai/api/v1')},
	ollama: {keyVariables: [], needsKey: false, create: async (model, key, env) => compatible('ollama', `${(env.OLLAMA_HOST ?? 'http://127.0.0.1:11434').replace(/\/+$/, '')}/v1`)(model, key)},
};
const aliases: Readonly<Record<string, string>> = {gemini: 'google'};

/** Provider names for messages and help. */
export const PROVIDER_NAMES: readonly string[] = Object.keys(providers);

export type ModelOptions = {
	/** `PROVIDER:MODEL`, or just the model's name with `baseUrl`. */
	readonly spec: string;
	/** An OpenAI-compatible server (`http://127.0.0.1:8080/v1`); its key, if any, is `OPENAI_API_KEY`. */
	readonly baseUrl?: string;
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
	if (options.baseUrl !== undefined) {
		let url: URL;
		try {
			url = new URL(options.baseUrl);
		} catch {
			throw new ModelConfigError(`--base-url ${options.baseUrl} is not a URL (e.g. http://127.0.0.1:8080/v1)`);
		}

		// Local model names may hold colons (`qwen2.5:7b`): only a known provider prefix is dropped.
		const model = known === undefined ? spec : spec.slice(colon + 1);
		if (model === '') {
			throw new ModelConfigError('--model needs the model\'s name with --base-url');
		}

		const key = nonEmpty(options.env.OPENAI_API_KEY);
		const create = compatible('openai-compatible', url.href.replace(/\/+$/, ''));
		return sdkClient('openai-compatible', model, async () => create(model, key));
	}

	if (colon <= 0 || colon === spec.length - 1) {
		throw new ModelConfigError(`--model needs PROVIDER:MODEL (for example openai:gpt-4.1), got "${spec}"; providers: ${PROVIDER_NAMES.join(', ')}, or --base-url URL for an OpenAI-compatible server`);
	}

	const provider = known === undefined || known === 'openai-compatible' ? undefined : providers[known];
	if (provider === undefined) {
		throw new ModelConfigError(`unknown model provider "${spec.slice(0, colon)}"; providers: ${PROVIDER_NAMES.join(', ')}, or --base-url URL for an OpenAI-compatible server`);
	}

	const model = spec.slice(colon + 1);
	const key = provider.keyVariables.map(name => nonEmpty(options.env[name])).find(value => value !== undefined);
	if (provider.needsKey && key === undefined) {
		throw new ModelConfigError(`no API key for ${known}: set ${provider.keyVariables.join(' or ')}`);
	}

	return sdkClient(known!, model, async () => provider.create(model, key, options.env));
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}

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
export function sdkClient(provider: string, model: string, languageModel: () => Promise<LanguageModel>): ModelClient {
	let made: Promise<StreamingModel> | undefined;
	const streamingModel = async (): Promise<StreamingModel> => {
		made ??= languageModel().then(created => {
			if (typeof created === 'string' || created.specificationVersion !== 'v3') {
				throw new ModelConfigError(`${provider}:${model}: the provider's model does not stream in the supported interface`);
			}

			return created;
		});
		return made;
	};

	return {
		provider,
		model,
		preload: streamingModel,
		async * stream(request) {
			const options: CallOptions = {
				prompt: toPrompt(request.system, request.messages),
				tools: request.tools.map(schema => ({type: 'function', name: schema.name, description: schema.description, inputSchema: schema.parameters as never})),
				abortSignal: request.signal,
			};
			// Raw argument text per call, as the model streamed it.
			const argumentsById = new Map<string, string>();
			try {
				const {stream} = await (await streamingModel()).doStream(options);
				// Node's web streams are async iterable; the DOM typings the SDK uses do not say so.
				for await (const part of stream as unknown as AsyncIterable<ProviderPart>) {
					switch (part.type) {
						case 'text-start':
						case 'text-end':
						case 'reasoning-start':
						case 'reasoning-end': {
							yield {type: part.type, id: part.id};
							break;
						}

						case 'text-delta':
						case 'reasoning-delta': {
							yield {type: part.type, id: part.id, text: part.delta};
							break;
						}

						case 'tool-input-start': {
							argumentsById.set(part.id, '');
							yield {type: 'tool-input-start', id: part.id, name: part.toolName};
							break;
						}

						case 'tool-input-delta': {
							argumentsById.set(part.id, (argumentsById.get(part.id) ?? '') + part.delta);
							yield {type: 'tool-input-delta', id: part.id, delta: part.delta};
							break;
						}

						case 'tool-call': {
							const streamed = argumentsById.get(part.toolCallId);
							yield {type: 'tool-call', id: part.toolCallId, name: part.toolName, arguments: streamed !== undefined && streamed !== '' ? streamed : part.input};
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

type PromptMessage = CallOptions['prompt'][number];

/**
Each message's prompt form, made once: a message never changes once it is in the conversation, and
rebuilding every one (parsing every call's arguments again) on every request grew with the session.
*/
const promptForms = new WeakMap<ConversationMessage, PromptMessage>();

/** Our conversation in the provider interface's prompt shape. */
export function toPrompt(system: string, messages: readonly ConversationMessage[]): CallOptions['prompt'] {
	const prompt: CallOptions['prompt'] = [{role: 'system', content: system}];
	for (const message of messages) {
		let form = promptForms.get(message);
		if (form === undefined) {
			form = promptMessage(message);
			promptForms.set(message, form);
		}

		prompt.push(form);
	}

	return prompt;
}

function promptMessage(message: ConversationMessage): PromptMessage {
	switch (message.role) {
		case 'user': {
			return {role: 'user', content: [{type: 'text', text: message.text}]};
		}

		case 'assistant': {
			const content: Array<{type: 'text'; text: string} | {type: 'tool-call'; toolCallId: string; toolName: string; input: unknown}> = [];
			if (message.text !== '') {
				content.push({type: 'text', text: message.text});
			}

			for (const call of message.toolCalls) {
				content.push({type: 'tool-call', toolCallId: call.id, toolName: call.name, input: callInput(call.arguments)});
			}

			return {role: 'assistant', content};
		}

		case 'tool': {
			return {role: 'tool', content: [{type: 'tool-result', toolCallId: message.callId, toolName: message.name, output: message.isError ? {type: 'error-text', value: message.text} : {type: 'text', value: message.text}}]};
		}

		default: {
			return assertNever(message);
		}
	}
}

/**
A call's arguments as sent back: parsed; `{}` when they were not JSON (Anthropic and Gemini refuse a
call whose input is not an object, and the call's result already tells the model what it wrote and
where it broke — `call-refusals.ts`).
*/
function callInput(raw: string): unknown {
	try {
		return raw.trim() === '' ? {} : JSON.parse(raw) as unknown;
	} catch {
		return {};
	}
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

