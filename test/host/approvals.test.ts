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
		const ask = async (callId: string, signal = new AbortController().signal, reason = 'the config asks before bash') => prompt({id: `q-${callId}`, toolName: 'bash', callId, reason, signal} as Parameters<typeof prompt>[0]);
		const first = ask('one');
		const second = ask('two');
		expect(screen.getSnapshot().approval?.callId).toBe('one');
		screen.answerApproval('rejected');
		expect(await first).toEqual({outcome: 'rejected'});
		expect(screen.getSnapshot().approval?.callId).toBe('two');
		screen.answerApproval('allowed-session');
		// Allowed for the session: this call once, and a grant the log records as such.
		expect(await second).toEqual({outcome: 'allowed-once', grant: 'session'});
		expect(session.approvals.grants).toEqual([{tool: 'bash', reason: 'the config asks before bash'}]);
		// The next call asked for the same reason is answered by the grant, with no question.
		expect(await ask('granted')).toEqual({outcome: 'allowed-once', grant: 'session', standing: true});
		const withdrawn = new AbortController();
		// Asked for another reason: no grant covers them.
		const third = ask('three', withdrawn.signal, 'the config asks before bash inside ops/');
		const fourth = ask('four', undefined, 'the config asks before bash inside ops/');
		withdrawn.abort();
		expect(await third).toEqual({outcome: 'cancelled'});
		expect(screen.getSnapshot().approval?.callId).toBe('four');
		await screen.close();
		expect(await fourth).toEqual({outcome: 'cancelled'});
	});
});

describe('grants for the session (attacker 5)', () => {
	async function watchedSession() {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-grants-'));
		const session = await openSession({cwd: workspace});
		const screen = liveSessionFor(session);
		const prompt = callApprovals(session.approvals);
		const ask = async (callId: string, question: {reason: string; everyTime: boolean}) => {
			session.approvals.asking(callId, question);
			return prompt({id: `q-${callId}`, toolName: 'write', callId, reason: question.reason, signal: new AbortController().signal} as Parameters<typeof prompt>[0]);
		};

		return {session, screen, ask};
	}

	it('a grant covers the reasons it was asked for, never a call another rule asks about', async () => {
		const {screen, ask} = await watchedSession();
		const agentOnly = {reason: 'the agent session asks before write', everyTime: false};
		const outsideSrc = {reason: 'the config asks before write outside src/; the agent session asks before write', everyTime: false};
		const granted = ask('inside', agentOnly);
		screen.answerApproval('allowed-session');
		expect(await granted).toEqual({outcome: 'allowed-once', grant: 'session'});
		expect(await ask('inside-again', agentOnly)).toEqual({outcome: 'allowed-once', grant: 'session', standing: true});
		// The config's path rule asks again: the grant did not void it.
		const asked = ask('outside', outsideSrc);
		expect(screen.getSnapshot().approval?.callId).toBe('outside');
		screen.answerApproval('rejected');
		expect(await asked).toEqual({outcome: 'rejected'});
		await screen.close();
	});

	it('a question asked every time offers no grant, and no grant answers it', async () => {
		const {session, screen, ask} = await watchedSession();
		const git = {reason: 'the agent session asks before write; cardterm asks every time before write inside .git/', everyTime: true};
		session.approvals.grant('write', git.reason);
		const asked = ask('hook', git);
		expect(screen.getSnapshot().approval?.choices.map(choice => choice.answer)).toEqual(['allowed-once', 'rejected', 'rejected']);
		screen.answerApproval('allowed-once');
		expect(await asked).toEqual({outcome: 'allowed-once'});
		await screen.close();
	});

	it('words given with a refusal are kept for the call\'s result', async () => {
		const {session, screen, ask} = await watchedSession();
		const asked = ask('w', {reason: 'the agent session asks before write', everyTime: false});
		const choice = screen.getSnapshot().approval!.choices.findIndex(each => each.words === true);
		expect(screen.getSnapshot().approval!.choices[choice]).toMatchObject({answer: 'rejected', label: 'No, and tell the agent what to do differently (type it, then Enter)'});
		screen.answerApproval('rejected', '  use the fixture instead  ');
		expect(await asked).toEqual({outcome: 'rejected', feedback: 'use the fixture instead'});
		expect(session.approvals.takeWords('w')).toBe('use the fixture instead');
		await screen.close();
	});
});

describe('a session nobody watches (-p, acp -p)', () => {
	it('answers at once: a call is unavailable, an ACP request gets the agent\'s reject option (allow under --yolo)', async () => {
		const approvals = new Approvals();
		expect(await callApprovals(approvals)({id: 'q', toolName: 'bash', callId: 'c', signal: new AbortController().signal} as Parameters<ReturnType<typeof callApprovals>>[0])).toEqual({outcome: 'unavailable'});
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
