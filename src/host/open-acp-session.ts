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
import {openSession, type OpenedSession} from './open-session.js';

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

	const session = await openSession({cwd: options.cwd, id: options.id, presenters: withAcpPresenter, ...(logPath === undefined ? {} : {logPath})});
	let client: AcpClient;
	try {
		client = await AcpClient.start({...options, log: session.log, approve: options.approve ?? acpApprovals(session.approvals, options.yolo === true)});
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
