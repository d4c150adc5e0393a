/**
@module Which model the agent uses, and where that was said: `--model` (with `--base-url`), then
`CARDTERM_MODEL` (with `CARDTERM_BASE_URL`), then `model` in the project's `.cardterm/config.json`,
then in the user's config (`<XDG config>/cardterm/config.json`). None: no agent (command mode).
*/
import {join} from 'node:path';
import envPaths from 'env-paths';
import type {CardtermConfig} from './approval-policy.js';
import {loadConfigFile} from './approval-policy.js';

export type ModelSetting = {readonly spec: string; readonly baseUrl?: string; readonly from: string};

/** The user's config file: `$XDG_CONFIG_HOME/cardterm/config.json`, else the platform's config folder. */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
	const xdg = env.XDG_CONFIG_HOME;
	return join(xdg !== undefined && xdg !== '' ? join(xdg, 'cardterm') : envPaths('cardterm', {suffix: ''}).config, 'config.json');
}

export async function modelSetting(options: {
	readonly flag?: string;
	readonly baseUrlFlag?: string;
	readonly env: NodeJS.ProcessEnv;
	/** The project's config, already read. */
	readonly project: CardtermConfig;
	readonly projectPath: string;
}): Promise<ModelSetting | undefined> {
	const {env} = options;
	const withUrl = (spec: string, from: string, baseUrl: string | undefined): ModelSetting => ({spec, from, ...(baseUrl === undefined || baseUrl === '' ? {} : {baseUrl})});
	if (options.flag !== undefined) {
		return withUrl(options.flag, '--model', options.baseUrlFlag ?? env.CARDTERM_BASE_URL);
	}

	if (env.CARDTERM_MODEL !== undefined && env.CARDTERM_MODEL.trim() !== '') {
		return withUrl(env.CARDTERM_MODEL, 'CARDTERM_MODEL', options.baseUrlFlag ?? env.CARDTERM_BASE_URL);
	}

	if (options.project.model !== undefined) {
		return withUrl(options.project.model, options.projectPath, options.baseUrlFlag ?? options.project.baseUrl);
	}

	const userPath = userConfigPath(env);
	const user = await loadConfigFile(userPath);
	return user.model === undefined ? undefined : withUrl(user.model, userPath, options.baseUrlFlag ?? user.baseUrl);
}
