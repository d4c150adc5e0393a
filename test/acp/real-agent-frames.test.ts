// What real agents were seen to send (recorded with CARDTERM_ACP_TRACE by test/acp/real-agents.mjs,
// docs/acp-mapping.md "Real agents"), replayed through the mapping: each agent's quirk is a case.
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {Card} from '../../src/presentation/card.js';
import {layoutEntry} from '../../src/layout/entries/layout-entry.js';
import {monochromeTheme} from '../../src/layout/text/theme.js';
import {cardsOf} from '../../src/presentation/entry.js';
import {makeWorkspace} from './acp-harness.js';
import {replayAgentFrames} from './real-agent-frames.js';

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
	await dispose?.();
	dispose = undefined;
});

async function replay(agent: string) {
	const workspace = await makeWorkspace();
	dispose = workspace.dispose;
	const replayed = await replayAgentFrames(agent, workspace.workspace);
	return {...replayed, workspace: workspace.workspace, cards: cardsOf(replayed.entries)};
}

/** A card as the person sees it: pending and completed view, outcome, approval. */
const shape = (card: Card) => ({name: card.name, status: card.status, call: card.callView, result: card.resultView, ...(card.approval === undefined ? {} : {approval: card.approval.state === 'decided' ? card.approval.outcome : 'asked'})});

describe('Gemini CLI 0.61.0 (gemini --acp)', () => {
	it('edits announced inside session/request_permission are diff cards, decided by kind; the client-side write adds no second card', async () => {
		const {cards, workspace, written} = await replay('gemini');
		expect(written).toEqual([path.join(workspace, 'new.txt'), path.join(workspace, 'notes.txt')]);
		expect(cards.map(card => shape(card))).toEqual([
			// Output nowhere: the completed card is generic, titled by the command.
			{name: 'acp_execute', status: 'ok', call: {card: 'terminal', title: 'echo acp-shell-ok'}, result: {card: 'generic', content: []}},
			{name: 'acp_read', status: 'ok', call: {card: 'generic', title: 'notes.txt', kind: 'read', locations: [{path: path.join(workspace, 'notes.txt')}]}, result: {card: 'generic', content: []}},
			// A new file's diff has oldText "": a whole-file diff.
			{name: 'acp_edit', status: 'ok', approval: 'allowed-once', call: {card: 'diff', title: 'Writing to new.txt', diffs: [{path: path.join(workspace, 'new.txt'), oldText: null, newText: 'created by the agent\n'}], locations: [{path: path.join(workspace, 'new.txt')}]}, result: {card: 'diff', diffs: [{path: path.join(workspace, 'new.txt'), oldText: null, newText: 'created by the agent\n'}]}},
			{name: 'acp_edit', status: 'ok', approval: 'allowed-once', call: {card: 'diff', title: 'notes.txt: beta line => BETA LINE', diffs: [{path: path.join(workspace, 'notes.txt'), oldText: 'alpha line\nbeta line\n', newText: 'alpha line\nBETA LINE\n'}], locations: [{path: path.join(workspace, 'notes.txt')}]}, result: {card: 'diff', diffs: [{path: path.join(workspace, 'notes.txt'), oldText: 'alpha line\nbeta line\n', newText: 'alpha line\nBETA LINE\n'}]}},
		]);
		// Its read of the missing new.txt was answered empty, so it went on to write it.
		expect(await readFile(path.join(workspace, 'new.txt'), 'utf8')).toBe('created by the agent\n');
		expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('alpha line\nBETA LINE\n');
	});
});

describe('opencode 1.18.33 (opencode acp) and Kilo 7.7.7 (kilo acp, an opencode fork)', () => {
	for (const agent of ['opencode', 'kilo']) {
		it(`${agent}: a pending call with an empty or half input is completed by its updates; the shell card is titled by the command it ran`, async () => {
			const {cards, workspace, written} = await replay(agent);
			// opencode runs its tools itself: no client-side file method.
			expect(written).toEqual([]);
			const recorded = `tmp/${path.relative('/tmp', workspace)}`;
			expect(cards.map(card => shape(card))).toEqual([
				// First seen as `bash` with rawInput {cwd}; the command came in an update; output in content text.
				{name: 'acp_execute', status: 'ok', call: {card: 'terminal', title: 'bash'}, result: {card: 'terminal', title: 'echo acp-shell-ok', output: 'acp-shell-ok\n'}},
				// Titles are paths relative to the root (the agent's words, kept).
				{name: 'acp_read', status: 'ok', call: {card: 'generic', title: 'read', kind: 'read'}, result: {card: 'generic', title: `${recorded}/notes.txt`, content: [{type: 'text', text: 'alpha line\nbeta line'}]}},
				// A write sends no diff, only its message.
				{name: 'acp_edit', status: 'ok', call: {card: 'generic', title: 'write', kind: 'edit'}, result: {card: 'generic', title: `${recorded}/new.txt`, content: [{type: 'text', text: 'Wrote file successfully.'}]}},
				// A completed edit holds only the replaced fragment.
				{name: 'acp_edit', status: 'ok', call: {card: 'generic', title: 'edit', kind: 'edit'}, result: {card: 'diff', title: `${recorded}/notes.txt`, diffs: [{path: path.join(workspace, 'notes.txt'), oldText: 'beta line', newText: 'BETA LINE'}]}},
			]);
		});
	}
});

describe('qwen-code 0.24.4 (qwen --acp)', () => {
	it('pending calls with an empty rawInput; output both as text and in rawOutput; writes through the client belong to the call', async () => {
		const {cards, workspace, written, events} = await replay('qwen');
		expect(written).toEqual([path.join(workspace, 'new.txt'), path.join(workspace, 'notes.txt')]);
		expect(cards.map(card => shape(card))).toEqual([
			{name: 'acp_execute', status: 'ok', call: {card: 'terminal', title: 'Shell'}, result: {card: 'terminal', title: 'echo acp-shell-ok', output: 'acp-shell-ok', exitCode: 0}},
			{name: 'acp_read', status: 'ok', call: {card: 'generic', title: 'ReadFile', kind: 'read'}, result: {card: 'generic', title: 'ReadFile: notes.txt', content: [{type: 'text', text: 'alpha line\nbeta line\n'}]}},
			{name: 'acp_edit', status: 'ok', call: {card: 'generic', title: 'WriteFile', kind: 'edit'}, result: {card: 'diff', title: 'WriteFile: Writing to new.txt', diffs: [{path: path.join(workspace, 'new.txt'), oldText: null, newText: 'created by the agent\n'}]}},
			{name: 'acp_edit', status: 'ok', call: {card: 'generic', title: 'Edit', kind: 'edit'}, result: {card: 'diff', title: 'Edit: notes.txt', diffs: [{path: path.join(workspace, 'notes.txt'), oldText: 'alpha line\nbeta line\n', newText: 'alpha line\nBETA LINE\n'}]}},
		]);
		// The body's command line is the command that ran, not the pending title.
		const rows = layoutEntry({entry: 'card', card: cards[0]!}, {width: 100, theme: monochromeTheme, now: 0, sessionCwd: workspace}).map(row => row.spans.map(part => part.text).join(''));
		expect(rows).toContain('$ echo acp-shell-ok');
		expect(rows).not.toContain('$ Shell');
		// The writes are recorded, as part of their calls, with what `/undo` needs to take them back.
		const notes = path.join(workspace, 'notes.txt');
		expect(events.filter(event => event.type === 'acp/write').map(event => event.data)).toEqual([
			{callId: 'call_3', path: path.join(workspace, 'new.txt'), change: {operation: 'create', content: 'created by the agent\n'}},
			{callId: 'call_4', path: notes, change: {operation: 'update', diffs: [{path: notes, oldText: 'alpha line\nbeta line', newText: 'alpha line\nBETA LINE', oldStart: 1, newStart: 1}]}},
		]);
	});
});

describe('codex-acp 0.16.0', () => {
	it('streams a warning and the answer as message chunks and reports usage; its exec_command sent no tool call', async () => {
		const {entries, events} = await replay('codex-acp');
		expect(cardsOf(entries)).toEqual([]);
		expect(entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : [])).toEqual([
			'Model metadata for `fake-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.Done: shell. ACPDONE',
		]);
		expect(events.filter(event => event.type === 'acp/usage').map(event => event.data)).toEqual([{used: 15, size: 258_400}, {used: 15, size: 258_400}]);
	});
});
