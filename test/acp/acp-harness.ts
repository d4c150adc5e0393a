import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import type {ApproveCallback} from '../../src/acp/acp-client.js';
import type {FrameTrace} from '../../src/acp/frame-trace.js';
import {openAcpSession, type AcpSession} from '../../src/host/open-acp-session.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';

/** The scripted agent. */
export const FAKE_AGENT = fileURLToPath(new URL('fake-agent.mjs', import.meta.url));

/** A workspace `<base>/proj` with the files the fake agent's scripts touch; `<base>` is outside it. */
export async function makeWorkspace(): Promise<{base: string; workspace: string; dispose(): Promise<void>}> {
	const base = await realpath(await mkdtemp(path.join(tmpdir(), 'cardterm-acp-')));
	const workspace = path.join(base, 'proj');
	await mkdir(workspace, {recursive: true});
	await writeFile(path.join(workspace, 'notes.md'), '# Notes\n- DEBUG is on\n- level info\n');
	await writeFile(path.join(workspace, 'config.ts'), 'export const DEBUG = true;\nexport const level = "info";\n');
	return {base, workspace, dispose: async () => rm(base, {recursive: true, force: true})};
}

export type Harness = AcpSession & {
	readonly workspace: string;
	readonly base: string;
	/** Every event as the log recorded it, in order. */
	readonly events: SessionEvent[];
	readonly logPath: string;
	dispose(): Promise<void>;
};

/** A session with the fake agent (flags: `--load`, `--auth`), logged under the workspace's base; permission requests are allowed unless `approve` says otherwise. */
export async function startHarness(options: {readonly flags?: readonly string[]; readonly approve?: ApproveCallback | 'session'; readonly resume?: string; readonly authenticate?: Parameters<typeof openAcpSession>[0]['authenticate']; readonly cancelGraceMs?: number; readonly trace?: FrameTrace; readonly mcpServers?: Parameters<typeof openAcpSession>[0]['mcpServers']; readonly mcp?: Parameters<typeof openAcpSession>[0]['mcp']} = {}): Promise<Harness> {
	const {base, workspace, dispose} = await makeWorkspace();
	const root = path.join(base, 'sessions');
	const acp = await openAcpSession({
		command: process.execPath,
		args: [FAKE_AGENT, ...(options.flags ?? [])],
		cwd: workspace,
		root,
		id: 'test-session',
		// `session`: the session's own approvals answer (a screen subscribed to them shows the questions).
		...(options.approve === 'session' ? {} : {approve: options.approve ?? (async question => question.options.find(option => option.kind === 'allow_once')?.optionId)}),
		...(options.resume === undefined ? {} : {resume: options.resume}),
		...(options.authenticate === undefined ? {} : {authenticate: options.authenticate}),
		...(options.cancelGraceMs === undefined ? {} : {cancelGraceMs: options.cancelGraceMs}),
		...(options.trace === undefined ? {} : {trace: options.trace}),
		...(options.mcpServers === undefined ? {} : {mcpServers: options.mcpServers}),
		...(options.mcp === undefined ? {} : {mcp: options.mcp}),
	}).catch(async (error: unknown) => {
		await dispose();
		throw error;
	});
	const events: SessionEvent[] = [];
	acp.session.log.listen(event => {
		events.push(event);
	});
	return {
		...acp,
		workspace,
		base,
		events,
		logPath: path.join(root, 'test-session', 'session.jsonl'),
		async dispose() {
			await acp.close();
			await dispose();
		},
	};
}

/** The log folded again, as `cardterm replay` does. */
export async function replayLog(logPath: string, workspace: string): Promise<{fold: SessionFold; diagnostics: readonly unknown[]}> {
	const log = await openSessionLog(logPath);
	const fold = new SessionFold(referencePresenters(workspace));
	for await (const event of log.events) {
		fold.apply(event);
	}

	return {fold, diagnostics: log.diagnostics};
}
