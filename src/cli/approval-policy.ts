/**
@module Approval rules from the config: which calls ask before they run. A rule names tools and,
optionally, a directory their path must be inside or outside of, e.g. "ask before bash" or "ask
before write/edit outside src/". Answers "allow for this session" exempt the tool afterwards.

Config (`.cardterm/config.json` in the working directory, or the file in `CARDTERM_CONFIG`):
  {"approval": {"ask": [{"tool": "bash"}, {"tool": ["write", "edit"], "outside": "src/"}]}}
*/
import {readFile} from 'node:fs/promises';
import {isAbsolute, join, relative, resolve} from 'node:path';
import type {PreExecuteListener} from '../tools/registry-hooks.js';

/** One rule: ask before these tools (inside/outside a directory, when given). */
export type AskRule = {
	readonly tool: string | readonly string[];
	readonly outside?: string;
	readonly inside?: string;
	/** Who asks, for the dialog (default: "the config"). */
	readonly by?: string;
};

export type CardtermConfig = {
	readonly approval?: {readonly ask?: readonly AskRule[]};
	/** The agent's model, `PROVIDER:MODEL` (or a name with `baseUrl`). */
	readonly model?: string;
	/** An OpenAI-compatible server for `model`. */
	readonly baseUrl?: string;
};

/** Read the config; a missing file is no config, a broken one is an error naming the file. */
export async function loadConfig(cwd: string, env: NodeJS.ProcessEnv): Promise<CardtermConfig> {
	return loadConfigFile(env.CARDTERM_CONFIG ?? join(cwd, '.cardterm', 'config.json'), env.CARDTERM_CONFIG !== undefined);
}

/** Read one config file; a missing one is no config unless `required`. */
export async function loadConfigFile(path: string, required = false): Promise<CardtermConfig> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) {
			return {};
		}

		throw new Error(`cannot read config ${path}: ${(error as Error).message}`);
	}

	let config: unknown;
	try {
		config = JSON.parse(text);
	} catch (error) {
		throw new Error(`config ${path} is not JSON: ${(error as Error).message}`);
	}

	const problem = checkConfig(config);
	if (problem !== undefined) {
		throw new Error(`config ${path}: ${problem}`);
	}

	return config as CardtermConfig;
}

function checkConfig(config: unknown): string | undefined {
	if (typeof config !== 'object' || config === null || Array.isArray(config)) {
		return 'must be a JSON object';
	}

	for (const key of ['model', 'baseUrl'] as const) {
		const value = (config as Record<string, unknown>)[key];
		if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
			return `${key} must be a non-empty string`;
		}
	}

	const ask = (config as {approval?: {ask?: unknown}}).approval?.ask;
	if (ask === undefined) {
		return undefined;
	}

	if (!Array.isArray(ask)) {
		return 'approval.ask must be an array of rules';
	}

	for (const [index, rule] of ask.entries()) {
		const tool = (rule as {tool?: unknown} | null)?.tool;
		const names = Array.isArray(tool) ? tool : [tool];
		if (names.length === 0 || names.some(name => typeof name !== 'string' || name === '')) {
			return `approval.ask[${index}].tool must be a tool name or a non-empty array of names`;
		}

		for (const key of ['outside', 'inside'] as const) {
			const value = (rule as Record<string, unknown>)[key];
			if (value !== undefined && typeof value !== 'string') {
				return `approval.ask[${index}].${key} must be a directory path`;
			}
		}
	}

	return undefined;
}

/** The path argument a rule looks at, for the reference tools. */
function pathArgument(args: unknown): string | undefined {
	if (typeof args !== 'object' || args === null) {
		return undefined;
	}

	const record = args as Record<string, unknown>;
	const value = record.file_path ?? record.path ?? record.workdir;
	return typeof value === 'string' ? value : undefined;
}

function isInside(path: string, directory: string): boolean {
	const rel = relative(directory, path);
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The reason a rule asks about this call, or undefined. */
export function askReason(rules: readonly AskRule[], name: string, args: unknown, cwd: string): string | undefined {
	for (const rule of rules) {
		const names = typeof rule.tool === 'string' ? [rule.tool] : rule.tool;
		if (!names.includes(name)) {
			continue;
		}

		if (rule.outside === undefined && rule.inside === undefined) {
			return `${rule.by ?? 'the config'} asks before ${name}`;
		}

		const target = pathArgument(args);
		const path = resolve(cwd, target ?? '.');
		if (rule.outside !== undefined && !isInside(path, resolve(cwd, rule.outside))) {
			return `the config asks before ${name} outside ${rule.outside}`;
		}

		if (rule.inside !== undefined && isInside(path, resolve(cwd, rule.inside))) {
			return `the config asks before ${name} inside ${rule.inside}`;
		}
	}

	return undefined;
}

/** A `tools/pre-execute` listener that answers *ask* where a rule matches and the tool is not allowed for the session. */
export function approvalPolicy(rules: readonly AskRule[], cwd: string, sessionAllowed: () => ReadonlySet<string>): PreExecuteListener {
	return async (exec, next) => {
		if (exec.parent === undefined && !sessionAllowed().has(exec.name)) {
			const reason = askReason(rules, exec.name, exec.arguments, cwd);
			if (reason !== undefined) {
				return {kind: 'ask', reason};
			}
		}

		return next();
	};
}
