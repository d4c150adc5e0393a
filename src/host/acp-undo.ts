/**
@module `/undo` of an ACP agent's session: what the agent wrote through cardterm (`fs/write_text_file`,
recorded as its cards and `acp/write` notes) is taken back as the native session's is; the undo
cards are the client's own calls in the log, and the agent is told with the person's next prompt.
*/
import type {AcpClient} from '../acp/acp-client.js';
import {changeMeta, UNDO_TOOL} from '../builtin/fs/undo-card.js';
import {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import type {OpenedSession} from './open-session.js';
import {sessionSnapshots, SessionUndo, undoNoteDraft, type StepRecorder} from './session-undo.js';

function acpRecorder(session: Pick<OpenedSession, 'log'>, client: Pick<AcpClient, 'events' | 'note'>): StepRecorder {
	return {
		nextOp: () => `op-${session.log.nextSeq}`,
		async record(cards, note) {
			for (const card of cards) {
				client.events.localCall(UNDO_TOOL, card.args).settle({content: [{type: 'text', text: card.text}], isError: false, meta: changeMeta(card.change)});
			}

			// In the log for the person and a replay; to the agent with the next prompt.
			session.log.emit(undoNoteDraft(note, session.log.nextSeq));
			client.note(note);
		},
	};
}

/** `/undo` of an ACP agent's session; what its terminals' commands changed through the shadow snapshots in `shadowDir`. */
export function acpUndo(session: Pick<OpenedSession, 'id' | 'log' | 'changes' | 'registry'>, client: Pick<AcpClient, 'events' | 'note' | 'waitBeforeChanges'>, cwd: string, shadowDir?: string): SessionUndo {
	const snapshots = sessionSnapshots(session, cwd, shadowDir);
	// The agent's writes and commands go through cardterm: each waits for the snapshots begun so far, as the session's own calls do.
	client.waitBeforeChanges(async () => snapshots.ready());
	return new SessionUndo({history: session.changes, guard: new WorkspaceGuard({workspace: cwd}), recorder: acpRecorder(session, client), snapshots});
}
