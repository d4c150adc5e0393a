import {appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import {openInteractiveSession} from '../../src/cli/interactive/open-interactive-session.js';
import type {LiveSession} from '../../src/live/live-session.js';
import {openPagerSource} from '../../src/cli/pager/pager-source.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import {defineTool} from '../../src/tools/define-tool.js';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {childSessionLinks} from '../../src/transcript/child-session-links.js';
import {openIndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {NAMED_CHILD, PARENT_ID, TIMED_CHILD, writeSubagentTree} from '../session/subagent-fixture.js';
import {FakeStdin, FakeTty, keys} from './harness/fake-terminal.js';
import {startPager} from './harness/pager-screen.js';


const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) {
		rmSync(root, {recursive: true, force: true});
	}
});

describe('the pager on a log whose subagent cards have child sessions', () => {
	it('says under each subagent card where its child is; Enter opens the child in a nested pager and q returns', async () => {
		const {root, parentLog} = writeSubagentTree();
		roots.push(root);
		const presenters = () => referencePresenters('/tmp/proj');
		const source = await openIndexedEntrySource(parentLog, {presenters, tail: false});
		await source.ready;
		const pager = await startPager(source, {columns: 90, rows: 40, title: 'parent', childSessions: childSessionLinks(parentLog, source.header, presenters)});
		try {
			await pager.tty.waitForText(`↳ child session ${TIMED_CHILD} · ⏎ opens it`);
			expect(pager.tty.text()).toContain(`↳ child session ${NAMED_CHILD} · ⏎ opens it`);
			expect(pager.tty.text()).toContain('↳ child session not found beside this log');
			// To the first card (entry 2 of 6), then Enter.
			await pager.press('g');
			await pager.press('j');
			await pager.tty.waitForText('2/6 · ');
			await pager.press(keys.enter);
			await pager.tty.waitForText(`child ${TIMED_CHILD}`);
			expect(pager.tty.text()).toContain('› Reply with exactly DIRECT_CHILD_OK and nothing else.');
			expect(pager.tty.text()).not.toContain('Ask two helpers.');
			await pager.press('q');
			await pager.tty.waitForText('Ask two helpers.');
			expect(pager.tty.text()).toContain('· parent ·');
			// Enter on a card whose child is missing expands it, as on any card.
			await pager.press('G');
			await pager.press('k');
			await pager.press('k');
			await pager.tty.waitForText('4/6 · ');
			expect(pager.tty.text()).not.toContain('"description": "Lost helper"');
			await pager.press(keys.enter);
			// Fully expanded, a card of a tool without a presenter shows its whole arguments.
			await pager.tty.waitForText('"description": "Lost helper"');
			expect(pager.tty.text()).toContain('· parent ·');
		} finally {
			await pager.close();
			source.close();
		}
	});
});

/** A subagent's child session written beside its parent's folder, as a harness writes one when the subagent starts. */
function writeChild(project: string, id: string, parent: string, createdAt: number, reply: string): void {
	mkdirSync(join(project, id), {recursive: true});
	const lines = [
		{type: 'session', version: 0, id, cwd: '/tmp/proj', createdAt, parentSession: parent, origin: 'subagent', delegationDepth: 1},
		{type: 'turn/start', seq: 0, time: createdAt, data: {turn: 1}},
		{type: 'user/message', seq: 1, time: createdAt + 1, data: {id: 'u', role: 'user', content: [{type: 'text', text: 'Late question.'}], source: {kind: 'user'}}, surfaceOp: 'append'},
		{type: 'assistant/message', seq: 2, time: createdAt + 2, data: {turn: 1, step: 1, message: {id: 'a', role: 'assistant', content: [{type: 'text', text: reply}], source: {kind: 'model'}}}, surfaceOp: 'append'},
		{type: 'turn/end', seq: 3, time: createdAt + 3, data: {turn: 1, reason: {kind: 'completed'}}},
	];
	writeFileSync(join(project, id, 'session.jsonl'), `${lines.map(line => JSON.stringify(line)).join('\n')}\n`);
}

const LATE_CHILD = '66666666-6666-4666-8666-666666666666';

describe('watch on a log whose subagent cards have child sessions', () => {
	it('finds the children beside the watched log, and a child that starts while it is watched; Enter opens it', async () => {
		const {root, project, parentLog} = writeSubagentTree();
		roots.push(root);
		const controller = new AbortController();
		const opened = await openPagerSource(parentLog, {follow: true, signal: controller.signal});
		expect(opened.childSessions).toBeDefined();
		const pager = await startPager(opened.cards, {columns: 90, rows: 40, follow: true, title: 'parent', childSessions: opened.childSessions!});
		try {
			await pager.tty.waitForText(`↳ child session ${TIMED_CHILD} · ⏎ opens it`);
			expect(pager.tty.text()).toContain(`↳ child session ${NAMED_CHILD} · ⏎ opens it`);
			// A second turn delegates again; its child starts after the call, and the result follows.
			const late = 1_790_000_000_400;
			appendFileSync(parentLog, `${[
				{type: 'turn/start', seq: 10, time: late, data: {turn: 2}},
				{type: 'tool/call', seq: 11, time: late + 1, data: {turn: 2, step: 1, callId: 'sub-late', name: 'subagent', arguments: JSON.stringify({description: 'Late helper', prompt: 'Late question.'})}},
			].map(line => JSON.stringify(line)).join('\n')}\n`);
			await pager.tty.waitForText('7/7 · ');
			writeChild(project, LATE_CHILD, PARENT_ID, late + 50, 'THE_LATE_CHILD_SAID_HI');
			appendFileSync(parentLog, `${JSON.stringify({type: 'tool/result', seq: 12, time: late + 100, data: {turn: 2, step: 1, message: {id: 'r-late', role: 'user', source: {kind: 'tool', callId: 'sub-late'}, content: [{type: 'tool-result', toolCallId: 'sub-late', content: [{type: 'text', text: 'helper done'}], isError: false}]}}, surfaceOp: 'append'})}\n`);
			await pager.tty.waitForText(`↳ child session ${LATE_CHILD} · ⏎ opens it`);
			// Following, the cursor is on the newest card: Enter opens its child.
			await pager.press(keys.enter);
			await pager.tty.waitForText('THE_LATE_CHILD_SAID_HI');
			expect(pager.tty.text()).toContain('› Late question.');
			expect(pager.tty.text()).not.toContain('helper done');
			await pager.press('q');
			await pager.tty.waitForText('helper done');
		} finally {
			await pager.close();
			controller.abort();
			await opened.consuming.catch(() => undefined);
		}
	}, 30_000);
});

describe('the interactive session\'s Ctrl+O pager', () => {
	it('finds the child session a subagent card started beside the session\'s log, and opens it', async () => {
		const root = mkdtempSync(join(tmpdir(), 'cardterm-live-subagents-'));
		roots.push(root);
		const workspace = join(root, 'workspace');
		mkdirSync(workspace);
		let parent = '';
		const subagent = defineTool({
			name: 'subagent',
			description: 'Delegates to a helper session.',
			parameters: {prompt: {type: 'string', required: true}},
			output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
			async execute() {
				// The helper's session goes beside the parent's folder, as a harness's subagent does.
				writeChild(join(root, 'sessions'), LATE_CHILD, parent, Date.now(), 'HELPER_SAID_OK');
				return `started subagent ${LATE_CHILD}`;
			},
		});
		const {controller, session} = await openInteractiveSession({root: join(root, 'sessions'), cwd: workspace, id: 's-parent', extraTools: [subagent]});
		parent = session.id;
		const screen = renderInteractive(controller);
		try {
			await screen.tty.settle();
			await screen.type('subagent {"prompt":"Late question."}');
			await screen.tty.waitForText('● 1 ok', 10_000);
			await screen.press(keys.ctrlO);
			await screen.tty.waitForText(`↳ child session ${LATE_CHILD} · ⏎ opens it`);
			await screen.press(keys.enter);
			await screen.tty.waitForText('HELPER_SAID_OK');
			expect(screen.tty.text()).toContain('› Late question.');
			await screen.press('q');
			await screen.tty.waitForText(`started subagent ${LATE_CHILD}`);
			await screen.press('q');
			await screen.tty.waitForText('> ');
		} finally {
			await screen.close();
		}
	}, 30_000);
});

/** The live app over `controller` in a fake terminal (the session's own wiring, not the screen harness's). */
function renderInteractive(controller: LiveSession) {
	const tty = new FakeTty(100, 30);
	const stdin = new FakeStdin();
	const instance = render(<InteractiveApp model={controller} theme={colorTheme} color hyperlinks={false} />, {
		stdout: tty as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: tty as unknown as NodeJS.WriteStream,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	return {
		tty,
		async type(line: string) {
			stdin.send(`${line}\r`);
		},
		async press(bytes: string) {
			stdin.send(bytes);
			await tty.settle();
		},
		async close() {
			await controller.close();
			instance.unmount();
		},
	};
}
