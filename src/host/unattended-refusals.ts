/**
@module A session with nobody to answer its approval questions (`cardterm -p`): a call the rules hold
back is refused at once (`unavailable`, approvals.ts). The contract's words for that ("requires
approval, but no approval channel is available") tell the model nothing it can act on, and a
model that reads them tends to try the same thing another way. So the model is told plainly — the
call was not run, nobody can approve it in this run, do not try it again, say what is left — and
the refusals are kept, so the command can tell the person how to allow them and exit non-zero.
*/
import type {ContentBlock} from '../tools/content.js';
import type {OpenedSession} from './open-session.js';

/** A call refused for want of a person to approve it. */
export type UnattendedRefusal = {readonly toolName: string; readonly callId: string};

export type UnattendedRefusals = {
	/** The calls refused so far, in order. */
	readonly refused: readonly UnattendedRefusal[];
	/** Stop listening (the session closes). */
	stop(): void;
};

/**
Watches `session` for calls refused without a person (`approval/decided` `unavailable`) and rewrites
what the model reads of each: the contract's reason, then `howToAllow(tool)`'s words after "the
person can" (how the person would allow it next time).
*/
export function unattendedRefusals(session: Pick<OpenedSession, 'log' | 'registry'>, howToAllow: (toolName: string) => string): UnattendedRefusals {
	const asked = new Map<string, UnattendedRefusal>();
	const refused: UnattendedRefusal[] = [];
	const refusedCalls = new Set<string>();
	const stopListening = session.log.listen(event => {
		if (event.type === 'approval/asked' && event.data.callId !== undefined) {
			asked.set(event.data.id, {toolName: event.data.toolName, callId: event.data.callId});
		} else if (event.type === 'approval/decided') {
			const call = asked.get(event.data.id);
			asked.delete(event.data.id);
			if (call !== undefined && event.data.outcome === 'unavailable') {
				refused.push(call);
				refusedCalls.add(call.callId);
			}
		}
	});
	// The denial runs through post-execute like any result (contract.md §T3.5 step 9): only its text changes.
	const stopRewriting = session.registry.on('tools/post-execute', async (exec, result, next) => {
		if (!result.isError || !refusedCalls.has(exec.callId)) {
			return next();
		}

		const text = `Error: ${result.error.message}. This is an unattended run (cardterm -p): nobody can approve calls in it, so this ${exec.name} call was not run. Do not try it again, in this way or another; finish what you can without it, and say in your answer what was not done and why — the person can ${howToAllow(exec.name)}.`;
		const content: ContentBlock[] = [{type: 'text', text}];
		return {kind: 'accept', content};
	});
	return {
		refused,
		stop() {
			stopListening();
			stopRewriting();
		},
	};
}
