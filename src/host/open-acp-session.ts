/**
@module An ACP agent's session, assembled: the log (and the fold that draws from it, with the ACP
calls' presenter) from `openSession`, and the client that starts the agent and records what it
does into that log. The agent's permission requests are the session's approval questions.
*/
import {join} from 'node:path';
import {AcpClient, type AcpClientOptions, type ApproveCallback} from '../acp/acp-client.js';
import {withAcpPresenter} from '../acp/acp-presenter.js';
import {makeDirectory} from '../session/store/make-directory.js';
import {acpApprovals} from './acp-approvals.js';
import {openSession, type OpenedSession, type OpenSessionOptions} from './open-session.js';
import type {SessionSecrets} from './session-secrets.js';

export type AcpSessionOptions = Omit<AcpClientOptions, 'log' | 'approve'> & {
	/** The sessions folder: the log is `<root>/<id>/session.jsonl`. Absent: in memory only. */
	readonly root?: string;
	readonly id: string;
	/** The agent's session id to load (`--resume`). */
	readonly resume?: string;
	/** Aborted (Ctrl+C) while the agent starts: its tree is stopped and the start fails. */
	readonly signal?: AbortSignal;
	/** Allow every permission request with the agent's allow option, without asking (`--yolo`). */
	readonly yolo?: boolean;
	/** Who answers permission requests instead of the session's approvals (tests of the client's handling). */
	readonly approve?: ApproveCallback;
	/** The secrets kept from the agent's terminals and redacted from events (default: the keys cardterm knows). */
	readonly secrets?: SessionSecrets;
	/** The person's MCP servers, connected by cardterm too for their prompts (the session's commands); the agent runs their tools. */
	readonly mcp?: Omit<NonNullable<OpenSessionOptions['mcp']>, 'promptsOnly'>;
};

export type AcpSession = {
	readonly session: OpenedSession;
	readonly client: AcpClient;
	/** Stop the agent and close the log. */
	close(): Promise<void>;
};

export async function openAcpSession(options: AcpSessionOptions): Promise<AcpSession> {
	let logPath: string | undefined;
	if (options.root !== undefined) {
		const folder = join(options.root, options.id);
		await makeDirectory(folder);
		logPath = join(folder, 'session.jsonl');
	}

	const session = await openSession({cwd: options.cwd, id: options.id, presenters: withAcpPresenter, ...(logPath === undefined ? {} : {logPath}), ...(options.secrets === undefined ? {} : {secrets: options.secrets}), ...(options.mcp === undefined ? {} : {mcp: {...options.mcp, promptsOnly: true}})});
	let client: AcpClient;
	try {
		// The agent itself gets the whole environment (its own keys); the commands it runs in cardterm's terminals do not.
		client = await AcpClient.start({...options, commandEnv: session.secrets.commandEnv, log: session.log, approve: options.approve ?? acpApprovals(session.approvals, options.yolo === true)});
	} catch (error) {
		await session.close();
		throw error;
	}

	return {
		session,
		client,
		async close() {
			await client.close();
			await session.close();
		},
	};
}
