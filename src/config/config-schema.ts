/**
@module What one config file may say, and the check that names what is wrong in it. The shapes are
a JSON Schema (the schema module's DSL), so a known key of the wrong type is reported with its path
(`"agent.maxSteps" must be an integer`); the few rules a schema cannot say here (a URL, a positive
number, a tool name or a list of them) follow in the same words. A key cardterm does not know is a
warning naming it, never an error: a newer cardterm's settings (MCP servers, context thresholds,
commands) must not stop this one from starting.
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {valueSchemaSpecToJsonSchema} from '../schema/compile-spec.js';
import {validateJsonSchemaValue} from '../schema/validate-value.js';
import type {ObjectSchemaSpec, ParameterSchemaSpec, ValueSchemaSpec} from '../schema/value-schema-spec.js';

/** The longest wait a timer can hold (Node fires a longer one at once). */
const MAX_TIMER_MS = 2_147_483_647;

/** Unknown keys named one by one; past these, counted (a file of 50 000 keys is not 50 000 lines). */
const MAX_KEY_WARNINGS = 10;

/** One approval rule: ask before these tools (inside/outside a directory, when given). */
export type AskRule = {
	readonly tool: string | readonly string[];
	readonly outside?: string;
	readonly inside?: string;
	/** Who asks, for the dialog (default: "the config"); cardterm's own rules say who they are, a file cannot. */
	readonly by?: string;
	/** Ask at every such call: an answer "for this session" does not cover it. */
	readonly everyTime?: boolean;
};

/** A provider's settings: where its requests go instead of its usual server. */
type ProviderSettings = {readonly baseUrl?: string};

/** The `context` section: per-model windows, compaction and its reserve, the tool results' budget. */
export type ContextFileSettings = {
	/** Model name → its window in tokens (a local server set up smaller, a model the catalog does not know). */
	readonly windows?: Readonly<Record<string, number>>;
	readonly compaction?: boolean;
	/** Tokens, or a share of the window as `"15%"`. */
	readonly reserve?: number | string;
	readonly resultTokens?: number;
	readonly stepResultTokens?: number;
	/** The MCP tools' schemas are deferred to a search tool past this share of the window (`"10%"`, the default), always (`true`) or never (`false`). */
	readonly toolSearch?: boolean | string;
};

/** A session's permission modes, in Shift+Tab's order (`src/host/session-mode.ts` says what each allows). */
export const SESSION_MODES = ['ask', 'edits', 'plan', 'bypass'] as const;

export type SessionModeName = (typeof SESSION_MODES)[number];

/** What one config file holds, once checked. */
export type ConfigFile = {
	/** The agent's model, `PROVIDER:MODEL` (or a server's model name with `baseUrl`). */
	readonly model?: string;
	/** The server for `model` of the same file (an OpenAI-compatible one for a bare name). */
	readonly baseUrl?: string;
	/** Per provider (`anthropic`, `openai`, …, as `--model` names them): a gateway for its models. */
	readonly providers?: Readonly<Record<string, ProviderSettings>>;
	readonly agent?: {
		/** Model steps a turn may take before it ends as blocked. */
		readonly maxSteps?: number;
		/** How long the model's stream may send nothing before it is cancelled and retried, in ms. */
		readonly stallTimeoutMs?: number;
	};
	readonly approval?: {readonly ask?: readonly AskRule[]; readonly defaultMode?: string};
	/** The model's window and what to do about it (docs/context.md). */
	readonly context?: ContextFileSettings;
	/** Servers the person lets any project's config send the model's requests to (read from the user's config only). */
	readonly allowedEndpoints?: readonly string[];
	/** Secret variables: more to keep from commands and the log (`secrets`), and those commands may see anyway (`passthrough`, the user's config only). */
	readonly env?: {readonly passthrough?: readonly string[]; readonly secrets?: readonly string[]};
	/** MCP servers by name; each entry is read (and its problems named) by `mcp-servers.ts`. */
	readonly mcpServers?: unknown;
	/** When a live session notifies the terminal that a turn ended or a question waits (docs/decisions/notifications.md). */
	readonly notifications?: 'auto' | 'always' | 'off';
	/** Whether a live session sets the terminal's window title (default true). */
	readonly terminalTitle?: boolean;
	/** Confined commands (accept edits, bypass): `network: true` lets them connect (the user's config only). */
	readonly sandbox?: {readonly network?: boolean};
	/** Hook commands by event, in Claude Code's shape; read (and their problems named) by `hooks-config.ts`. */
	readonly hooks?: unknown;
};

const url = (description: string): ValueSchemaSpec => ({type: 'string', description});

const providerProperties: ParameterSchemaSpec = {
	baseUrl: url('the provider\'s requests go to this server (a gateway), with its own wire and key variable'),
};

const topLevel: ParameterSchemaSpec = {
	$schema: {type: 'string', description: 'an editor\'s schema link; ignored'},
	model: {type: 'string', description: 'PROVIDER:MODEL, or a model name with baseUrl'},
	baseUrl: url('the server for model (in this file)'),
	providers: {type: 'object', additionalProperties: true, description: 'per provider name: {"baseUrl": URL}'},
	agent: {type: 'object', additionalProperties: true, properties: {
		maxSteps: {type: 'integer', description: 'model steps per turn'},
		stallTimeoutMs: {type: 'integer', description: 'ms without data from the model before a retry'},
	}},
	context: {type: 'object', additionalProperties: true, properties: {
		windows: {type: 'object', additionalProperties: true, description: 'model name → its context window in tokens'},
		compaction: {type: 'boolean', description: 'compact the conversation before it outgrows the window (default true)'},
		reserve: {type: 'json', description: 'tokens (20000) or a share of the window ("15%") kept free; a compaction runs past the rest'},
		resultTokens: {type: 'integer', description: 'tokens one tool result may send to the model'},
		stepResultTokens: {type: 'integer', description: 'tokens the results of one step may send together'},
		toolSearch: {type: 'json', description: 'past this share of the window ("10%", the default) the MCP tools\' schemas are not sent and the model searches them; true: always, false: never'},
	}},
	approval: {type: 'object', additionalProperties: true, properties: {
		ask: {type: 'array', items: {type: 'object', additionalProperties: true, properties: {
			tool: {type: 'json', required: true, description: 'a tool name or a list of them'},
			outside: {type: 'string', description: 'ask when the path is outside this folder'},
			inside: {type: 'string', description: 'ask when the path is inside this folder'},
			everyTime: {type: 'boolean', description: 'ask at every such call ("allow for this session" does not cover it)'},
		}}},
		defaultMode: {type: 'string', description: 'the mode a session starts in: ask, edits, plan or bypass (a project may choose only ask or plan)'},
	}},
	allowedEndpoints: {type: 'array', items: {type: 'string'}},
	mcpServers: {type: 'object', additionalProperties: true, description: 'MCP servers by name (mcp-servers.ts reads each)'},
	notifications: {type: 'string', enum: ['auto', 'always', 'off'], description: 'notify when a turn ends or a question waits: auto (while the terminal is not focused), always, off'},
	terminalTitle: {type: 'boolean', description: 'show the session and its state in the terminal\'s title (default true)'},
	sandbox: {type: 'object', additionalProperties: true, properties: {
		network: {type: 'boolean', description: 'commands confined in accept-edits and bypass mode may use the network (your user config only; default false)'},
	}},
	hooks: {type: 'object', additionalProperties: true, description: 'hook commands by event: PreToolUse, PostToolUse, Stop, Notification (hooks-config.ts reads them)'},
	env: {type: 'object', additionalProperties: true, properties: {
		passthrough: {type: 'array', items: {type: 'string'}, description: 'secret variables the commands a model or an agent runs may still see'},
		secrets: {type: 'array', items: {type: 'string'}, description: 'more variables whose values are kept from commands and the session log'},
	}},
};

const fileSpec: ObjectSchemaSpec = {type: 'object', additionalProperties: true, properties: topLevel};
const providerSpec: ObjectSchemaSpec = {type: 'object', additionalProperties: true, properties: providerProperties};
const fileSchema = valueSchemaSpecToJsonSchema(fileSpec, 'config');
const providerSchema = valueSchemaSpecToJsonSchema(providerSpec, 'provider');

/** What is wrong with a parsed file (errors: it cannot be used) and what is only odd (warnings). */
export type ConfigCheck = {readonly errors: readonly string[]; readonly warnings: readonly string[]};

/** Check a parsed config file; `role` says which keys it may hold (`allowedEndpoints` only in the user's own). */
export function checkConfigFile(value: unknown, role: 'user' | 'project'): ConfigCheck {
	if (!isPlainRecord(value)) {
		return {errors: ['must be a JSON object ({…})'], warnings: []};
	}

	let errors = validateJsonSchemaValue(fileSchema, value, '');
	const providers = value['providers'];
	if (isPlainRecord(providers)) {
		for (const [name, settings] of Object.entries(providers)) {
			errors = errors.concat(validateJsonSchemaValue(providerSchema, settings, `providers.${name}`));
		}
	}

	if (errors.length === 0) {
		errors = refinements(value as ConfigFile);
	}

	const unknown = unknownKeys(value);
	const warnings = unknown.slice(0, MAX_KEY_WARNINGS).map(path => `unknown key "${path}" ignored (a newer cardterm's setting, or a typo?)`);
	if (unknown.length > MAX_KEY_WARNINGS) {
		warnings.push(`${unknown.length - MAX_KEY_WARNINGS} more unknown keys ignored`);
	}

	if (role === 'project' && value['allowedEndpoints'] !== undefined) {
		warnings.push('"allowedEndpoints" ignored: only your user config can allow servers, a project\'s cannot allow its own');
	}

	if (role === 'project' && isPlainRecord(value['env']) && value['env']['passthrough'] !== undefined) {
		warnings.push('"env.passthrough" ignored: only your user config can pass your keys to commands, a project\'s cannot');
	}

	if (role === 'project' && isPlainRecord(value['sandbox']) && value['sandbox']['network'] !== undefined) {
		warnings.push('"sandbox.network" ignored: only your user config can let confined commands reach the network, a project\'s cannot');
	}

	const mode = isPlainRecord(value['approval']) ? value['approval']['defaultMode'] : undefined;
	if (role === 'project' && (mode === 'edits' || mode === 'bypass')) {
		warnings.push(`"approval.defaultMode": "${mode}" ignored: only your user config can start sessions in a mode that asks less, a project's cannot`);
	}

	if (value['baseUrl'] !== undefined && value['model'] === undefined) {
		warnings.push('"baseUrl" ignored without "model" in the same file (for a provider\'s server: "providers": {"NAME": {"baseUrl": URL}})');
	}

	return {errors, warnings};
}

/** The rules the schema does not carry, in its words. */
function refinements(config: ConfigFile): string[] {
	const problems: string[] = [];
	if (config.model?.trim() === '') {
		problems.push('"model" must be a non-empty string (PROVIDER:MODEL)');
	}

	const urls: Array<[string, string | undefined]> = [['baseUrl', config.baseUrl], ...Object.entries(config.providers ?? {}).map(([name, settings]): [string, string | undefined] => [`providers.${name}.baseUrl`, settings.baseUrl])];
	for (const [index, entry] of (config.allowedEndpoints ?? []).entries()) {
		urls.push([`allowedEndpoints[${index}]`, entry]);
	}

	for (const [path, text] of urls) {
		if (text !== undefined && httpUrl(text) === undefined) {
			problems.push(`"${path}" must be an http(s) URL such as http://127.0.0.1:8080/v1 (got ${JSON.stringify(text)})`);
		}
	}

	for (const [key, most] of [['maxSteps', Number.MAX_SAFE_INTEGER], ['stallTimeoutMs', MAX_TIMER_MS]] as const) {
		const number = config.agent?.[key];
		if (number !== undefined && (number < 1 || number > most)) {
			problems.push(`"agent.${key}" must be a positive integer of at most ${most} (got ${number})`);
		}
	}

	for (const key of ['passthrough', 'secrets'] as const) {
		for (const [index, name] of (config.env?.[key] ?? []).entries()) {
			if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
				problems.push(`"env.${key}[${index}]" must be an environment variable's name such as GITHUB_TOKEN (got ${JSON.stringify(name)})`);
			}
		}
	}

	const mode = config.approval?.defaultMode;
	if (mode !== undefined && !(SESSION_MODES as readonly string[]).includes(mode)) {
		problems.push(`"approval.defaultMode" must be one of ${SESSION_MODES.join(', ')} (got ${JSON.stringify(mode)})`);
	}

	for (const [index, rule] of (config.approval?.ask ?? []).entries()) {
		const names: unknown = rule.tool;
		const list = Array.isArray(names) ? names : [names];
		if (list.length === 0 || list.some(name => typeof name !== 'string' || name === '')) {
			problems.push(`"approval.ask[${index}].tool" must be a tool name or a non-empty array of tool names`);
		}
	}

	return problems;
}

/** A URL cardterm can send requests to, normalised (`href` without trailing slashes), or `undefined`. */
export function httpUrl(text: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(text.trim());
	} catch {
		return undefined;
	}

	return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href.replace(/\/+$/, '') : undefined;
}

/** Paths of the keys no schema declares, walking only where the schema goes (so its depth bounds the walk). */
function unknownKeys(config: Record<string, unknown>): string[] {
	const found: string[] = [];
	const visit = (properties: ParameterSchemaSpec, value: Record<string, unknown>, prefix: string): void => {
		for (const [key, child] of Object.entries(value)) {
			const path = `${prefix}${key}`;
			const spec = Object.hasOwn(properties, key) ? properties[key] : undefined;
			if (spec === undefined) {
				found.push(path);
			} else if (key === 'providers' && prefix === '' && isPlainRecord(child)) {
				for (const [name, settings] of Object.entries(child)) {
					if (isPlainRecord(settings)) {
						visit(providerProperties, settings, `providers.${name}.`);
					}
				}
			} else if ('type' in spec && spec.type === 'object' && spec.properties !== undefined && isPlainRecord(child)) {
				visit(spec.properties, child, `${path}.`);
			} else if ('type' in spec && spec.type === 'array' && spec.items !== undefined && 'properties' in spec.items && spec.items.properties !== undefined && Array.isArray(child)) {
				for (const [index, item] of child.entries()) {
					if (isPlainRecord(item)) {
						visit(spec.items.properties, item, `${path}[${index}].`);
					}
				}
			}
		}
	};

	visit(topLevel, config, '');
	return found;
}
