import {describe, expect, it} from 'vitest';
import {cardsOf} from '../../../src/presentation/entry.js';
import {presentersOf, type Presenter} from '../../../src/presentation/presenters.js';
import {cardToJson} from '../../../src/presentation/card-json.js';
import {foldEvents, SessionFold, type FoldNote} from '../../../src/session/fold/fold.js';
import type {PresenterFailure} from '../../../src/presentation/presenters.js';
import {EventScript, readEvent} from '../fold-events.js';

const shell: Presenter & {name: string} = {
	name: 'sh',
	presentCall: args => ({card: 'terminal', title: String((args as {command: string}).command)}),
	presentResult(_args, result) {
		const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
		const exit = /\n\[exit code: (\d+)\]$/.exec(text);
		return exit ? {card: 'terminal', output: text.slice(0, exit.index), exitCode: Number(exit[1])} : {card: 'terminal', output: text, exitCode: 0};
	},
};

const thrower: Presenter & {name: string} = {
	name: 'boom',
	presentCall() {
		throw new Error('call presenter broke');
	},
	presentResult() {
		throw new Error('result presenter broke');
	},
};

const lister: Presenter & {name: string} = {
	name: 'ls',
	presentCall: () => ({card: 'generic', title: 'List files', kind: 'read'}),
	presentResult: (_args, result) => result.isError ? undefined : {card: 'generic'},
};

const presenters = presentersOf([shell, thrower, lister]);

describe('SessionFold', () => {
	it('keeps the newest session title, also when the title is shown as a notice', () => {
		const script = new EventScript();
		script.push('session/title', {title: 'first'});
		script.push('session/title', {title: 'fix the parser'});
		const fold = foldEvents(script.events, presenters);
		expect(fold.entries.filter(entry => entry.entry === 'notice')).toHaveLength(2);
		expect(fold.title).toBe('fix the parser');
	});

	it('creates a running card from a call and settles it with the presenter result view', () => {
		const script = new EventScript();
		script.call('c1', 'sh', {command: 'make'});
		const fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries)).toHaveLength(1);
		expect(cardsOf(fold.entries)[0]).toMatchObject({callId: 'c1', status: 'running', callView: {card: 'terminal', title: 'make'}, resultView: null});

		script.result('c1', 'built\n[exit code: 2]');
		const settled = cardsOf(foldEvents(script.events, presenters).entries)[0]!;
		expect(settled.status).toBe('ok');
		expect(settled.outcome).toBe('failed');
		expect(settled.resultView).toEqual({card: 'terminal', output: 'built', exitCode: 2});
		expect(cardToJson(settled)).toEqual({
			callId: 'c1',
			name: 'sh',
			status: 'ok',
			outcome: 'failed',
			call: {card: 'terminal', title: 'make'},
			result: {card: 'terminal', output: 'built', exitCode: 2},
			isError: false,
			error: null,
			durationMs: 1,
			children: [],
		});
	});

	it('falls back to a generic card titled by the tool name for unknown tools, unparsable arguments and throwing presenters', () => {
		const script = new EventScript();
		script.call('u', 'mystery', {x: 1});
		script.call('p', 'sh', '{"command": ');
		script.call('t', 'boom', {});
		script.call('e', 'sh', '');
		const failures: PresenterFailure[] = [];
		const fold = foldEvents(script.events, presenters, {onPresenterFailure: failure => failures.push(failure)});
		expect(cardsOf(fold.entries).map(card => card.callView)).toEqual([
			{card: 'generic', title: 'mystery', kind: 'other', rawInput: {x: 1}},
			{card: 'generic', title: 'sh', kind: 'other', rawInput: '{"command": '},
			{card: 'generic', title: 'boom', kind: 'other', rawInput: {}},
			{card: 'terminal', title: 'undefined'},
		]);
		expect(failures.map(failure => [failure.toolName, failure.phase, (failure.error as Error).message])).toEqual([['boom', 'call', 'call presenter broke']]);
	});

	it('uses the raw result content when the result presenter throws or declines', () => {
		const script = new EventScript();
		script.call('t', 'boom', {});
		script.result('t', 'fine');
		script.call('l', 'ls', {});
		script.result('l', 'Error: nope', {isError: true});
		const fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => [card.status, card.resultView])).toEqual([['ok', null], ['error', null]]);
		expect(cardsOf(fold.entries)[1]!.result).toEqual({content: [{type: 'text', text: 'Error: nope'}], isError: true});
	});

	it('treats a view with an unknown card kind, or a malformed payload, as absent', () => {
		const wire: Presenter & {name: string} = {
			name: 'wire',
			presentCall: () => ({card: 'hologram', title: 'from the future'}) as never,
			presentResult: (_args, result) => (result.isError ? {card: 'diff', diffs: []} : {card: 'search', shape: 'matches', files: 'nope', truncated: false, total: 1}) as never,
		};
		const script = new EventScript();
		script.call('a', 'wire', {x: 1});
		script.result('a', 'raw text');
		script.call('b', 'wire', {});
		script.result('b', 'Error: raw', {isError: true});
		const fold = foldEvents(script.events, presentersOf([wire]));
		expect(cardsOf(fold.entries).map(card => [card.callView, card.resultView])).toEqual([
			[{card: 'generic', title: 'wire', kind: 'other', rawInput: {x: 1}}, null],
			[{card: 'generic', title: 'wire', kind: 'other', rawInput: {}}, null],
		]);
	});

	it('fills a generic result view without content with the raw content', () => {
		const script = new EventScript();
		script.call('l', 'ls', {});
		script.result('l', 'a\nb');
		expect(cardsOf(foldEvents(script.events, presenters).entries)[0]!.resultView).toEqual({card: 'generic', content: [{type: 'text', text: 'a\nb'}]});
	});

	it('drops a terminal result view under a pending card that is not a terminal', () => {
		const script = new EventScript();
		script.call('x', 'sh', '{broken');
		script.result('x', 'out');
		expect(cardsOf(foldEvents(script.events, presenters).entries)[0]!.resultView).toBeNull();
	});

	it('classifies cancellation and crash-repair results', () => {
		const script = new EventScript();
		for (const [id, code] of [['a', 'ABORTED'], ['b', 'ABORTED_BEFORE_DISPATCH'], ['c', 'TOOL_OUTCOME_UNKNOWN'], ['d', 'TOOL_NOT_STARTED'], ['e', 'FS_NOT_FOUND']] as const) {
			script.call(id, 'ls', {});
			script.result(id, 'Error: x', {isError: true, error: {name: 'E', code}});
		}

		const fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => card.status)).toEqual(['cancelled', 'cancelled', 'interrupted', 'interrupted', 'error']);
		expect(fold.counts).toEqual({pending: 0, running: 0, ok: 0, failed: 0, error: 1, denied: 0, cancelled: 2, interrupted: 2});
	});

	it('marks an unanswered call interrupted when its step closes, and a late result still settles it', () => {
		const script = new EventScript();
		script.call('a', 'ls', {}, {turn: 1, step: 1});
		script.call('b', 'ls', {}, {turn: 1, step: 2});
		script.push('step/end', {turn: 1, step: 1});
		let fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => card.status)).toEqual(['interrupted', 'running']);
		script.push('turn/end', {turn: 1, reason: {kind: 'aborted'}});
		fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => card.status)).toEqual(['interrupted', 'interrupted']);
		script.result('a', 'late');
		fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => card.status)).toEqual(['ok', 'interrupted']);
	});

	it('ignores replacement results and keeps orphan results as cards', () => {
		const script = new EventScript();
		script.call('a', 'ls', {});
		script.result('a', 'pruned', {surfaceOp: {op: 'replace', start: 0, end: 1}});
		script.push('assistant/message', {turn: 1, step: 1, message: {role: 'assistant', content: [{type: 'tool-call', id: 'known', name: 'sh', arguments: '{"command":"pwd"}'}]}});
		script.result('known', '/tmp');
		script.result('lost', 'who am I');
		const fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => [card.callId, card.name, card.status, card.callView.title])).toEqual([
			['a', 'ls', 'running', 'List files'],
			['known', 'sh', 'ok', 'pwd'],
			['lost', 'tool', 'ok', 'tool'],
		]);
		expect(cardsOf(fold.entries)[1]!.resultView).toEqual({card: 'terminal', output: '/tmp', exitCode: 0});
	});

	it('pairs a result with the most recent unanswered call of a duplicated id', () => {
		const script = new EventScript();
		script.call('dup', 'ls', {});
		script.call('dup', 'sh', {command: 'second'});
		script.result('dup', 'to the second');
		const fold = foldEvents(script.events, presenters);
		expect(cardsOf(fold.entries).map(card => [card.name, card.status])).toEqual([['ls', 'running'], ['sh', 'ok']]);
	});

	it('attaches code-dispatch sub-calls under their parent in start order', () => {
		const script = new EventScript();
		script.call('run', 'run_code', {code: 'x', description: 'two calls'});
		const base = {rootCallId: 'run', parentCallId: 'run'};
		script.push('tool/code-dispatch-start', {...base, subCallId: 'run:code:1', name: 'sh', arguments: {command: 'echo 1'}});
		script.push('tool/code-dispatch-start', {...base, subCallId: 'run:code:2', name: 'sh', arguments: {command: 'echo 2'}});
		script.push('tool/code-dispatch', {...base, subCallId: 'run:code:2', name: 'sh', arguments: {command: 'echo 2'}, isError: false, content: [{type: 'text', text: '2\n'}]});
		script.push('tool/code-dispatch', {...base, subCallId: 'run:code:1', name: 'sh', arguments: {command: 'echo 1'}, isError: true, content: [{type: 'text', text: 'Error: x'}]});
		const [card] = cardsOf(foldEvents(script.events, presenters).entries);
		expect(card!.children.map(child => [child.callId, child.status, child.argsRaw, child.callView.title])).toEqual([
			['run:code:1', 'error', '{"command":"echo 1"}', 'echo 1'],
			['run:code:2', 'ok', '{"command":"echo 2"}', 'echo 2'],
		]);
		expect(card!.children[1]!.resultView).toEqual({card: 'terminal', output: '2\n', exitCode: 0});
	});

	it('shows approvals on the card they ask about', () => {
		const script = new EventScript();
		script.call('w', 'ls', {});
		script.push('approval/asked', {id: 'ap1', toolName: 'ls', callId: 'w', reason: 'outside src/'});
		let card = cardsOf(foldEvents(script.events, presenters).entries)[0]!;
		const asked = script.events.at(-1)!.time;
		expect(card.approval).toEqual({state: 'asked', id: 'ap1', reason: 'outside src/', askedTime: asked});
		script.push('approval/decided', {id: 'ap1', outcome: 'allowed-once'});
		card = cardsOf(foldEvents(script.events, presenters).entries)[0]!;
		expect(card.approval).toEqual({state: 'decided', id: 'ap1', reason: 'outside src/', outcome: 'allowed-once', askedTime: asked, decidedTime: asked + 1});
	});

	it('keeps what an answer granted: a grant that answered without a question, the words given with a refusal', () => {
		const script = new EventScript();
		script.call('g', 'bash', {command: 'ls'});
		script.push('approval/asked', {id: 'ap1', toolName: 'bash', callId: 'g', reason: 'the config asks before bash'});
		script.push('approval/decided', {id: 'ap1', outcome: 'allowed-session', standing: true});
		script.call('r', 'write', {file_path: 'a.txt', content: 'x'});
		script.push('approval/asked', {id: 'ap2', toolName: 'write', callId: 'r'});
		script.push('approval/decided', {id: 'ap2', outcome: 'rejected', feedback: 'write b.txt instead'});
		const [granted, refused] = cardsOf(foldEvents(script.events, presenters).entries);
		expect(granted!.approval).toMatchObject({state: 'decided', outcome: 'allowed-session', standing: true});
		expect(refused!.approval).toMatchObject({state: 'decided', outcome: 'rejected', feedback: 'write b.txt instead'});
	});

	it('shows a Code Mode sub-call\'s approval on the sub-call, not on the call holding it', () => {
		const script = new EventScript();
		script.call('run', 'run_code', {code: 'await tools.bash({command: "ls"})'});
		script.push('tool/code-dispatch-start', {rootCallId: 'run', parentCallId: 'run', subCallId: 'run:code:1', name: 'bash', arguments: {command: 'ls'}});
		script.push('approval/asked', {id: 'ap1', toolName: 'bash', callId: 'run:code:1', reason: 'the config asks before bash'});
		let [card] = cardsOf(foldEvents(script.events, presenters).entries);
		expect(card!.approval).toBeUndefined();
		expect(card!.children[0]!.approval).toMatchObject({state: 'asked', id: 'ap1'});
		expect(card!.outcome).toBe('running');
		script.push('approval/decided', {id: 'ap1', outcome: 'rejected'});
		[card] = cardsOf(foldEvents(script.events, presenters).entries);
		expect(card!.children[0]!.approval).toMatchObject({state: 'decided', outcome: 'rejected'});
		expect(card!.approval).toBeUndefined();
	});

	it('keeps a bounded tail of live progress and drops it when the card settles', () => {
		const script = new EventScript();
		script.call('s', 'sh', {command: 'yes'});
		for (let index = 0; index < 50; index++) {
			script.push('cardterm/tool-progress', {callId: 's', stream: 'stdout', text: `line ${index}\n`}, {ignorable: true});
		}

		let card = cardsOf(foldEvents(script.events, presenters, {progressLimit: 40}).entries)[0]!;
		expect(card.progress).toEqual({text: 'line 45\nline 46\nline 47\nline 48\nline 49\n', truncated: true});
		script.result('s', 'done');
		card = cardsOf(foldEvents(script.events, presenters, {progressLimit: 40}).entries)[0]!;
		expect(card.progress).toBeUndefined();
	});

	it('keeps the latest todo list and clears it at the next turn', () => {
		const script = new EventScript();
		const todos = [{content: 'a', status: 'pending'}];
		script.push('todo/write', {todos});
		const fold = new SessionFold(presenters);
		for (const event of script.events) {
			fold.apply(event);
		}

		expect(fold.todos).toEqual(todos);
		expect(fold.apply({type: 'turn/start', seq: 1, time: 0, data: {turn: 2}})).toEqual({entries: [], todosChanged: true});
		expect(fold.todos).toEqual([]);
	});

	it('names events it cannot use instead of throwing; an ill-shaped one never reaches it: the reader skips it', () => {
		const notes: FoldNote[] = [];
		const fold = new SessionFold(presenters, {onNote: note => notes.push(note)});
		fold.apply(readEvent({type: 'tool/result', seq: 0, time: 0, data: {message: {source: {callId: 'c1'}, content: []}}}));
		fold.apply(readEvent({type: 'tool/result', seq: 1, time: 0, data: {message: {source: {callId: 'c2'}, content: [{type: 'tool-result', toolCallId: 'c2', content: [{type: 'text'}], isError: false}]}}}));
		fold.apply(readEvent({type: 'tool/code-dispatch', seq: 2, time: 0, data: {parentCallId: 'p', subCallId: 'nope', name: 'bash', isError: false, content: []}}));
		fold.apply(readEvent({type: 'assistant/chunk', seq: 3, time: 0, data: {turn: 'one', step: 1, chunk: {type: 'text-delta', index: 0, text: 'x'}}}));
		expect(notes).toEqual([
			{seq: 0, type: 'tool/result', reason: 'tool/result for c1 has no tool-result block with content blocks'},
			{seq: 1, type: 'tool/result', reason: 'tool/result for c2 has no tool-result block with content blocks'},
			{seq: 2, type: 'tool/code-dispatch', reason: 'sub-call nope settled without a start'},
			{seq: 3, type: 'assistant/chunk', reason: 'assistant/chunk needs integer turn and step'},
		]);
		expect(cardsOf(fold.entries)).toEqual([]);
		expect(() => readEvent({type: 'tool/call', seq: 4, time: 0, data: {callId: 7}})).toThrow('invalid "tool/call" data: "callId" must be a string');
	});
});

describe('SessionFold.forget', () => {
	it('keeps nothing of a written card and ignores later events about it; a running card and other entries are not kept either way', () => {
		const script = new EventScript();
		script.call('w', 'ls', {});
		script.result('w', 'a\nb');
		script.call('r', 'sh', {command: 'sleep 9'});
		script.push('user/message', {content: [{type: 'text', text: 'hello'}], source: {kind: 'user'}});
		const fold = new SessionFold(presenters);
		for (const event of script.events) {
			fold.apply(event);
		}

		const [settled, running, message] = [0, 1, 2].map(index => fold.entries[index]!);
		for (const index of [0, 1, 2]) {
			fold.forget(index);
		}

		// The settled card and the message are gone; the running card stays as it was.
		expect(fold.entries[0]).not.toBe(settled);
		expect(fold.entries[0]).toMatchObject({entry: 'card', card: {callId: '', args: undefined, result: null, resultView: null}});
		expect(fold.entries[1]).toBe(running);
		expect(fold.entries[2]).not.toBe(message);
		expect(fold.card('w')).toBeUndefined();
		expect(fold.card('r')).toBe((running as {card: unknown}).card);
		// Late events about the forgotten card change nothing; the running one still settles.
		const before = fold.entries[0];
		expect(fold.apply(script.push('approval/asked', {id: 'ap1', toolName: 'ls', callId: 'w'})).entries).toEqual([]);
		expect(fold.apply(script.push('cardterm/tool-progress', {callId: 'w', stream: 'stdout', text: 'late\n'}, {ignorable: true})).entries).toEqual([]);
		expect(fold.entries[0]).toBe(before);
		expect(fold.apply(script.result('r', 'done')).entries.map(entry => entry.entry === 'card' ? [entry.card.callId, entry.card.status] : entry.entry)).toEqual([['r', 'ok']]);
	});
});

describe('SessionFold.written', () => {
	it('releases a written entry only while releaseWritten allows, and never a running or an interrupted card', () => {
		const script = new EventScript();
		script.push('turn/start', {turn: 1});
		script.push('step/start', {turn: 1, step: 1});
		script.call('w', 'ls', {});
		script.result('w', 'a\nb');
		script.call('i', 'sh', {command: 'sleep 9'});
		// The step's end interrupts the call it left running.
		script.push('step/end', {turn: 1, step: 1});
		script.push('step/start', {turn: 1, step: 2});
		script.call('r', 'sh', {command: 'sleep 9'}, {turn: 1, step: 2});
		script.push('user/message', {content: [{type: 'text', text: 'hello'}], source: {kind: 'user'}});
		let logHealthy = false;
		const fold = new SessionFold(presenters, {releaseWritten: () => logHealthy});
		for (const event of script.events) {
			fold.apply(event);
		}

		const before = [...fold.entries];
		expect(before.map(entry => entry.entry === 'card' ? `${entry.card.callId} ${entry.card.status}` : entry.entry)).toEqual(['w ok', 'i interrupted', 'r running', 'user']);
		for (const entry of before) {
			fold.written(entry);
		}

		// The log cannot give them back: every entry stays whole.
		expect(fold.entries).toEqual(before);
		logHealthy = true;
		for (const entry of before) {
			fold.written(entry);
		}

		expect(fold.entries[0]).toMatchObject({entry: 'card', card: {callId: 'w', status: 'ok', argsRaw: '', resultView: null}});
		expect(fold.entries[0]).not.toBe(before[0]);
		expect(fold.entries[1]).toBe(before[1]);
		expect(fold.entries[2]).toBe(before[2]);
		expect(fold.entries[3]).not.toBe(before[3]);
		// Without the option, a fold keeps what it was given.
		const keeping = new SessionFold(presenters);
		for (const event of script.events) {
			keeping.apply(event);
		}

		for (const entry of keeping.entries) {
			keeping.written(entry);
		}

		expect(keeping.entries.map(entry => entry.entry === 'card' ? entry.card.resultView === null : true)).toEqual([false, true, true, true]);
	});
});
