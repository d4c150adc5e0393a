/**
The calls a step's model message announced that have not started (`SessionFold.queued`): the live
screen shows them as queued cards while the calls before them run; the log's own cards never are.
*/
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {layoutCard} from '../../../src/layout/cards/layout-card.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {options} from '../../layout/helpers.js';
import {EventScript} from '../fold-events.js';

const bash = (command: string) => JSON.stringify({command, description: command});

function stepWithTwoCommands(): EventScript {
	const script = new EventScript();
	script.push('turn/start', {turn: 1});
	script.push('step/start', {turn: 1, step: 1});
	script.push('assistant/message', {turn: 1, step: 1, message: {role: 'assistant', content: [
		{type: 'tool-call', id: 'a', name: 'bash', arguments: bash('npm test')},
		{type: 'tool-call', id: 'b', name: 'bash', arguments: bash('npm run lint')},
	]}});
	return script;
}

function foldOf(script: EventScript): SessionFold {
	const fold = new SessionFold(referencePresenters('/home/u/proj'));
	for (const event of script.events) {
		fold.apply(event);
	}

	return fold;
}

describe('queued calls', () => {
	it('are the announced calls of the open turn that have not started, in the model\'s order', () => {
		const script = stepWithTwoCommands();
		expect(foldOf(script).queued(8).cards.map(card => [card.callId, card.callView.title, card.queued])).toEqual([['a', 'npm test', true], ['b', 'npm run lint', true]]);
		script.call('a', 'bash', bash('npm test'));
		expect(foldOf(script).queued(8).cards.map(card => card.callId)).toEqual(['b']);
		script.result('a', 'ok');
		script.call('b', 'bash', bash('npm run lint'));
		expect(foldOf(script).queued(8)).toEqual({cards: [], more: 0});
	});

	it('end with their turn, and a log\'s cards are never queued', () => {
		const script = stepWithTwoCommands();
		script.call('a', 'bash', bash('npm test'));
		script.push('step/end', {turn: 1, step: 1});
		script.push('turn/end', {turn: 1, reason: {kind: 'aborted', reason: {kind: 'user'}}});
		const fold = foldOf(script);
		expect(fold.queued(8)).toEqual({cards: [], more: 0});
		expect(fold.entries.filter(entry => entry.entry === 'card').map(entry => entry.entry === 'card' && entry.card.queued)).toEqual([undefined]);
	});

	it('are drawn up to a limit, the rest counted', () => {
		expect(foldOf(stepWithTwoCommands()).queued(1)).toMatchObject({cards: [{callId: 'a'}], more: 1});
	});

	it('a queued card is its header, saying it waits', () => {
		const [queued] = foldOf(stepWithTwoCommands()).queued(8).cards;
		expect(layoutCard(queued!, options(100)).map(row => lineText(row))).toEqual(['○ bash npm test · queued: runs after the calls before it']);
	});
});
