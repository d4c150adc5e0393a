import {mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {ApproveCallback, PermissionQuestion} from '../../src/acp/acp-client.js';
import {acpApprovals} from '../../src/host/acp-approvals.js';
import {Approvals, callApprovals} from '../../src/host/approvals.js';
import {AcpController} from '../../src/cli/acp/acp-controller.js';
import {openSession} from '../../src/host/open-session.js';
import {controllerFor} from './session-controller-harness.js';

const options = [
	{optionId: 'yes', name: 'Allow', kind: 'allow_once'},
	{optionId: 'no', name: 'Reject', kind: 'reject_once'},
];

function question(callId: string, signal = new AbortController().signal): PermissionQuestion {
	return {approvalId: `a-${callId}`, callId, title: `run ${callId}`, options, signal};
}

/** A screen's model over ACP approvals, and the agent's way of asking them. */
function acpController(): {model: AcpController; approve: ApproveCallback} {
	const approvals = new Approvals();
	const model = new AcpController({cwd: '/', sessionId: 's', fold: {counts: {}, entries: []} as never, onFoldChange: () => () => true, onEvent: () => () => true, approvals, client: () => undefined, stopAgent: async () => {}, closeLog: async () => {}});
	return {model, approve: acpApprovals(approvals, false)};
}

describe('questions asked while the dialog shows another', () => {
	it('ACP: each waits its turn and gets its own answer', async () => {
		const {model, approve} = acpController();
		const first = approve(question('one'));
		const second = approve(question('two'));
		expect(model.getSnapshot().approval?.callId).toBe('one');
		model.answerApproval('allowed-once');
		expect(await first).toBe('yes');
		expect(model.getSnapshot().approval?.callId).toBe('two');
		model.answerApproval('rejected');
		expect(await second).toBe('no');
		expect(model.getSnapshot().approval).toBeUndefined();
	});

	it('ACP: a waiting question withdrawn by the agent leaves the shown one; closing answers all', async () => {
		const {model, approve} = acpController();
		const withdrawn = new AbortController();
		const first = approve(question('one'));
		const second = approve(question('two', withdrawn.signal));
		const third = approve(question('three'));
		withdrawn.abort();
		expect(await second).toBeUndefined();
		expect(model.getSnapshot().approval?.callId).toBe('one');
		await model.close();
		expect([await first, await third]).toEqual([undefined, undefined]);
		expect(model.getSnapshot().approval).toBeUndefined();
	});

	it('native session: each call\'s question waits its turn and gets its own answer', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-approvals-'));
		const session = await openSession({cwd: workspace});
		const controller = await controllerFor(session);
		const prompt = callApprovals(session.approvals);
		const ask = async (callId: string, signal = new AbortController().signal) => prompt({id: `q-${callId}`, toolName: 'bash', callId, signal} as Parameters<typeof prompt>[0]);
		const first = ask('one');
		const second = ask('two');
		expect(controller.getSnapshot().approval?.callId).toBe('one');
		controller.answerApproval('rejected');
		expect(await first).toBe('rejected');
		expect(controller.getSnapshot().approval?.callId).toBe('two');
		controller.answerApproval('allowed-once');
		expect(await second).toBe('allowed-once');
		const withdrawn = new AbortController();
		const third = ask('three', withdrawn.signal);
		const fourth = ask('four');
		withdrawn.abort();
		expect(await third).toBe('cancelled');
		expect(controller.getSnapshot().approval?.callId).toBe('four');
		await controller.close();
		expect(await fourth).toBe('cancelled');
	});
});
