/**
@module What the interactive session and `cardterm -p` share to choose the agent: which model (and
the one line that says why there is none or why it cannot be used), the approval defaults of an
agent session, and the `--system-prompt` file. The agent loop on the session is the host's
(`src/host/session-agent.ts`).
*/
import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {ModelConfigError, resolveModel} from '../../agent/model-client.js';
import type {ModelClient} from '../../agent/model-types.js';
import type {AskRule} from '../../config/approval-rules.js';
import type {SessionModeName} from '../../config/config-schema.js';
import {agentAskRules, parseMode, SESSION_MODES} from '../../host/session-mode.js';
import {userConfigPath} from '../../config/config-paths.js';
import {httpUrl} from '../../config/config-schema.js';
import {allowEndpoint, endpointAllowed} from '../../config/endpoint-consent.js';
import type {CardtermConfig} from '../../config/load-config.js';
import {endpointFor, modelSetting, projectEndpoints, sessionEndpoint, type Endpoint, type ModelSetting, type ModelSources} from '../../config/model-setting.js';
import {UsageError} from '../environment/parse-args.js';

/**
A model's calls that change things ask first in ask mode (the default; `session-mode.ts` has each
mode's rules); `--yolo` is bypass mode, where none of them asks.
*/
export const AGENT_ASK_RULES: readonly AskRule[] = agentAskRules('ask');

/**
The mode a session starts in: `--mode NAME`, else `--yolo`'s bypass, else the config's
`approval.defaultMode`, else ask. `--yolo` with another `--mode` is a usage error.
*/
export function startMode(flags: ReadonlyMap<string, string | true>, config: CardtermConfig): SessionModeName {
	const flag = flags.get('mode');
	const yolo = flags.has('yolo');
	if (typeof flag === 'string') {
		const mode = parseMode(flag);
		if (mode === undefined) {
			throw new UsageError(`--mode: "${flag}" is no mode (the modes: ${SESSION_MODES.join(', ')})`);
		}

		if (yolo && mode !== 'bypass') {
			throw new UsageError(`--yolo is --mode bypass: it cannot go with --mode ${mode}`);
		}

		return mode;
	}

	return yolo ? 'bypass' : config.approval.defaultMode ?? 'ask';
}

/** How to connect a model, for the status line and errors. */
function connectHint(env: NodeJS.ProcessEnv): string {
	return `no model: pass --model PROVIDER:MODEL (or --base-url URL --model NAME), set CARDTERM_MODEL, or "model" in .cardterm/config.json or ${userConfigPath(env)}`;
}

/** A model client for a spec, as `--model` resolves it (throws `ModelConfigError` with one clear line). */
type ModelResolver = (spec: string) => ModelClient;

export type AgentModel =
	| {readonly kind: 'none'; readonly hint: string; readonly resolve: ModelResolver}
	/** `consent`: the model would be usable, but its server is a project's that the person has not allowed. */
	| {readonly kind: 'unusable'; readonly setting: ModelSetting; readonly message: string; readonly resolve: ModelResolver; readonly consent?: Endpoint}
	| {readonly kind: 'ready'; readonly setting: ModelSetting; readonly model: ModelClient; readonly resolve: ModelResolver};

/**
The configured model, resolved (nothing is contacted yet), with how `/model SPEC` resolves later
ones. A server a project's config chose is used only when the person allowed it: `allowEndpoint`
(`--allow-endpoint URL`) allows it now and remembers it.
*/
export async function agentModel(options: {
	readonly flag?: string;
	readonly baseUrlFlag?: string;
	readonly allowEndpoint?: string;
	readonly env: NodeJS.ProcessEnv;
	readonly config: CardtermConfig;
	readonly cwd: string;
}): Promise<AgentModel> {
	const sources: ModelSources = {
		...(options.flag === undefined ? {} : {flag: options.flag}),
		...(options.baseUrlFlag === undefined ? {} : {baseUrlFlag: options.baseUrlFlag}),
		env: options.env,
		config: options.config,
	};
	if (options.allowEndpoint !== undefined) {
		await allowNamedEndpoint(options.allowEndpoint, options.config, options.env);
	}

	const resolve = await modelResolver(sessionEndpoint(sources), options.config, options.env);
	const setting = modelSetting(sources);
	if (setting === undefined) {
		return {kind: 'none', hint: connectHint(options.env), resolve};
	}

	try {
		return {kind: 'ready', setting, model: resolve(setting.spec), resolve};
	} catch (error) {
		if (error instanceof ModelConfigError) {
			const consent = setting.endpoint !== undefined && !(await endpointAllowed(setting.endpoint, options.config, options.env)) ? setting.endpoint : undefined;
			const message = setting.from === '--model' || consent !== undefined ? error.message : `${error.message} (model from ${setting.from})`;
			return {kind: 'unusable', setting, message, resolve, ...(consent === undefined ? {} : {consent})};
		}

		throw error;
	}
}

/**
How specs resolve in this session: against the session's server, else their provider's server from
the config; a server a project's config chose and the person did not allow is refused, naming it.
*/
async function modelResolver(session: Endpoint | undefined, config: CardtermConfig, env: NodeJS.ProcessEnv): Promise<ModelResolver> {
	const allowed = new Set<string>();
	for (const endpoint of projectEndpoints(config)) {
		// eslint-disable-next-line no-await-in-loop -- a project names a server or two
		if (await endpointAllowed(endpoint, config, env)) {
			allowed.add(httpUrl(endpoint.url) ?? endpoint.url);
		}
	}

	return spec => {
		const endpoint = endpointFor(spec, session, config);
		if (endpoint?.byProject === true && !allowed.has(httpUrl(endpoint.url) ?? endpoint.url)) {
			throw new ModelConfigError(notAllowed(endpoint, env));
		}

		const client = resolveModel({spec, env, ...(endpoint === undefined ? {} : {baseUrl: endpoint.url})});
		return endpoint === undefined ? client : {...client, endpoint: endpoint.url};
	};
}

/** Why a project's server is not used, and the two ways to allow it. */
function notAllowed(endpoint: Endpoint, env: NodeJS.ProcessEnv): string {
	const url = httpUrl(endpoint.url) ?? endpoint.url;
	return `${endpoint.from} sends the model's requests (with your API key and the conversation) to ${url}, which you have not allowed for this project: allow it with --allow-endpoint ${url} (remembered), or list it in "allowedEndpoints" in ${userConfigPath(env)}`;
}

/** `--allow-endpoint URL`: remember the consent, when the project's config names that server. */
async function allowNamedEndpoint(text: string, config: CardtermConfig, env: NodeJS.ProcessEnv): Promise<void> {
	const url = httpUrl(text);
	if (url === undefined) {
		throw new UsageError(`--allow-endpoint: ${text} is not an http(s) URL`);
	}

	const named = projectEndpoints(config);
	const endpoint = named.find(candidate => httpUrl(candidate.url) === url);
	if (endpoint === undefined) {
		throw new UsageError(`--allow-endpoint ${url}: this project's config does not send requests there${named.length === 0 ? ' (it names no server)' : ` (it names ${[...new Set(named.map(candidate => httpUrl(candidate.url) ?? candidate.url))].join(', ')})`}`);
	}

	await allowEndpoint(endpoint, config, env);
}

/** The text of `--system-prompt FILE`; a file that cannot be read is a usage error naming it. */
export async function systemPromptFile(path: string | undefined, cwd: string): Promise<string | undefined> {
	if (path === undefined) {
		return undefined;
	}

	try {
		return await readFile(resolve(cwd, path), 'utf8');
	} catch (error) {
		throw new UsageError(`--system-prompt: cannot read ${path}: ${(error as Error).message}`);
	}
}
