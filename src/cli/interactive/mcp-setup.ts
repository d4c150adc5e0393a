/**
@module The MCP servers a session starts (native) or hands its agent (ACP): the configured ones the
person may use (`mcp-consent.ts`). A project's servers nobody allowed yet are asked about once,
above the first frame, when a person is there (the endpoint question's rules: "no" first, Enter
confirms, remembered when allowed); without a person (`-p`, `acp -p`) they are not started and a
line says how to allow them. `--yolo` allows them for the session.
*/
import {mcpServerChoice, allowMcpServers} from '../../config/mcp-consent.js';
import {describeMcpSpec, type McpServerEntry} from '../../config/mcp-servers.js';
import type {CardtermConfig} from '../../config/load-config.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {CliIo} from '../environment/cli-io.js';
import {askConsent, type QuestionInput} from './endpoint-question.js';

/** The servers to start, and the project's ones left waiting for consent. */
export type McpChoice = {readonly servers: readonly McpServerEntry[]; readonly unconsented: readonly McpServerEntry[]};

export type McpSetupOptions = {
	readonly yolo: boolean;
	/** A person to ask (the interactive session): the question is drawn above the first frame. */
	readonly ask?: {readonly stdin: QuestionInput; readonly above: (text: string) => Promise<void>; readonly signal: AbortSignal};
};

/** The session's MCP servers; `undefined` when the person quit at the question. */
export async function chooseMcpServers(config: CardtermConfig, io: Pick<CliIo, 'env' | 'write' | 'columns' | 'printError'>, options: McpSetupOptions): Promise<McpChoice | undefined> {
	const {start, unconsented} = await mcpServerChoice(config, io.env, {yolo: options.yolo});
	if (unconsented.length === 0) {
		return {servers: start, unconsented: []};
	}

	const listed = unconsented.map(entry => `  ${entry.name}: ${describeMcpSpec(entry.spec)}  (${entry.from})`).join('\n');
	if (options.ask === undefined) {
		await io.printError(`cardterm: this project's MCP servers are not started: you have not allowed them (allow them in an interactive session, or run with --yolo):\n${listed}\n`);
		return {servers: start, unconsented};
	}

	await options.ask.above('');
	const answer = await askConsent(io, options.ask.stdin, {
		text: `\nThis project's files name MCP servers that cardterm would start:\n${listed}\nThey run as you, with your environment's keys they are given. Allow them?\n`,
		choices: ['No: start without them', 'Yes: allow them for this project (remembered)'],
	}, options.ask.signal);
	switch (answer) {
		case 'allow': {
			const kept = await allowMcpServers(unconsented, config, io.env);
			await options.ask.above(`cardterm: MCP servers ${unconsented.map(entry => entry.name).join(', ')} allowed for this project (remembered in ${kept})\n`);
			return {servers: [...start, ...unconsented], unconsented: []};
		}

		case 'refuse': {
			await options.ask.above('cardterm: the project\'s MCP servers are not started (/mcp lists them)\n');
			return {servers: start, unconsented};
		}

		case 'quit': {
			return undefined;
		}

		default: {
			return assertNever(answer);
		}
	}
}

/** What `openSession` is given of the choice. */
export function sessionMcpOptions(choice: McpChoice, env: NodeJS.ProcessEnv, options: {readonly yolo: boolean; readonly clientVersion?: string}) {
	return {servers: choice.servers, unconsented: choice.unconsented, env, ask: !options.yolo, ...(options.clientVersion === undefined ? {} : {clientVersion: options.clientVersion})};
}
