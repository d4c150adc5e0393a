// A recorded log's events as drafts a session emits again (bench/acp-session.mjs and
// bench/acp-drawn.mjs feed a native session the events a live ACP turn recorded).
import {openSessionLog} from '../../dist/src/session/reader/read-session-log.js';

/** The events of the log at `logPath` as drafts, with their seqs. */
export async function readDrafts(logPath) {
	const log = await openSessionLog(logPath);
	const drafts = [];
	const seqs = [];
	for await (const event of log.events) {
		drafts.push({type: event.type, data: event.data, ...(event.ignorable ? {ignorable: true} : {}), ...(event.surfaceOp === undefined ? {} : {surfaceOp: event.surfaceOp}), ...(event.sourceEventSeqs === undefined ? {} : {sourceEventSeqs: event.sourceEventSeqs})});
		seqs.push(event.seq);
	}

	return {drafts, seqs};
}
