/**
@module The hooks a session runs: the user's own, and a project's only once the person allowed them
— a project's file must not run commands on its own, so its hooks follow its MCP servers' consent
rule (`mcp-setup.ts`): asked once above the first frame when a person is there ("no" first,
remembered when allowed, a changed hook asks again); without one (`-p`) they are not run and a line
says how to allow them. `--yolo` allows them for the session.
*/
import {projectConsented, rememberProjectConsent} from '../../config/endpoint-consent.js';
import {hookConsentKey, type HookEntry} from '../../config/hooks-config.js';
import type {CardtermConfig} from '../../config/load-config.js';
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {CliIo} from '../environment/cli-io.js';
import {askConsent} from './endpoint-question.js';
import type {McpSetupOptions} from './mcp-setup.js';

/** The hooks to run; `undefined` when the person quit at the question. */
export async function chooseHooks(config: CardtermConfig, io: Pick<CliIo, 'env' | 'write' | 'columns' | 'printError'>, options: McpSetupOptions): Promise<readonly HookEntry[] | undefined> {
	const run: HookEntry[] = [];
	const unconsented: HookEntry[] = [];
	for (const entry of config.hooks ?? []) {
		// eslint-disable-next-line no-await-in-loop -- a project names a few hooks; the consent file is small
		const allowed = !entry.byProject || options.yolo || (await projectConsented(hookConsentKey(entry), config, io.env));
		(allowed ? run : unconsented).push(entry);
	}

	if (unconsented.length === 0) {
		return run;
	}

	const listed = unconsented.map(entry => `  ${entry.event}${entry.matcher === undefined ? '' : ` (${sanitizeInline(entry.matcher)})`}: ${sanitizeInline(entry.command)}  (${sanitizeInline(entry.from)})`).join('\n');
	if (options.ask === undefined) {
		await io.printError(`cardterm: this project's hooks are not run: you have not allowed them (allow them in an interactive session, or run with --yolo):\n${listed}\n`);
		return run;
	}

	await options.ask.above('');
	const answer = await askConsent(io, options.ask.stdin, {
		text: `\nThis project's files name hooks that cardterm would run around the agent's calls:\n${listed}\nThey run as you, in this folder. Allow them?\n`,
		choices: ['No: run without them', 'Yes: allow them for this project (remembered)'],
	}, options.ask.signal);
	switch (answer) {
		case 'allow': {
			const kept = await rememberProjectConsent(unconsented.map(entry => hookConsentKey(entry)), config, io.env);
			await options.ask.above(`cardterm: the project's hooks are allowed for this project (remembered in ${kept})\n`);
			return [...run, ...unconsented];
		}

		case 'refuse': {
			await options.ask.above('cardterm: the project\'s hooks are not run\n');
			return run;
		}

		case 'quit': {
			return undefined;
		}

		default: {
			return assertNever(answer);
		}
	}
}
