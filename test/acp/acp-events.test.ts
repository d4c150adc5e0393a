import {describe, expect, it} from 'vitest';
import {AcpEvents, PROGRESS_LOG_LIMIT} from '../../src/acp/acp-events.js';
import {withAcpPresenter} from '../../src/acp/acp-presenter.js';
import {cardsOf} from '../../src/presentation/entry.js';
import {EventLog} from '../../src/session/events/event-log.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {SessionFold} from '../../src/session/fold/fold.js';

function setup(terminals: Record<string, {output: string; exitCode?: number}> = {}) {
	const log = new EventLog({now: () => 1000});
	const events: SessionEvent[] = [];
	const fold = new SessionFold(withAcpPresenter(() => undefined));
	log.listen(event => {
		events.push(event);
		fold.apply(event);
	});
	const acp = new AcpEvents(log, {terminalOutput: id => terminals[id]});
	return {acp, events, fold, types: () => events.map(event => event.type)};
}

const call = (toolCallId: string, fields: Record<string, unknown>) => ({sessionUpdate: 'tool_call', toolCallId, ...fields});
const patch = (toolCallId: string, fields: Record<string, unknown>) => ({sessionUpdate: 'tool_call_update', toolCallId, ...fields});
const say = (text: string) => ({sessionUpdate: 'agent_message_chunk', content: {type: 'text', text}});

describe('AcpEvents', () => {
	it('writes the step\'s message before a tool call, and text after a call opens the next step', () => {
		const {acp, types, fold} = setup();
		acp.startTurn('go');
		acp.update(say('First.'));
		acp.update(call('a', {title: 'A', kind: 'other', status: 'in_progress'}));
		acp.update(say('Second.'));
		acp.update(patch('a', {status: 'completed'}));
		acp.endTurn({stopReason: 'end_turn'});
		expect(types()).toEqual([
			'turn/start', 'step/start', 'user/message',
			'assistant/chunk', 'assistant/chunk', 'assistant/message', 'tool/call',
			// The call of step 1 still runs when the agent speaks again; it settles before the steps end.
			'step/start', 'assistant/chunk', 'assistant/chunk', 'tool/result',
			'assistant/message', 'step/end', 'step/end', 'turn/end',
		]);
		expect(cardsOf(fold.entries).map(card => card.status)).toEqual(['ok']);
	});

	it('merges partial updates: fields an update leaves out (or sends as null) stay', () => {
		const {acp, fold} = setup();
		acp.startTurn('go');
		acp.update(call('x', {title: 'Run tests', kind: 'execute', status: 'pending', rawInput: {command: 'npm test'}}));
		acp.update(patch('x', {title: null, status: 'in_progress', content: [{type: 'content', content: {type: 'text', text: 'PASS'}}]}));
		acp.update(patch('x', {status: 'completed'}));
		const [card] = cardsOf(fold.entries);
		expect(card!.callView).toEqual({card: 'terminal', title: 'npm test', description: 'Run tests'});
		expect(card!.resultView).toEqual({card: 'terminal', output: 'PASS'});
	});

	it('shows only the new part of text an agent resends whole while the call runs', () => {
		const {acp, events} = setup();
		acp.startTurn('go');
		acp.update(call('x', {title: 'build', kind: 'execute', status: 'in_progress'}));
		acp.update(patch('x', {content: [{type: 'content', content: {type: 'text', text: 'step 1'}}]}));
		acp.update(patch('x', {content: [{type: 'content', content: {type: 'text', text: 'step 1\nstep 2'}}]}));
		acp.update(patch('x', {content: [{type: 'content', content: {type: 'text', text: 'step 1\nstep 2'}}]}));
		expect(events.filter(event => event.type === 'cardterm/tool-progress').map(event => (event.data as {text: string}).text)).toEqual(['step 1', '\nstep 2']);
	});

	it('creates the card of an update for an id it never saw, and ignores an update after the result', () => {
		const {acp, fold, types} = setup();
		acp.startTurn('go');
		acp.update(patch('late', {title: 'Fetch', kind: 'fetch', status: 'completed', content: [{type: 'content', content: {type: 'text', text: 'ok'}}]}));
		acp.update(patch('late', {status: 'failed'}));
		expect(types().filter(type => type.startsWith('tool/'))).toEqual(['tool/call', 'tool/result']);
		expect(cardsOf(fold.entries)[0]).toMatchObject({status: 'ok', callView: {card: 'generic', title: 'Fetch', kind: 'fetch'}});
	});

	it('settles running calls as cancelled when the turn is cancelled, and names the stop reason otherwise', () => {
		const {acp, fold} = setup();
		acp.startTurn('go');
		acp.update(say('Starting.'));
		acp.update(call('x', {title: 'slow', status: 'in_progress'}));
		acp.endTurn({stopReason: 'cancelled'});
		acp.startTurn('again');
		acp.update(say('More.'));
		acp.endTurn({stopReason: 'max_turn_requests'});
		expect(cardsOf(fold.entries)[0]).toMatchObject({status: 'cancelled', result: {content: [{type: 'text', text: 'Error: tool call aborted'}]}});
		expect(fold.entries.filter(entry => entry.entry === 'turn').map(entry => entry.entry === 'turn' && entry.outcome.text)).toEqual(['cancelled by you', 'max turn requests']);
	});

	it('a command the cancel stopped keeps what it printed: its terminal\'s output, or the text the agent streamed', () => {
		const {acp, fold} = setup({t1: {output: 'compiling\n3 of 9 done\n'}});
		acp.startTurn('build');
		acp.update(call('b', {title: 'npm run build', kind: 'execute', status: 'in_progress', rawInput: {command: 'npm run build'}, content: [{type: 'terminal', terminalId: 't1'}]}));
		acp.update(call('s', {title: 'make', kind: 'execute', status: 'in_progress', rawInput: {command: 'make'}}));
		acp.update(patch('s', {content: [{type: 'content', content: {type: 'text', text: 'cc -c a.c'}}]}));
		acp.update(call('q', {title: 'quiet', kind: 'execute', status: 'in_progress', rawInput: {command: 'sleep 9'}}));
		acp.endTurn({stopReason: 'cancelled'});
		const cards = cardsOf(fold.entries);
		expect(cards.map(card => [card.outcome, card.resultView])).toEqual([
			['cancelled', {card: 'terminal', output: 'compiling\n3 of 9 done\n'}],
			['cancelled', {card: 'terminal', output: 'cc -c a.c'}],
			// Nothing shown: the command, and no output.
			['cancelled', {card: 'terminal', output: ''}],
		]);
		expect(cards[0]!.result?.content).toEqual([{type: 'text', text: 'Error: tool call aborted'}, {type: 'text', text: 'compiling\n3 of 9 done\n'}]);
		expect(cards[2]!.result?.content).toEqual([{type: 'text', text: 'Error: tool call aborted'}]);
	});

	it('records a loaded history as one turn per person\'s message, and ignores a live prompt echoed back', () => {
		const {acp, fold} = setup();
		acp.update({sessionUpdate: 'user_message_chunk', content: {type: 'text', text: 'one'}});
		acp.update(say('reply one'));
		acp.update({sessionUpdate: 'user_message_chunk', content: {type: 'text', text: 'two'}});
		acp.update(say('reply two'));
		acp.endHistory();
		acp.startTurn('three');
		acp.update({sessionUpdate: 'user_message_chunk', content: {type: 'text', text: 'three'}});
		acp.update(say('reply three'));
		acp.endTurn({stopReason: 'end_turn'});
		expect(fold.entries.map(entry => entry.entry === 'user' || entry.entry === 'assistant' ? `${entry.entry}: ${entry.text}` : entry.entry)).toEqual([
			'user: one', 'assistant: reply one', 'turn', 'user: two', 'assistant: reply two', 'turn', 'user: three', 'assistant: reply three', 'turn',
		]);
	});

	it('a permission request for a call it never saw creates the call first; options are recorded by kind', () => {
		const {acp, events, fold} = setup();
		acp.startTurn('go');
		const id = acp.askPermission({toolCallId: 'p', title: 'Delete x', kind: 'delete'}, [{name: 'Yes', kind: 'allow_once'}, {name: 'No', kind: 'reject_once'}]);
		acp.decidePermission(id, 'reject_once');
		expect(events.filter(event => event.type.startsWith('approval/') || event.type === 'tool/call').map(event => [event.type, event.data])).toEqual([
			['tool/call', expect.objectContaining({callId: 'p', name: 'acp_delete'})],
			['approval/asked', {id: 'approval-1', toolName: 'acp_delete', callId: 'p', reason: 'Delete x · Yes / No'}],
			['approval/decided', {id: 'approval-1', outcome: 'rejected'}],
		]);
		expect(cardsOf(fold.entries)[0]!.approval).toMatchObject({state: 'decided', outcome: 'rejected'});
	});

	it('feeds a terminal\'s output to the card that names it, from what it printed before', () => {
		const terminals = {'t-1': {output: 'early\n'}};
		const {acp, events, fold} = setup(terminals);
		acp.startTurn('go');
		acp.update(call('x', {title: 'make', kind: 'execute', status: 'in_progress', content: [{type: 'terminal', terminalId: 't-1'}]}));
		acp.terminalOutput('t-1', 'late\n');
		acp.terminalOutput('t-other', 'nobody\n');
		Object.assign(terminals['t-1'], {output: 'early\nlate\n', exitCode: 0});
		acp.update(patch('x', {status: 'completed'}));
		expect(events.filter(event => event.type === 'cardterm/tool-progress').map(event => (event.data as {text: string}).text)).toEqual(['early\n', 'late\n']);
		expect(cardsOf(fold.entries)[0]!.resultView).toEqual({card: 'terminal', output: 'early\nlate\n', exitCode: 0});
	});

	it('records live output up to a limit per call, so a flooding command cannot flood the log', () => {
		const terminals = {'t-1': {output: ''}};
		const {acp, events} = setup(terminals);
		acp.startTurn('go');
		acp.update(call('x', {title: 'yes', kind: 'execute', status: 'in_progress', content: [{type: 'terminal', terminalId: 't-1'}]}));
		const chunk = 'y\n'.repeat(50_000);
		for (let index = 0; index < 10; index++) {
			acp.terminalOutput('t-1', chunk);
		}

		const texts = events.filter(event => event.type === 'cardterm/tool-progress').map(event => (event.data as {text: string}).text);
		expect(texts).toHaveLength(3);
		expect(texts.join('').length).toBeLessThan(PROGRESS_LOG_LIMIT + 100);
		expect(texts.at(-1)).toMatch(/\[live output stops here; the card shows the output when the call ends\]\n$/);
	});

	it('names updates it cannot use and goes on', () => {
		const {acp, fold} = setup();
		acp.update({nothing: true});
		acp.update({sessionUpdate: 'tool_call'});
		acp.update({sessionUpdate: 'notice', severity: 'warning', title: 'Quota low', description: '10% left'});
		expect(fold.entries.map(entry => entry.entry === 'notice' ? [entry.summary, entry.detail] : entry.entry)).toEqual([
			['skipped a session/update without a sessionUpdate kind', undefined],
			['skipped a tool_call without a toolCallId', undefined],
			['Quota low', 'Quota low\n10% left'],
		]);
	});
});

describe('AcpEvents: an agent that talks without end (issue 16, attacker item 3)', () => {
	function bounded(maxMessageChars: number) {
		const log = new EventLog({now: () => 1000});
		const events: SessionEvent[] = [];
		log.listen(event => events.push(event));
		let cuts = 0;
		const acp = new AcpEvents(log, {maxMessageChars, onMessageCut: () => cuts++});
		return {acp, events, cuts: () => cuts};
	}

	it('cuts a message at the bound with a notice, asks once to cancel, drops the agent\'s text until the next prompt, and ends the turn for that reason', () => {
		const {acp, events, cuts} = bounded(10);
		acp.startTurn('talk');
		acp.update(say('12345'));
		acp.update(say('6789abcdef'));
		acp.update(say('more'));
		expect(cuts()).toBe(1);
		// Text the agent sends after the turn ended here opens no turn of its own.
		acp.endTurn({stopReason: 'cancelled'});
		acp.update(say('still talking'));
		const messages = events.filter(event => event.type === 'assistant/message').map(event => (event.data as unknown as {message: {content: Array<{text: string}>}}).message.content.map(block => block.text).join(''));
		expect(messages).toEqual(['123456789a']);
		expect(events.filter(event => event.type === 'acp/notice').map(event => (event.data as {text: string}).text)).toEqual([
			'the agent\'s message passed cardterm\'s bound of 10 characters: the rest of this turn\'s text is not kept, and the turn is cancelled',
		]);
		expect(events.filter(event => event.type === 'turn/end').map(event => event.data)).toEqual([{turn: 1, reason: {kind: 'max-tokens', message: 'the agent\'s message was cut at cardterm\'s bound of 10 characters; the turn was cancelled'}}]);
		expect(events.filter(event => event.type === 'turn/start')).toHaveLength(1);
		// The next prompt is heard again, with a bound of its own.
		acp.startTurn('again');
		acp.update(say('hello'));
		acp.endTurn({stopReason: 'end_turn'});
		expect(events.filter(event => event.type === 'turn/end').at(-1)?.data).toEqual({turn: 2, reason: {kind: 'completed'}});
	});
});

describe('an ACP agent\'s compaction (compaction_update, compaction_summary_chunk)', () => {
	it('is the same compaction card: in progress, the summary streamed in chunks, completed — and a failed one says why', () => {
		const {acp, fold, types} = setup();
		acp.named('claude-code');
		acp.startTurn('go on');
		acp.update(say('Working.'));
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'c-1', status: 'in_progress'});
		acp.update({sessionUpdate: 'compaction_summary_chunk', compactionId: 'c-1', content: {type: 'text', text: 'The person wants the tests green; '}});
		acp.update({sessionUpdate: 'compaction_summary_chunk', compactionId: 'c-1', content: {type: 'text', text: 'two fail in parser.ts.'}});
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'c-1', status: 'completed'});
		// A single terminal update is enough; the summary as a whole replaces the chunks.
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'c-2', status: 'completed', summary: [{type: 'text', text: 'Shorter.'}]});
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'c-3', status: 'failed', error: 'prompt is too long'});
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'c-4', status: 'cancelled'});
		acp.endTurn({stopReason: 'end_turn'});
		expect(types().filter(type => type.startsWith('compaction/'))).toEqual([
			'compaction/start', 'compaction/summary', 'compaction/end',
			'compaction/start', 'compaction/summary', 'compaction/end',
			'compaction/start', 'compaction/end',
			'compaction/start', 'compaction/end',
		]);
		const cards = fold.entries.filter(entry => entry.entry === 'compaction');
		expect(cards.map(card => card.entry === 'compaction' && [card.trigger, card.summary, card.error])).toEqual([
			['claude-code', 'The person wants the tests green; two fail in parser.ts.', undefined],
			['claude-code', 'Shorter.', undefined],
			['claude-code', undefined, 'prompt is too long'],
			['claude-code', undefined, 'cancelled'],
		]);
		// The agent's message before the compaction is its own entry, before the card.
		expect(fold.entries.map(entry => entry.entry)).toEqual(['user', 'assistant', 'compaction', 'compaction', 'compaction', 'compaction', 'turn']);
	});

	it('reads Claude Code\'s adapter\'s updates as it sends them (claude-agent-acp\'s compaction-update scenario): the summary chunk and the tokens in its _meta', () => {
		const {acp, fold} = setup();
		acp.named('claude-agent-acp');
		const meta = {jetbrains: {air: {contextCompaction: {durationMs: 7, postTokens: 100, preTokens: 1000, trigger: 'automatic', version: 1}, version: 1}}};
		for (const update of [
			{_meta: {jetbrains: {air: {contextCompaction: {version: 1}, version: 1}}}, compactionId: '00000000-0000-4000-8000-000000000001', sessionUpdate: 'compaction_update', status: 'in_progress'},
			{compactionId: '00000000-0000-4000-8000-000000000001', content: {text: 'The summary.', type: 'text'}, sessionUpdate: 'compaction_summary_chunk'},
			{_meta: meta, compactionId: '00000000-0000-4000-8000-000000000001', sessionUpdate: 'compaction_update', status: 'completed'},
			{sessionUpdate: 'usage_update', size: 200_000, used: 100},
		]) {
			acp.update(update);
		}

		expect(fold.entries.filter(entry => entry.entry === 'compaction')).toMatchObject([{trigger: 'claude-agent-acp', tokensBefore: 1000, tokensAfter: 100, summary: 'The summary.'}]);
	});

	it('names an update without an id, keeps a status it does not know open, and bounds what an agent that never ends them holds', () => {
		const {acp, events, fold} = setup();
		acp.update({sessionUpdate: 'compaction_update', status: 'completed'});
		expect(events.at(-1)).toMatchObject({type: 'acp/notice', data: {text: 'skipped a compaction_update without a compactionId'}});
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'x', status: 'paused'});
		expect(fold.entries.filter(entry => entry.entry === 'compaction')).toEqual([]);
		for (let index = 0; index < 10_000; index++) {
			acp.update({sessionUpdate: 'compaction_summary_chunk', compactionId: `open-${index}`, content: {type: 'text', text: 'x'.repeat(1000)}});
		}

		// Only the newest few stay open: the first is forgotten (its end makes a card with no summary), the newest keeps its text.
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'open-0', status: 'completed'});
		acp.update({sessionUpdate: 'compaction_update', compactionId: 'open-9999', status: 'completed'});
		const summaries = fold.entries.flatMap(entry => entry.entry === 'compaction' ? [entry.summary?.length ?? 0] : []);
		expect(summaries).toEqual([0, 1000]);
	});
});
