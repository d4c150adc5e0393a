/**
The session's approval questions (host/approvals.ts): the session owns them and screens subscribe.
Questions asked while the dialog shows another wait their turn; a withdrawn one leaves; closing
answers all; with no screen subscribed (`-p`), each asker's unattended answer comes at once.
*/
import {mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {PermissionQuestion} from '../../src/acp/acp-client.js';
import {acpApprovals} from '../../src/host/acp-approvals.js';
import {Approvals, callApprovals} from '../../src/host/approvals.js';
import {openSession} from '../../src/host/open-session.js';
import {liveSessionFor} from '../live/live-session-harness.js';

const options = [
	{optionId: 'yes', name: 'Allow', kind: 'allow_once'},
	{optionId: 'no', name: 'Reject', kind: 'reject_once'},
];

function question(callId: string, signal = new AbortController().signal): PermissionQuestion {
	return {approvalId: `a-${callId}`, callId, title: `run ${callId}`, options, signal};
}

/** Approvals a screen watches (it hears every change), and an ACP agent's way of asking them. */
function watched(): {approvals: Approvals; approve: ReturnType<typeof acpApprovals>; changes: () => number} {
	const approvals = new Approvals();
	let changes = 0;
	approvals.subscribe(() => {
		changes++;
	});
	return {approvals, approve: acpApprovals(approvals, false), changes: () => changes};
}

describe('questions asked while the dialog shows another', () => {
	it('ACP: each waits its turn and gets its own answer', async () => {
		const {approvals, approve, changes} = watched();
		const first = approve(question('one'));
		const second = approve(question('two'));
		expect(approvals.current?.callId).toBe('one');
		expect(approvals.size).toBe(2);
		approvals.answer('allowed-once');
		expect(await first).toBe('yes');
		expect(approvals.current?.callId).toBe('two');
		approvals.answer('rejected');
		expect(await second).toBe('no');
		expect(approvals.current).toBeUndefined();
		// Two asked, two answered: the screen heard each.
		expect(changes()).toBe(4);
	});

	it('ACP: a waiting question withdrawn by the agent leaves the shown one; closing answers all, and later ones', async () => {
		const {approvals, approve} = watched();
		const withdrawn = new AbortController();
		const first = approve(question('one'));
		const second = approve(question('two', withdrawn.signal));
		const third = approve(question('three'));
		withdrawn.abort();
		expect(await second).toBeUndefined();
		expect(approvals.current?.callId).toBe('one');
		approvals.close();
		expect([await first, await third]).toEqual([undefined, undefined]);
		expect(approvals.current).toBeUndefined();
		expect(await approve(question('four'))).toBeUndefined();
	});

	it('native session: each call\'s question waits its turn and gets its own answer; the screen shows the oldest', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-approvals-'));
		const session = await openSession({cwd: workspace});
		const screen = liveSessionFor(session);
		const prompt = callApprovals(session.approvals);
		const ask = async (callId: string, signal = new AbortController().signal) => prompt({id: `q-${callId}`, toolName: 'bash', callId, signal} as Parameters<typeof prompt>[0]);
		const first = ask('one');
		const second = ask('two');
		expect(screen.getSnapshot().approval?.callId).toBe('one');
		screen.answerApproval('rejected');
		expect(await first).toBe('rejected');
		expect(screen.getSnapshot().approval?.callId).toBe('two');
		screen.answerApproval('allowed-session');
		// Allowed for the session: recorded as allowed once, and the rules skip the tool from now on.
		expect(await second).toBe('allowed-once');
		expect([...session.approvals.sessionAllowed]).toEqual(['bash']);
		const withdrawn = new AbortController();
		const third = ask('three', withdrawn.signal);
		const fourth = ask('four');
		withdrawn.abort();
		expect(await third).toBe('cancelled');
		expect(screen.getSnapshot().approval?.callId).toBe('four');
		await screen.close();
		expect(await fourth).toBe('cancelled');
	});
});

describe('a session nobody watches (-p, acp -p)', () => {
	it('answers at once: a call is unavailable, an ACP request gets the agent\'s reject option (allow under --yolo)', async () => {
		const approvals = new Approvals();
		expect(await callApprovals(approvals)({id: 'q', toolName: 'bash', callId: 'c', signal: new AbortController().signal} as Parameters<ReturnType<typeof callApprovals>>[0])).toBe('unavailable');
		expect(await acpApprovals(approvals, false)(question('x'))).toBe('no');
		expect(await acpApprovals(approvals, true)(question('y'))).toBe('yes');
		expect(approvals.size).toBe(0);
	});

	it('a question already withdrawn when asked is not shown', async () => {
		const {approvals, approve} = watched();
		const gone = new AbortController();
		gone.abort();
		expect(await approve(question('late', gone.signal))).toBeUndefined();
		expect(approvals.size).toBe(0);
	});
});
