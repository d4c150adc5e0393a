/**
The interactive session's live frame draws a streaming step: the controller's snapshot carries the
running entries (running cards, then the open tail), the app draws them above the prompt, and the
final message goes to the scrollback once, when it replaces the streaming entry.
*/
import {render} from 'ink';
import {afterEach, describe, expect, it} from 'vitest';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {LiveSession} from '../../src/live/live-session.js';
import {nativeDriver} from '../../src/live/native-driver.js';
import {JobRuntime} from '../../src/jobs/job-runtime.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import {Approvals} from '../../src/host/approvals.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {type FoldChange, SessionFold} from '../../src/session/fold/fold.js';
import type {SessionRuntime} from '../../src/session/recorder/session-runtime.js';
import {EventScript} from '../session/fold-events.js';
import {FakeStdin, FakeTty} from './harness/fake-terminal.js';

const unmounts: Array<() => void> = [];
afterEach(() => {
	for (const unmount of unmounts.splice(0)) {
		unmount();
	}
});

/** A controller over a fold fed by hand, as the agent loop feeds it. */
function liveSession() {
	const fold = new SessionFold(referencePresenters('/tmp'));
	const listeners = new Set<(change: FoldChange) => void>();
	const controller = new LiveSession({
		cwd: '/tmp',
		sessionId: 'live-stream',
		fold,
		onFoldChange(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		approvals: new Approvals(),
		// Nothing is submitted: the session's events come from the script.
		driver: nativeDriver({session: {fold, runtime: {} as SessionRuntime, registry: new ToolRegistry(), jobs: new JobRuntime(), toolNames: () => new Set(['bash'])}, cwd: '/tmp', shutdown: async () => undefined}),
	});
	const scrollback: ScrollbackEntry[] = [];
	controller.onScrollback(entry => scrollback.push(entry));
	const apply = (event: SessionEvent): void => {
		const change = fold.apply(event);
		for (const listener of listeners) {
			listener(change);
		}
	};

	return {controller, scrollback, apply};
}

const script = new EventScript();
const delta = (chunk: Record<string, unknown>) => script.push('assistant/chunk', {turn: 1, step: 1, chunk});
script.push('turn/start', {turn: 1});
script.push('step/start', {turn: 1, step: 1});
const streamed = [
	delta({type: 'reasoning-delta', index: 0, text: 'Listing is enough.'}),
	delta({type: 'text-delta', index: 1, text: 'I will **list** the'}),
	delta({type: 'text-delta', index: 1, text: ' files.'}),
	delta({type: 'tool-call-delta', index: 2, id: 'c1', name: 'bash', argumentsDelta: '{"command": "ls"'}),
];
const message = script.push('assistant/message', {turn: 1, step: 1, message: {id: 'a1', role: 'assistant', content: [{type: 'reasoning', text: 'Listing is enough.'}, {type: 'text', text: 'I will **list** the files.'}, {type: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command": "ls", "description": "list"}'}]}});
const call = script.call('c1', 'bash', {command: 'ls', description: 'list'});

describe('the live frame of a streaming step', () => {
	it('the snapshot carries the running entries: the streaming entry and its preparing row, then the queued card the message announces, then the running card', () => {
		const {controller, scrollback, apply} = liveSession();
		for (const event of script.events.slice(0, 2)) {
			apply(event);
		}

		for (const event of streamed) {
			apply(event);
		}

		const live = controller.getSnapshot().runningEntries!;
		expect(live).toHaveLength(1);
		expect(live[0]).toMatchObject({entry: 'assistant', streaming: true, text: 'I will **list** the files.', preparing: ['bash']});
		// Nothing of a streaming step is written to the scrollback; the pager over memory shows it last.
		expect(scrollback).toEqual([]);
		expect(controller.entries().map(entry => entry.entry === 'assistant' && entry.streaming)).toEqual([true]);

		apply(message);
		expect(scrollback.map(entry => (entry.kind === 'entry' ? entry.entry.entry : 'lines'))).toEqual(['assistant']);
		// The message wrote the call: it waits its turn (the preparing row went).
		expect(controller.getSnapshot().runningEntries).toMatchObject([{entry: 'card', card: {name: 'bash', queued: true}}]);

		apply(call);
		expect(controller.getSnapshot().runningEntries).toMatchObject([{entry: 'card', card: {name: 'bash', status: 'running'}}]);
		expect(scrollback).toHaveLength(1);
	});

	it('draws four queued calls as cards and counts the rest in one row, below the running one', () => {
		const {controller, apply} = liveSession();
		const many = new EventScript();
		many.push('turn/start', {turn: 1});
		many.push('step/start', {turn: 1, step: 1});
		const calls = Array.from({length: 7}, (_, index) => ({type: 'tool-call', id: `q${index}`, name: 'bash', arguments: JSON.stringify({command: `echo ${index}`, description: 'count'})}));
		many.push('assistant/message', {turn: 1, step: 1, message: {role: 'assistant', content: calls}});
		many.call('q0', 'bash', {command: 'echo 0', description: 'count'});
		for (const event of many.events) {
			apply(event);
		}

		const live = controller.getSnapshot().runningEntries!;
		expect(live.map(entry => (entry.entry === 'card' ? `${entry.card.callView.title}${entry.card.queued ? ' (queued)' : ''}` : entry.entry === 'notice' ? entry.summary : entry.entry))).toEqual([
			'echo 0', 'echo 1 (queued)', 'echo 2 (queued)', 'echo 3 (queued)', 'echo 4 (queued)', '2 more calls wait after these',
		]);
	});

	it('the app draws the partial answer and the preparing row above the prompt, and the card once the call starts', async () => {
		const {controller, apply} = liveSession();
		const tty = new FakeTty(60, 16);
		const instance = render(<InteractiveApp model={controller} theme={colorTheme} color hyperlinks={false} now={() => 0} />, {
			stdout: tty as unknown as NodeJS.WriteStream,
			stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
			stderr: tty as unknown as NodeJS.WriteStream,
			exitOnCtrlC: false,
			patchConsole: false,
		});
		unmounts.push(() => instance.unmount());
		for (const event of [...script.events.slice(0, 2), ...streamed]) {
			apply(event);
		}

		await tty.waitForText('preparing bash…');
		expect(tty.text()).toContain('I will list the files.');
		// The live frame shows running entries fully expanded: the reasoning whole.
		expect(tty.text()).toContain('Listing is enough.');
		apply(message);
		apply(call);
		await tty.waitForText('$ ls');
		await tty.settle();
		expect(tty.text()).not.toContain('preparing bash…');
		// The answer was written once, to the scrollback.
		expect(tty.text().split('I will list the files.')).toHaveLength(2);
	});
});
