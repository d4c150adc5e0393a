/**
@module The person's consent to a project's model server (and, by the same rule, to a project's MCP
servers: `projectConsented`, `mcp-consent.ts`). A project's `.cardterm/config.json` can
name where the model's requests go (`baseUrl`, `providers.NAME.baseUrl`); each request carries the
person's API key and the whole conversation, so a cloned repository (or a model that once wrote
the file) must not choose that alone. Consent is given once per project and URL — in the
interactive session's question, with `--allow-endpoint URL`, or for every project by listing the URL
in the user's own config (`allowedEndpoints`) — and what was given is remembered in the user's data
folder (`allowed-endpoints.json`, mode 0600), never in the project.
*/
import {realpath} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {isPlainRecord} from '../json/is-plain-record.js';
import {ConfigError} from './config-error.js';
import {userDataFolder} from './config-paths.js';
import {httpUrl} from './config-schema.js';
import type {CardtermConfig} from './load-config.js';
import type {Endpoint} from './model-setting.js';
import {readBoundedText, UnreadableFileError} from './read-config-text.js';
import {writeConfigFile} from './write-config-file.js';

/** One consent: this project may send the model's requests to this URL. */
type Consent = {readonly project: string; readonly url: string; readonly at: string};

/** The file that remembers consents. */
export function consentPath(env: NodeJS.ProcessEnv): string {
	return join(userDataFolder(env), 'allowed-endpoints.json');
}

/** Whether requests may go to `endpoint`: the person's own choice, or a project's that they allowed. */
export async function endpointAllowed(endpoint: Endpoint, config: CardtermConfig, env: NodeJS.ProcessEnv): Promise<boolean> {
	if (!endpoint.byProject) {
		return true;
	}

	const url = httpUrl(endpoint.url);
	if (url === undefined) {
		// Not a server anything can be sent to: the model's resolution reports it.
		return true;
	}

	if (config.allowedEndpoints.some(allowed => httpUrl(allowed) === url)) {
		return true;
	}

	const project = await projectKey(config.projectDir);
	return (await readConsents(consentPath(env))).some(consent => consent.project === project && httpUrl(consent.url) === url);
}

/** Remember that this project may use `endpoint`; returns the file it is kept in. */
export async function allowEndpoint(endpoint: Endpoint, config: CardtermConfig, env: NodeJS.ProcessEnv, now: Date = new Date()): Promise<string> {
	const url = httpUrl(endpoint.url);
	return url === undefined ? consentPath(env) : rememberProjectConsent([url], config, env, now);
}

/**
Whether the person allowed this project `key` — the same consent for anything a project's file asks
for: a model server's URL (above), an MCP server's key (`mcpConsentKey`), compared exactly.
*/
export async function projectConsented(key: string, config: CardtermConfig, env: NodeJS.ProcessEnv): Promise<boolean> {
	const project = await projectKey(config.projectDir);
	return (await readConsents(consentPath(env))).some(consent => consent.project === project && consent.url === key);
}

/** Remember that this project may use each of `keys`; returns the file they are kept in. */
export async function rememberProjectConsent(keys: readonly string[], config: CardtermConfig, env: NodeJS.ProcessEnv, now: Date = new Date()): Promise<string> {
	const path = consentPath(env);
	const project = await projectKey(config.projectDir);
	const kept = (await readConsents(path)).filter(consent => !(consent.project === project && keys.includes(consent.url)));
	const text = `${JSON.stringify({allowed: [...kept, ...keys.map(url => ({project, url, at: now.toISOString()}))]}, null, '\t')}\n`;
	try {
		await writeConfigFile(path, text, 0o600);
	} catch (error) {
		throw new ConfigError(`cannot remember the allowed server in ${path}: ${(error as Error).message}`);
	}

	return path;
}

/** A project is its folder, links resolved: the same checkout reached two ways is one project. */
async function projectKey(folder: string): Promise<string> {
	return realpath(folder).catch(() => resolve(folder));
}

async function readConsents(path: string): Promise<Consent[]> {
	let text: string | undefined;
	try {
		text = await readBoundedText(path);
	} catch (error) {
		throw new ConfigError(`${path}: ${error instanceof UnreadableFileError ? error.message : String(error)} (the servers you allowed; fix or remove it)`);
	}

	if (text === undefined) {
		return [];
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new ConfigError(`${path} is not JSON: ${(error as Error).message} (the servers you allowed; fix or remove it)`);
	}

	const allowed = isPlainRecord(parsed) ? parsed['allowed'] : undefined;
	if (!Array.isArray(allowed) || !allowed.every(entry => isPlainRecord(entry) && typeof entry['project'] === 'string' && typeof entry['url'] === 'string')) {
		throw new ConfigError(`${path}: "allowed" must be an array of {"project", "url"} (the servers you allowed; fix or remove it)`);
	}

	return allowed.map(entry => ({project: entry.project as string, url: entry.url as string, at: typeof entry.at === 'string' ? entry.at : ''}));
}
