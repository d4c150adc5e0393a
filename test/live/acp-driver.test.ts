import {describe, expect, it} from 'vitest';
import type {AcpClient, PermissionQuestion} from '../../src/acp/acp-client.js';
import {acpDriver, acpLiveSession} from '../../src/live/acp-driver.js';
import {LiveSession} from '../../src/live/live-session.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {acpApprovals, approvalChoices, optionForAnswer} from '../../src/host/acp-approvals.js';
import {Approvals} from '../../src/host/approvals.js';
import {startHarness} from '../acp/acp-harness.js';
import {until} from './live-session-harness.js';
import {promptHintOf} from '../../components/prompt-hint.js';
import {queueRowTexts} from '../../components/QueueRows.js';
import {statusText} from '../../components/StatusLine.js';

const options = [
	{optionId: 'proceed_once', name: 'Allow', kind: 'allow_once'},
	{optionId: 'proceed_always', name: 'Always', kind: 'allow_always'},
	{optionId: 'abort', name: 'Reject', kind: 'reject_once'},
];

describe('the live session over an ACP agent (the ACP driver)', () => {
	it('answers the dialog with the agent\'s option of the kind the key stands for', () => {
		expect(optionForAnswer('allowed-once', options)?.optionId).toBe('proceed_once');
		expect(optionForAnswer('allowed-session', options)?.optionId).toBe('proceed_always');
		expect(optionForAnswer('rejected', options)?.optionId).toBe('abort');
		expect(optionForAnswer('cancelled', options)).toBeUndefined();
		// An agent without an "always" option: the session key allows once.
		expect(optionForAnswer('allowed-session', options.filter(option => option.kind !== 'allow_always'))?.optionId).toBe('proceed_once');
	});

	it('offers every option kind the agent sent as a choice of its own, and answers each with its option', () => {
		const all = [...options, {optionId: 'never', name: 'Never allow', kind: 'reject_always'}];
		expect(approvalChoices(all)).toEqual([
			{label: 'allow once', answer: 'allowed-once'},
			{label: 'allow always', answer: 'allowed-session'},
			{label: 'reject once', answer: 'rejected'},
			{label: 'reject always (Never allow)', answer: 'rejected-always'},
		]);
		// A name that says more than the kind is kept (Gemini CLI's).
		expect(approvalChoices([{optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always'}])).toEqual([{label: 'allow always (Allow for this session)', answer: 'allowed-session'}]);
		expect(optionForAnswer('rejected-always', all)?.optionId).toBe('never');
		expect(optionForAnswer('rejected', all)?.optionId).toBe('abort');
		// Only the kinds offered are choices (Gemini CLI: no reject-always); a name that is the kind's words is not repeated.
		expect(approvalChoices([{optionId: 'x', name: 'Reject once', kind: 'reject_once'}])).toEqual([{label: 'reject once', answer: 'rejected'}]);
		expect(approvalChoices([{optionId: 'x', name: 'Maybe', kind: 'shrug'}])).toEqual([]);
	});

	it('records a reject-always answer as such: the dialog\'s reject-always choice picks the agent\'s reject_always option', async () => {
		const harness = await startHarness({approve: 'session'});
		try {
			const model = controllerOf(harness);
			model.submit('permission-all');
			await until(() => model.getSnapshot().approval !== undefined);
			expect(model.getSnapshot().approval?.choices.map(choice => choice.label)).toEqual(['allow once', 'allow always', 'reject once', 'reject always (Never allow)']);
			expect(promptHintOf(model.getSnapshot())).toBe('Enter answers the question above (↑↓ choose)');
			model.answerApproval('rejected-always');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : [])).toEqual(['Permission: never.']);
			expect(harness.events.filter(event => event.type === 'approval/decided').map(event => (event.data as {outcome: string}).outcome)).toEqual(['rejected-always']);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('a permission request with no options offers only to cancel it, never choices the agent did not give (attacker 11)', async () => {
		const harness = await startHarness({approve: 'session'});
		try {
			const model = controllerOf(harness);
			model.submit('permission-none');
			await until(() => model.getSnapshot().approval !== undefined);
			expect(model.getSnapshot().approval).toMatchObject({reason: 'the agent offers no choice', choices: [{label: 'cancel the request', answer: 'cancelled'}]});
			model.answerApproval('cancelled');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : [])).toEqual(['Permission: cancelled.']);
			expect(harness.events.filter(event => event.type === 'approval/decided').map(event => (event.data as {outcome: string}).outcome)).toEqual(['cancelled']);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('draws the agent\'s streaming message in the live frame chunk by chunk, before it settles', async () => {
		const harness = await startHarness();
		try {
			const model = controllerOf(harness);
			// Every snapshot the live frame was given (no timing: each change is seen as it happens).
			const live: string[] = [];
			model.subscribe(() => {
				const texts = (model.getSnapshot().runningEntries ?? []).flatMap(entry => entry.entry === 'assistant' ? [entry.text] : []);
				if (texts.length > 0 && texts.join('') !== live.at(-1)) {
					live.push(texts.join(''));
				}
			});
			model.submit('stream 3 1');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(live).toEqual(['tick1z ', 'tick1z tick2z ', 'tick1z tick2z tick3z ']);
			// Once settled, the message is in the transcript and gone from the live frame.
			expect(model.getSnapshot().runningEntries).toEqual([]);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('runs prompts through the agent, shows its permission question, completes its slash commands, and closes', async () => {
		const harness = await startHarness({approve: 'session'});
		try {
			const scrollback: string[] = [];
			const model = controllerOf(harness);
			expect(model.getSnapshot().mode).toBe('ask');
			model.onScrollback(entry => {
				scrollback.push(entry.kind === 'entry' ? entry.entry.entry : 'lines');
			});
			model.submit('tour');
			await until(() => scrollback.includes('turn'));
			// The agent's mode change and context use reach the status line.
			// The agent's usage_update (1 200 of 200 000 tokens) feeds the same meter as the native agent's ledger.
			expect(model.getSnapshot().mode).toBe('code');
			expect(model.getSnapshot().agent).toBe('0.01 USD');
			expect(model.getSnapshot().context).toBe('1% · 1k/200k');
			expect(statusText({cwd: '/w', sessionId: 's', snapshot: model.getSnapshot(), width: 200})).toBe('mode code · 0.01 USD · 1% · 1k/200k · /w · ● 5 ok  ✗ 1 error · s');
			expect(await model.complete('/r', 2)).toEqual(['/redo', '/rewind', '/review']);
			expect(await model.complete('/x', 2)).toEqual([]);
			model.submit('permission');
			await until(() => model.getSnapshot().approval !== undefined);
			expect(model.getSnapshot().approval).toMatchObject({callId: 'call_rm', toolName: 'rm -rf build', reason: 'the agent offers Allow / Always allow / Reject'});
			model.answerApproval('rejected');
			await until(() => scrollback.filter(kind => kind === 'turn').length === 2);
			expect(harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : [])).toContain('Permission: abort.');
			await model.close();
			expect(model.getSnapshot().closing).toBe(true);
		} finally {
			await harness.dispose();
		}
	});

	it('Ctrl+C cancels the turn; a second one kills the agent', async () => {
		const calls: string[] = [];
		const client = {
			prompt: async () => new Promise(() => {}),
			exited: new Promise(() => {}),
			cancel: () => calls.push('cancel'),
			kill: async () => {
				calls.push('kill');
			},
		} as unknown as AcpClient;
		const model = bareSession(client, new Approvals());
		expect(model.cancel()).toBe(false);
		model.submit('go');
		expect(model.cancel()).toBe(true);
		expect(model.cancel()).toBe(true);
		expect(calls).toEqual(['cancel', 'kill']);
	});

	it('writes a resumed session\'s history (the agent\'s load replay) to the scrollback before the first prompt', async () => {
		const harness = await startHarness({flags: ['--load'], resume: 'fake-1'});
		try {
			const model = controllerOf(harness);
			const written: string[] = [];
			model.onScrollback(entry => {
				if (entry.kind === 'entry') {
					const {entry: shown} = entry;
					written.push(shown.entry === 'user' || shown.entry === 'assistant' ? `${shown.entry}: ${shown.text}` : shown.entry);
				}
			});
			expect(written).toEqual(['user: What was the plan?', 'assistant: The plan was to fix the config.', 'turn']);
			model.submit('next');
			await until(() => written.length === 6);
			expect(written.slice(3)).toEqual(['user: next', 'assistant: You said: next', 'turn']);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('a pager opened during the turn is kept current: what settles after it opened appears in it', async () => {
		const harness = await startHarness();
		try {
			const model = controllerOf(harness);
			model.submit('stream 4 40');
			await until(() => (model.getSnapshot().runningEntries ?? []).length > 0);
			const pager = await model.pagerSource();
			const kinds = () => Array.from({length: pager.count()}, (_, index) => pager.entry(index)?.entry);
			expect(kinds()).toEqual(['user']);
			let told = 0;
			pager.subscribe?.(() => {
				told++;
			});
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(kinds()).toEqual(['user', 'assistant', 'turn']);
			const answer = pager.entry(1);
			expect(answer?.entry === 'assistant' ? answer.text : undefined).toBe('tick1z tick2z tick3z tick4z ');
			expect(told).toBeGreaterThan(0);
			pager.close?.();
			model.submit('hello');
			await until(() => harness.session.fold.entries.filter(entry => entry.entry === 'turn').length === 2);
			// A closed pager is fed no more.
			expect(kinds()).toEqual(['user', 'assistant', 'turn']);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('a cancel holds the lines typed during the turn: Enter sends them, and nothing is sent meanwhile', async () => {
		const harness = await startHarness();
		try {
			const model = controllerOf(harness);
			const notices = noticesOf(model);
			model.submit('slow');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'assistant' || entry.entry === 'card') || (model.getSnapshot().runningEntries ?? []).length > 0);
			model.submit('after the slow one');
			expect(model.getSnapshot().queue.map(item => item.label)).toEqual(['after the slow one']);
			expect(model.cancel()).toBe(true);
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			await until(() => notices.some(text => text.includes('still queued')));
			expect(notices).toContain('1 line still queued, not run: after the slow one — Enter runs it, Ctrl+C drops it');
			expect(model.getSnapshot()).toMatchObject({queue: [{id: 2, label: 'after the slow one'}], queueHeld: true});
			expect(queueRowTexts(model.getSnapshot().queue, model.getSnapshot().queueHeld === true, 100, 10)).toEqual(['↳ after the slow one', '  held after the cancel: Enter runs all, Ctrl+C drops all · Alt+↑ edit · Alt+↓ drop the newest']);
			expect(userTexts(harness)).toEqual(['slow']);
			model.submit('');
			await until(() => harness.session.fold.entries.filter(entry => entry.entry === 'turn').length === 2);
			expect(userTexts(harness)).toEqual(['slow', 'after the slow one']);
			expect(harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : [])).toContain('You said: after the slow one');
			expect(model.getSnapshot().queue).toEqual([]);
			expect(model.getSnapshot().queueHeld).toBeUndefined();
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('Ctrl+C after the cancelled turn drops the held lines, naming them; a new line then runs alone', async () => {
		const harness = await startHarness();
		try {
			const model = controllerOf(harness);
			const notices = noticesOf(model);
			model.submit('slow');
			await until(() => (model.getSnapshot().runningEntries ?? []).length > 0 || harness.session.fold.entries.some(entry => entry.entry === 'assistant'));
			model.submit('one');
			model.submit('two');
			model.cancel();
			await until(() => notices.some(text => text.includes('still queued')));
			expect(model.cancel()).toBe(true);
			expect(notices.at(-1)).toBe('dropped 2 lines that waited: one · two');
			expect(model.getSnapshot().queue).toEqual([]);
			expect(model.cancel()).toBe(false);
			model.submit('three');
			await until(() => harness.session.fold.entries.filter(entry => entry.entry === 'turn').length === 2);
			expect(userTexts(harness)).toEqual(['slow', 'three']);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('a turn cancelled before the agent said anything ends with the turn rule a native turn has; the status line says it runs and how to stop it', async () => {
		const harness = await startHarness();
		try {
			const model = controllerOf(harness);
			model.submit('silent');
			await until(() => model.getSnapshot().turn !== undefined);
			expect(statusText({cwd: '/w', sessionId: 's', snapshot: model.getSnapshot(), width: 200, now: model.getSnapshot().turn!.startTime})).toBe('Esc to cancel · working 0s · mode ask · /w · s');
			expect(model.cancel()).toBe(true);
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(harness.session.fold.entries.map(entry => entry.entry === 'turn' ? `turn ${entry.outcome.text}` : entry.entry)).toEqual(['user', 'turn cancelled by you']);
			expect(model.getSnapshot().turn).toBeUndefined();
			await model.close();
		} finally {
			await harness.dispose();
		}
	});

	it('--yolo answers with allow-once without showing the dialog', async () => {
		const approvals = new Approvals();
		const model = bareSession({exited: new Promise(() => {})} as unknown as AcpClient, approvals);
		const question: PermissionQuestion = {approvalId: 'a', callId: 'c', title: 't', options, signal: new AbortController().signal};
		expect(await acpApprovals(approvals, true)(question)).toBe('proceed_once');
		expect(model.getSnapshot().approval).toBeUndefined();
	});
	it('Shift+Tab cycles the agent\'s announced modes through session/set_mode; /mode names one; the log records each change once', async () => {
		const harness = await startHarness({approve: 'session'});
		try {
			const model = controllerOf(harness);
			expect(model.getSnapshot().mode).toBe('ask');
			model.cycleMode();
			await until(() => model.getSnapshot().mode === 'code');
			model.submit('mode');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : [])).toContain('mode is code');
			model.submit('/mode ask');
			await until(() => model.getSnapshot().mode === 'ask');
			// A mode the agent did not announce is refused here, naming its modes; nothing reaches the agent.
			const said: string[] = [];
			model.onScrollback(entry => {
				if (entry.kind === 'lines') {
					said.push(entry.lines.map(line => line.spans.map(span => span.text).join('')).join('\n'));
				}
			});
			model.submit('/mode plan');
			await until(() => said.length > 0);
			expect(said[0]).toContain('the agent has no mode "plan" (its modes: ask, code)');
			const notices = harness.session.fold.entries.flatMap(entry => entry.entry === 'notice' ? [entry.summary] : []);
			expect(notices.filter(text => text.startsWith('mode:'))).toEqual(['mode: code (Shift+Tab)', 'mode: ask (/mode)']);
			await model.close();
		} finally {
			await harness.dispose();
		}
	});
});


/** The live session over a harness's session and client, as `cardterm acp` builds it (the agent's mode at the start is `ask`). */
function controllerOf(harness: Awaited<ReturnType<typeof startHarness>>): LiveSession {
	return acpLiveSession(harness, harness.workspace);
}

/** A live session over `client` with an empty fold and no log. */
function bareSession(client: AcpClient, approvals: Approvals): LiveSession {
	return new LiveSession({
		cwd: '/',
		sessionId: 's',
		fold: new SessionFold(referencePresenters('/')),
		onFoldChange: () => () => true,
		approvals,
		driver: acpDriver({client, cwd: '/', onEvent: () => () => true, closeLog: async () => {}}),
	});
}

/** The text of every notice the model writes to the scrollback, as it comes. */
function noticesOf(model: LiveSession): string[] {
	const notices: string[] = [];
	model.onScrollback(entry => {
		if (entry.kind === 'lines') {
			notices.push(entry.lines.map(line => line.spans.map(span => span.text).join('')).join('\n'));
		}
	});
	return notices;
}

/** What the person's messages of the transcript say. */
function userTexts(harness: Awaited<ReturnType<typeof startHarness>>): string[] {
	return harness.session.fold.entries.flatMap(entry => entry.entry === 'user' ? [entry.text] : []);
}
