/**
@module What the interactive session and `cardterm -p` share to choose the agent: which model (and
the one line that says why there is none or why it cannot be used), the approval defaults of an
agent session, and the `--system-prompt` file. The agent loop on the session is the host's
(`src/host/session-agent.ts`).
*/
import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {ModelConfigError, resolveModel} from '../agent/model-client.js';
import type {ModelClient} from '../agent/model-types.js';
import type {AskRule, CardtermConfig} from './approval-policy.js';
import {modelSetting, userConfigPath, type ModelSetting} from './model-setting.js';
import {UsageError} from './parse-args.js';

/**
A model's calls that change things ask first; reads, searches, fetches and todo lists do not.
`run_code` asks as a whole (its sub-calls do not ask again). `--yolo` drops these rules.
*/
export const AGENT_ASK_RULES: readonly AskRule[] = [{tool: ['write', 'edit', 'bash', 'run_code', 'job_kill'], by: 'the agent session (--yolo skips this)'}];

/** How to connect a model, for the status line and errors. */
export function connectHint(env: NodeJS.ProcessEnv): string {
	return `no model: pass --model PROVIDER:MODEL (or --base-url URL --model NAME), set CARDTERM_MODEL, or "model" in .cardterm/config.json or ${userConfigPath(env)}`;
}

export type AgentModel =
	| {readonly kind: 'none'; readonly hint: string}
	| {readonly kind: 'unusable'; readonly setting: ModelSetting; readonly message: string}
	| {readonly kind: 'ready'; readonly setting: ModelSetting; readonly model: ModelClient};

/** The configured model, resolved (nothing is contacted yet). */
export async function agentModel(options: {
	readonly flag?: string;
	readonly baseUrlFlag?: string;
	readonly env: NodeJS.ProcessEnv;
	readonly config: CardtermConfig;
	readonly cwd: string;
}): Promise<AgentModel> {
	const setting = await modelSetting({
		...(options.flag === undefined ? {} : {flag: options.flag}),
		...(options.baseUrlFlag === undefined ? {} : {baseUrlFlag: options.baseUrlFlag}),
		env: options.env,
		project: options.config,
		projectPath: options.env.CARDTERM_CONFIG ?? '.cardterm/config.json',
	});
	if (setting === undefined) {
		return {kind: 'none', hint: connectHint(options.env)};
	}

	try {
		return {kind: 'ready', setting, model: resolveModel({spec: setting.spec, env: options.env, ...(setting.baseUrl === undefined ? {} : {baseUrl: setting.baseUrl})})};
	} catch (error) {
		if (error instanceof ModelConfigError) {
			return {kind: 'unusable', setting, message: setting.from === '--model' ? error.message : `${error.message} (model from ${setting.from})`};
		}

		throw error;
	}
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
