/**
@module The configuration a session runs with: the user's config file, then the project's
(`.cardterm/config.json` in the working directory, or the file `CARDTERM_CONFIG` names in its
place), each read safely, parsed as strict JSON (no comments), checked, and merged. Environment
variables and flags sit above both, where a setting is read (`model-setting.ts`, the commands).

Merge order, lowest first: defaults < user < project < environment < flags. Approval rules add up
(every file's questions are asked; none can take another's away). A project's file is the
repository's, not the person's: what it says about where the model's requests go takes effect only
with the person's consent (`endpoint-consent.ts`), and it cannot allow servers itself.
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {scanJsonNesting} from '../json/nesting-scan.js';
import type {AskRule, ConfigFile, ContextFileSettings, SessionModeName} from './config-schema.js';
import {checkConfigFile} from './config-schema.js';
import {ConfigError} from './config-error.js';
import {readHooks, type HookEntry} from './hooks-config.js';
import {projectConfigPath, projectMcpPath, userConfigPath} from './config-paths.js';
import {mergeMcpServers, readMcpServers, type McpServerEntry} from './mcp-servers.js';
import {readBoundedText, UnreadableFileError} from './read-config-text.js';

/**
Whose file it is: the user's own, the project's (the repository's: its endpoints need consent), or
the one `CARDTERM_CONFIG` named (the person chose it, so it is trusted as the user's).
*/
export type ConfigRole = 'user' | 'project' | 'named';

/** One file that was read. */
export type ConfigLayer = {readonly role: ConfigRole; readonly path: string; readonly file: ConfigFile};

/** The settings of a session: the files read (lowest first) and what they say merged. */
export type CardtermConfig = {
	readonly layers: readonly ConfigLayer[];
	/** The working directory whose project file was looked for. */
	readonly projectDir: string;
	/** Every file's approval rules, the user's first. */
	readonly approval: {readonly ask: readonly AskRule[]; readonly defaultMode?: SessionModeName};
	/** The agent's limits; the project's over the user's. */
	readonly agent: {readonly maxSteps?: number; readonly stallTimeoutMs?: number};
	/** The `context` section, merged: the project's fields over the user's (windows model by model). */
	readonly context?: ContextFileSettings;
	/** Servers the user's own config allows any project to use. */
	readonly allowedEndpoints: readonly string[];
	/** Secret variables every file names, and those the person's own config passes to commands anyway. */
	readonly env?: {readonly passthrough: readonly string[]; readonly secrets: readonly string[]};
	/**
	The MCP servers, merged (`mcp-servers.ts`: the user's < the project's `.mcp.json` < the project's
	config); absent: none.
	*/
	readonly mcpServers?: readonly McpServerEntry[];
	/** When a live session notifies the terminal (absent: `auto`); the project's over the user's. */
	readonly notifications?: 'auto' | 'always' | 'off';
	/** Whether a live session sets the window title (absent: it does); the project's over the user's. */
	readonly terminalTitle?: boolean;
	/** Confined commands may use the network (absent: they may not): the user's config only (`sandbox.network`). */
	readonly commandNetwork?: boolean;
	/** The hook commands of every file, the user's first (`hooks-config.ts`). */
	readonly hooks?: readonly HookEntry[];
	/** What was odd but not wrong (unknown keys), each naming its file; shown once at start. */
	readonly warnings: readonly string[];
};

/** How deep and how many arrays and objects a config may hold before it is parsed (settings nest 4 deep). */
const MAX_DEPTH = 64;
const MAX_CONTAINERS = 50_000;
/** Problems listed one by one in the error; past these, counted. */
const MAX_LISTED = 10;

/** Read the user's and the project's config; a missing file is no config, a broken one a `ConfigError` naming it. */
export async function loadConfig(cwd: string, env: NodeJS.ProcessEnv): Promise<CardtermConfig> {
	const named = env.CARDTERM_CONFIG !== undefined && env.CARDTERM_CONFIG !== '' ? env.CARDTERM_CONFIG : undefined;
	const [found, mcpFile] = await Promise.all([
		Promise.all([
			loadLayer(userConfigPath(env), 'user', false),
			named === undefined ? loadLayer(projectConfigPath(cwd), 'project', false) : loadLayer(named, 'named', true),
		]),
		loadMcpFile(projectMcpPath(cwd)),
	]);
	const layers = found.filter(layer => layer !== undefined);
	const servers = layers.map(layer => readMcpServers(layer.file.mcpServers, layer.path, layer.role === 'project'));
	// `.mcp.json` sits between the user's config and the project's cardterm config.
	servers.splice(layers.length > 0 && layers[0]!.role === 'user' ? 1 : 0, 0, mcpFile);
	const rules = layers.flatMap(layer => layer.file.approval?.ask ?? []);
	const agent: {maxSteps?: number; stallTimeoutMs?: number} = {};
	for (const layer of layers) {
		Object.assign(agent, layer.file.agent?.maxSteps === undefined ? {} : {maxSteps: layer.file.agent.maxSteps}, layer.file.agent?.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: layer.file.agent.stallTimeoutMs});
	}

	// The project's over the user's; a project may not start a session asking less than ask (checkConfigFile warns).
	let defaultMode: SessionModeName | undefined;
	for (const layer of layers) {
		const mode = layer.file.approval?.defaultMode as SessionModeName | undefined;
		if (mode !== undefined && !(layer.role === 'project' && (mode === 'edits' || mode === 'bypass'))) {
			defaultMode = mode;
		}
	}

	const hooks = layers.map(layer => readHooks(layer.file.hooks, layer.path, layer.role === 'project'));
	let context: ContextFileSettings = {};
	for (const layer of layers) {
		const section = layer.file.context;
		if (section !== undefined) {
			context = {...context, ...section, windows: {...context.windows, ...section.windows}};
		}
	}

	const notifications = layers.findLast(layer => layer.file.notifications !== undefined)?.file.notifications;
	const terminalTitle = layers.findLast(layer => layer.file.terminalTitle !== undefined)?.file.terminalTitle;
	return {
		layers,
		projectDir: cwd,
		...(notifications === undefined ? {} : {notifications}),
		...(terminalTitle === undefined ? {} : {terminalTitle}),
		context,
		approval: {ask: rules.map(rule => withoutBy(rule)), ...(defaultMode === undefined ? {} : {defaultMode})},
		agent,
		allowedEndpoints: layers.filter(layer => layer.role !== 'project').flatMap(layer => layer.file.allowedEndpoints ?? []),
		...(layers.some(layer => layer.role !== 'project' && layer.file.sandbox?.network === true) ? {commandNetwork: true} : {}),
		env: {
			passthrough: layers.filter(layer => layer.role !== 'project').flatMap(layer => layer.file.env?.passthrough ?? []),
			secrets: layers.flatMap(layer => layer.file.env?.secrets ?? []),
		},
		mcpServers: mergeMcpServers(servers.map(read => read.entries)),
		hooks: hooks.flatMap(read => read.entries),
		warnings: [...layers.flatMap(layer => layer.warnings), ...servers.flatMap(read => read.warnings), ...hooks.flatMap(read => read.warnings)],
	};
}

/**
The project's `.mcp.json`: another agent's file too, so what cardterm cannot read in it is a warning
naming it, never an error that stops the session; only its `mcpServers` is read.
*/
async function loadMcpFile(path: string): Promise<{readonly entries: readonly McpServerEntry[]; readonly warnings: readonly string[]}> {
	let parsed: unknown;
	try {
		const text = await readBoundedText(path);
		if (text === undefined) {
			return {entries: [], warnings: []};
		}

		parsed = parseConfigJson(text, path);
	} catch (error) {
		return {entries: [], warnings: [`${error instanceof ConfigError ? error.message : `${path}: ${(error as Error).message}`}; its MCP servers are not started`]};
	}

	if (!isPlainRecord(parsed)) {
		return {entries: [], warnings: [`${path}: must be a JSON object with "mcpServers"; its MCP servers are not started`]};
	}

	return readMcpServers(parsed['mcpServers'], path, true);
}

/** A file's rule as cardterm uses it: a file cannot say who asks (the dialog says "the config"). */
function withoutBy(rule: AskRule): AskRule {
	const {by: _by, ...rest} = rule;
	return rest;
}

async function loadLayer(path: string, role: ConfigRole, required: boolean): Promise<(ConfigLayer & {readonly warnings: readonly string[]}) | undefined> {
	const loaded = await loadConfigFile(path, role === 'project' ? 'project' : 'user', required);
	return loaded === undefined ? undefined : {role, path, file: loaded.file, warnings: loaded.warnings.map(warning => `config ${path}: ${warning}`)};
}

/** Read and check one config file; `undefined` when it is missing and not `required`. */
async function loadConfigFile(path: string, role: 'user' | 'project', required = false): Promise<{readonly file: ConfigFile; readonly warnings: readonly string[]} | undefined> {
	let text: string | undefined;
	try {
		text = await readBoundedText(path);
	} catch (error) {
		throw new ConfigError(`config ${path}: ${error instanceof UnreadableFileError ? error.message : String(error)}`);
	}

	if (text === undefined) {
		if (required) {
			throw new ConfigError(`config ${path}: no such file (named by CARDTERM_CONFIG)`);
		}

		return undefined;
	}

	const parsed = parseConfigJson(text, path);
	const {errors, warnings} = checkConfigFile(parsed, role);
	if (errors.length > 0) {
		const listed = errors.slice(0, MAX_LISTED).map(error => `\n  ${error}`).join('') + (errors.length > MAX_LISTED ? `\n  and ${errors.length - MAX_LISTED} more` : '');
		throw new ConfigError(`config ${path}: ${errors.length === 1 ? errors[0]! : listed}`);
	}

	return {file: parsed as ConfigFile, warnings};
}

function parseConfigJson(text: string, path: string): unknown {
	const excess = scanJsonNesting(text, MAX_DEPTH, MAX_CONTAINERS);
	if (excess !== undefined) {
		throw new ConfigError(`config ${path}: ${excess.kind === 'depth' ? `nests deeper than ${excess.limit} levels` : `holds more than ${excess.limit} arrays and objects`}; a config is a small JSON object`);
	}

	try {
		// A BOM some editors write is not part of the JSON.
		return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown;
	} catch (error) {
		throw new ConfigError(`config ${path} is not JSON (comments are not allowed): ${withLineAndColumn((error as Error).message, text)}`);
	}
}

/** JSON.parse's message with the line and column of its `position N` (Node 20 gives only the offset). */
function withLineAndColumn(message: string, text: string): string {
	const match = /at position (\d+)(?! \(line)/.exec(message);
	if (match === null) {
		return message;
	}

	const before = text.slice(0, Number(match[1]));
	const line = before.split('\n').length;
	const column = before.length - before.lastIndexOf('\n');
	return `${message} (line ${line} column ${column})`;
}
