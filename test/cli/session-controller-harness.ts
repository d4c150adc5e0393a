import {PromptHistory} from '../../src/cli/interactive/prompt-history.js';
import {SessionController, type SessionControllerOptions} from '../../src/cli/interactive/session-controller.js';
import type {OpenedSession} from '../../src/host/open-session.js';

/** The live screen's controller over `session` as the interactive session builds it (no agent, no saved history), with `extra` options on top. */
export async function controllerFor(session: OpenedSession, extra: Partial<SessionControllerOptions> = {}): Promise<SessionController> {
	return new SessionController({
		cwd: session.header.cwd ?? process.cwd(),
		sessionId: session.id,
		fold: session.fold,
		onFoldChange: listener => session.onFoldChange(listener),
		approvals: session.approvals,
		runtime: session.runtime,
		toolNames: () => session.toolNames(),
		history: await PromptHistory.load(undefined),
		shutdown: async () => session.close(),
		...extra,
	});
}
