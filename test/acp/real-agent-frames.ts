/**
Replays a real agent's recorded frames (`fixtures/real-agents/<agent>.jsonl`, written by
`real-agents.mjs` from a CARDTERM_ACP_TRACE) through the client's mapping and file methods, so
what each agent was seen to send stays a unit test. The recorded workspace `/tmp/acp-check/work`
is a fresh one here, holding the file the script's agent read and edited.
*/
import {readFile, writeFile} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import {AcpEvents} from '../../src/acp/acp-events.js';
import {AcpFiles} from '../../src/acp/acp-files.js';
import {withAcpPresenter} from '../../src/acp/acp-presenter.js';
import {WorkspaceGuard} from '../../src/builtin/workspace/workspace-guard.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import type {TranscriptEntry} from '../../src/presentation/entry.js';
import {EventLog} from '../../src/session/events/event-log.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {SessionFold} from '../../src/session/fold/fold.js';

type Frame = {dir: 'in' | 'out'; method?: string; params?: Record<string, any>; result?: Record<string, any>; raw?: string};

const RECORDED = '/tmp/acp-check/work';

export async function replayAgentFrames(agent: string, workspace: string): Promise<{entries: readonly TranscriptEntry[]; events: SessionEvent[]; written: string[]}> {
	const text = await readFile(fileURLToPath(new URL(`fixtures/real-agents/${agent}.jsonl`, import.meta.url)), 'utf8');
	const frames = text.trimEnd().split('\n').map(line => JSON.parse(line.replaceAll(RECORDED, workspace).replaceAll(RECORDED.slice(1), workspace.slice(1))) as Frame);
	await writeFile(`${workspace}/notes.txt`, 'alpha line\nbeta line\n');
	const log = new EventLog({now: () => 1000});
	const events: SessionEvent[] = [];
	const fold = new SessionFold(withAcpPresenter(referencePresenters(workspace)));
	log.listen(event => {
		events.push(event);
		fold.apply(event);
	});
	const acp = new AcpEvents(log, {agentName: agent});
	const files = new AcpFiles(new WorkspaceGuard({workspace}), acp);
	const written: string[] = [];
	for (const frame of frames) {
		if (frame.dir === 'out') {
			if (frame.method === 'session/prompt') {
				acp.startTurn(String(frame.params?.prompt?.[0]?.text ?? ''));
			}

			continue;
		}

		switch (frame.method) {
			case 'session/update': {
				acp.update(frame.params?.update);
				break;
			}

			case 'session/request_permission': {
				const id = acp.askPermission(frame.params?.toolCall, frame.params?.options ?? []);
				acp.decidePermission(id, 'allow_once');
				break;
			}

			case 'fs/read_text_file': {
				await files.readTextFile(frame.params as {path: string});
				break;
			}

			case 'fs/write_text_file': {
				await files.writeTextFile(frame.params as {path: string; content: string}, new AbortController().signal);
				written.push(String(frame.params?.path));
				break;
			}

			default: {
				if (typeof frame.result?.stopReason === 'string') {
					acp.endTurn({stopReason: frame.result.stopReason});
				}
			}
		}
	}

	return {entries: fold.entries, events, written};
}
