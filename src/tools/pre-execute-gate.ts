/**
@module Stages 5–9 after the `tools/pre-execute` waterfall: the decision, the approval service for
`ask` (contract.md §T3.6 mapping) and the monotonic guards.
*/
import type {HookList} from './hook-list.js';
import type {ToolGuard} from './registry-hooks.js';
import type {Agent, ApprovalHandler, ToolExecution} from './types.js';

/** Whether the call may be dispatched: allowed, denied with a reason, or cancelled during approval. */
export type Gate = {readonly kind: 'allow'} | {readonly kind: 'deny'; readonly reason: string} | {readonly kind: 'aborted'};

/** What the gate needs besides the decision. */
export type GateContext = {
	readonly exec: Readonly<ToolExecution>;
	readonly agent: Agent | undefined;
	readonly approval: ApprovalHandler | undefined;
	readonly guards: HookList<ToolGuard>;
	readonly callerSignal: AbortSignal;
};

/**
Turn the pre-execute decision into a gate, then run the guards if it allows. Throws for a
malformed decision, an unknown approval outcome, a throwing approval service or guard; the
pipeline makes those final error results.
*/
export async function resolveGate(decision: unknown, context: GateContext): Promise<Gate> {
	const gate = await decide(decision, context);
	if (gate.kind !== 'allow') {
		return gate;
	}

	const reason = runGuards(context.guards, context.exec);
	return reason === undefined ? gate : {kind: 'deny', reason};
}

async function decide(decision: unknown, {exec, agent, approval, callerSignal}: GateContext): Promise<Gate> {
	if (typeof decision !== 'object' || decision === null) {
		throw new TypeError(`tools/pre-execute for tool "${exec.name}" must resolve to a decision object`);
	}

	const {kind, reason} = decision as {kind?: unknown; reason?: unknown};
	if (kind === 'allow') {
		return {kind: 'allow'};
	}

	if (kind === 'deny') {
		if (typeof reason !== 'string') {
			throw new TypeError(`tools/pre-execute deny decision for tool "${exec.name}" must carry a string reason`);
		}

		return {kind: 'deny', reason};
	}

	if (kind !== 'ask') {
		throw new TypeError(`tools/pre-execute decision kind for tool "${exec.name}" must be allow, deny or ask, got ${show(kind)}`);
	}

	if (reason !== undefined && typeof reason !== 'string') {
		throw new TypeError(`tools/pre-execute ask decision for tool "${exec.name}" has a reason that is not a string`);
	}

	if (approval === undefined) {
		return {kind: 'deny', reason: reason ?? `tool "${exec.name}" requires approval (not yet supported)`};
	}

	if (agent === undefined) {
		return {kind: 'deny', reason: `tool "${exec.name}" requires approval, but the call has no agent to route it through`};
	}

	const outcome: unknown = await approval({
		agent,
		toolName: exec.name,
		callId: exec.callId,
		...(reason === undefined ? {} : {reason}),
		signal: callerSignal,
	});
	if (outcome === 'allowed-once') {
		return {kind: 'allow'};
	}

	if (outcome === 'rejected') {
		return {kind: 'deny', reason: `the user rejected tool "${exec.name}"`};
	}

	if (outcome === 'cancelled') {
		// A cancel that comes with the caller's own abort is a cancellation, not a denial.
		return callerSignal.aborted ? {kind: 'aborted'} : {kind: 'deny', reason: `approval for tool "${exec.name}" was cancelled`};
	}

	if (outcome === 'unavailable') {
		return {kind: 'deny', reason: `tool "${exec.name}" requires approval, but no approval channel is available`};
	}

	throw new TypeError(`approval service answered an unknown outcome for tool "${exec.name}": ${show(outcome)}`);
}

/** The first guard reason wins; guards added while iterating are seen (live iteration). */
function runGuards(guards: HookList<ToolGuard>, exec: Readonly<ToolExecution>): string | undefined {
	for (let index = 0; index < guards.size; index++) {
		const verdict: unknown = guards.at(index)!(exec);
		if (verdict === undefined) {
			continue;
		}

		if (typeof verdict !== 'string') {
			throw new TypeError(`tool guard ${index + 1} must return a deny reason string or undefined for tool "${exec.name}"`);
		}

		return verdict;
	}

	return undefined;
}

function show(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
