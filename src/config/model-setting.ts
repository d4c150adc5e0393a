/**
@module Which model the agent uses, where its requests go, and where each was said.

The model: `--model`, then `CARDTERM_MODEL`, then `model` in the project's config, then in the
user's. Its server: `--base-url`, then `CARDTERM_BASE_URL` (the person's, for whichever model), then
`baseUrl` of the file that named the model (a model name means something only on its server, so a
file's `baseUrl` never applies to a model named elsewhere), then `providers.NAME.baseUrl` for the
model's provider (the project's over the user's), else the provider's own server. None: no agent.

An endpoint a project's file chose is marked: the person's key and conversation go there only
with their consent (`endpoint-consent.ts`).
*/
import type {CardtermConfig, ConfigLayer} from './load-config.js';

/** Where the model's requests go instead of the provider's own server, and who said so. */
export type Endpoint = {
	readonly url: string;
	/** `--base-url`, `CARDTERM_BASE_URL`, or a config file's path. */
	readonly from: string;
	/** A project's file chose it (the repository's word, not the person's). */
	readonly byProject: boolean;
};

export type ModelSetting = {
	readonly spec: string;
	/** `--model`, `CARDTERM_MODEL`, or a config file's path. */
	readonly from: string;
	readonly endpoint?: Endpoint;
};

/** What a model setting is read from. */
export type ModelSources = {
	readonly flag?: string;
	readonly baseUrlFlag?: string;
	readonly env: NodeJS.ProcessEnv;
	readonly config: CardtermConfig;
};

/** The configured model, or `undefined` when nothing names one. */
export function modelSetting(sources: ModelSources): ModelSetting | undefined {
	const named = namedModel(sources);
	if (named === undefined) {
		return undefined;
	}

	const endpoint = endpointFor(named.spec, sessionEndpoint(sources), sources.config);
	return {spec: named.spec, from: named.from, ...(endpoint === undefined ? {} : {endpoint})};
}

/** The server every model of the session uses, when the person or the configured model's file named one. */
export function sessionEndpoint(sources: ModelSources): Endpoint | undefined {
	return personEndpoint(sources) ?? pairedEndpoint(namedModel(sources)?.layer);
}

/** Every server a project's file names (its model's and its providers'), for consent. */
export function projectEndpoints(config: CardtermConfig): Endpoint[] {
	return config.layers.filter(layer => layer.role === 'project').flatMap(layer => [
		...(layer.file.baseUrl === undefined || layer.file.model === undefined ? [] : [layer.file.baseUrl]),
		...Object.values(layer.file.providers ?? {}).flatMap(settings => settings.baseUrl ?? []),
	].map(url => ({url, from: layer.path, byProject: true})));
}

/** The config without what a project's file says about the model and its servers: the person's own setting. */
export function withoutProjectModel(config: CardtermConfig): CardtermConfig {
	return {...config, layers: config.layers.map(layer => {
		if (layer.role !== 'project') {
			return layer;
		}

		const {model: _model, baseUrl: _baseUrl, providers: _providers, ...rest} = layer.file;
		return {...layer, file: rest};
	})};
}

/**
The server for a model chosen later in the session (`/model SPEC`): the session's server when the
person or the model's file named one (`session`), else the provider's from the config.
*/
export function endpointFor(spec: string, session: Endpoint | undefined, config: CardtermConfig): Endpoint | undefined {
	return session ?? providerEndpoint(spec, config);
}

/** The person's own server for any model: the flag, then the environment. */
function personEndpoint(sources: ModelSources): Endpoint | undefined {
	if (nonEmpty(sources.baseUrlFlag) !== undefined) {
		return {url: sources.baseUrlFlag!, from: '--base-url', byProject: false};
	}

	const fromEnv = nonEmpty(sources.env.CARDTERM_BASE_URL);
	return fromEnv === undefined ? undefined : {url: fromEnv, from: 'CARDTERM_BASE_URL', byProject: false};
}

function namedModel(sources: ModelSources): {spec: string; from: string; layer?: ConfigLayer} | undefined {
	if (nonEmpty(sources.flag) !== undefined) {
		return {spec: sources.flag!, from: '--model'};
	}

	const fromEnv = nonEmpty(sources.env.CARDTERM_MODEL);
	if (fromEnv !== undefined) {
		return {spec: fromEnv, from: 'CARDTERM_MODEL'};
	}

	const layer = [...sources.config.layers].reverse().find(candidate => candidate.file.model !== undefined);
	return layer === undefined ? undefined : {spec: layer.file.model!, from: layer.path, layer};
}

function pairedEndpoint(layer: ConfigLayer | undefined): Endpoint | undefined {
	const url = layer?.file.baseUrl;
	return url === undefined ? undefined : {url, from: layer!.path, byProject: layer!.role === 'project'};
}

/** `providers.NAME.baseUrl` for the spec's `NAME:` prefix, the highest file first. */
function providerEndpoint(spec: string, config: CardtermConfig): Endpoint | undefined {
	const colon = spec.indexOf(':');
	if (colon <= 0) {
		return undefined;
	}

	const name = spec.slice(0, colon).trim().toLowerCase();
	for (const layer of [...config.layers].reverse()) {
		const url = layer.file.providers !== undefined && Object.hasOwn(layer.file.providers, name) ? layer.file.providers[name]!.baseUrl : undefined;
		if (url !== undefined) {
			return {url, from: layer.path, byProject: layer.role === 'project'};
		}
	}

	return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}
