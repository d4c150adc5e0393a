import {describe, expect, it} from 'vitest';
import {addUsage, assistantFacts, contentText, noticeFacts, ONE_ROW_CHARS, oneRow, pluginNotice, REASON_CHARS, turnOutcome, userMessageSource} from '../../../src/session/fold/entry-facts.js';

describe('entry facts', () => {
	it('words every turn/end reason of the contract for a person', () => {
		expect([
			{kind: 'completed'},
			{kind: 'aborted', reason: {kind: 'user'}},
			{kind: 'aborted', reason: {kind: 'parent'}},
			{kind: 'aborted', reason: {kind: 'hook'}},
			{kind: 'aborted', reason: {kind: 'disposed'}},
			{kind: 'aborted'},
			{kind: 'blocked', message: 'policy says no'},
			{kind: 'error', error: {message: 'rate limited', code: '429'}},
			{kind: 'error'},
			{kind: 'max-tokens'},
			{kind: 'interrupted'},
			{kind: 'something-new'},
			undefined,
		].map(reason => turnOutcome(reason))).toEqual([
			{text: 'completed', failed: false},
			{text: 'cancelled by you', failed: false},
			{text: 'cancelled by the parent agent', failed: false},
			{text: 'stopped by a hook', failed: false},
			{text: 'stopped: the session closed', failed: false},
			{text: 'cancelled', failed: false},
			{text: 'blocked: policy says no', failed: true},
			{text: 'error: rate limited', failed: true},
			{text: 'error', failed: true},
			{text: 'max tokens', failed: true},
			{text: 'interrupted (crash)', failed: true},
			{text: 'something-new', failed: false},
			{text: 'completed', failed: false},
		]);
	});

	it('words a failed turn with its HTTP status, every line of its reason, and the advice the agent recorded', () => {
		expect(turnOutcome({kind: 'error', error: {message: 'too long.\nPlease reduce the length.', status: 400, advice: 'Start a new session.'}})).toEqual({text: 'error (HTTP 400): too long. Please reduce the length.', failed: true, advice: 'Start a new session.'});
		// A status that is no HTTP status (an older producer's, a hostile log's) is not shown as one.
		expect(turnOutcome({kind: 'error', error: {message: 'x', status: 7}}).text).toBe('error: x');
		expect(turnOutcome({kind: 'error', error: {message: 'x', status: '500'}}).text).toBe('error: x');
		expect(turnOutcome({kind: 'error', error: {status: 503}})).toEqual({text: 'error (HTTP 503)', failed: true});
		expect(turnOutcome({kind: 'blocked', message: 'the model refused:\nbecause'}).text).toBe('blocked: the model refused: because');
	});

	it('reads message content as text, images as placeholders, unknown blocks by their type', () => {
		const content = [
			{type: 'text', text: 'look at this'},
			{type: 'image', attachment: {attachmentId: 'a', mediaType: 'image/png', bytes: 10, width: 640, height: 480, name: 'shot.png'}},
			{type: 'audio'},
			{type: 'reasoning', text: 'hidden here'},
			'not a block',
		];
		expect(contentText(content)).toBe('look at this\n\n[image 640×480 shot.png]\n\n[audio]');
		expect(contentText(content, 'reasoning')).toBe('hidden here');
		expect(contentText({not: 'an array'})).toBe('');
	});

	it('splits an assistant message into text and reasoning, with its usage and interruption', () => {
		const data = {turn: 1, step: 2, interrupted: true, usage: {inputTokens: 10, outputTokens: 3}, message: {role: 'assistant', content: [
			{type: 'reasoning', text: 'think'},
			{type: 'text', text: 'DONE'},
			{type: 'tool-call', id: 'c', name: 'bash', arguments: '{}'},
		]}};
		expect(assistantFacts(data)).toEqual({text: 'DONE', reasoning: 'think', interrupted: true, usage: {inputTokens: 10, outputTokens: 3}});
		expect(assistantFacts({turn: 1})).toEqual({text: '', reasoning: '', interrupted: false});
		expect(addUsage({inputTokens: 1, outputTokens: 2}, {inputTokens: 3, outputTokens: 4})).toEqual({inputTokens: 4, outputTokens: 6});
		expect(addUsage(undefined, {inputTokens: 3, outputTokens: 4})).toEqual({inputTokens: 3, outputTokens: 4});
	});

	it('tells the person from plugins that inject context', () => {
		expect(userMessageSource({source: {kind: 'user'}})).toEqual({kind: 'user'});
		expect(userMessageSource({})).toEqual({kind: 'user'});
		expect(userMessageSource({source: {kind: 'plugin', plugin: '@x/system-prompt'}})).toEqual({kind: 'notice', source: '@x/system-prompt'});
		expect(pluginNotice('@x/p', {content: [{type: 'text', text: 'Current runtime context.\n\nPolicy: open.'}]})).toEqual({source: '@x/p', summary: 'Current runtime context.', detail: 'Current runtime context.\n\nPolicy: open.'});
		expect(pluginNotice('@x/p', {content: []})).toBeUndefined();
	});

	it('words notices from their fields, and shows unknown events only when they carry text', () => {
		expect(noticeFacts('hook/result', {point: 'PreToolUse', decision: 'block', exitCode: 2, stderrSummary: 'bash is disabled'})).toEqual({source: 'hook/result', summary: 'hook PreToolUse: block (exit 2) — bash is disabled'});
		expect(noticeFacts('llm/retry', {attempt: 2, error: {message: 'overloaded'}})).toEqual({source: 'llm/retry', summary: 'retrying the model (attempt 2): overloaded'});
		expect(noticeFacts('session/title', {title: 'Fix the build'})).toEqual({source: 'title', summary: 'Fix the build'});
		expect(noticeFacts('tool-workflow/run-end', {runId: 'r', stopReason: 'completed'})).toEqual({source: 'tool-workflow/run-end', summary: 'tool-workflow/run-end · stopReason completed'});
		expect(noticeFacts('subagent/descriptor', {version: 3, mode: 'one-shot', provider: 'spawn', label: 'survey the repo'})).toEqual({source: 'subagent', summary: 'survey the repo (one-shot, spawn)'});
		expect(noticeFacts('subagent/descriptor', {version: 3})).toEqual({source: 'subagent', summary: 'subagent'});
		expect(noticeFacts('made/up', {text: 'a line\nand more'})).toEqual({source: 'made/up', summary: 'a line', detail: 'a line\nand more'});
		expect(noticeFacts('made/up', {count: 3})).toBeUndefined();
		expect(noticeFacts('request/header', {header: {}})).toBeUndefined();
	});

	it('keeps one-row fields bounded whatever a log holds, the whole text staying in the detail', () => {
		const huge = 'x\n'.repeat(300_000);
		expect(turnOutcome({kind: huge}).text).toBe('x');
		expect(turnOutcome({kind: 'error', error: {message: 'y'.repeat(1_000_000)}}).text).toHaveLength('error: '.length + REASON_CHARS + 1);
		const notice = pluginNotice('p', {content: [{type: 'text', text: 'z'.repeat(10_000)}]});
		expect(notice?.summary).toHaveLength(ONE_ROW_CHARS + 1);
		expect(notice?.detail).toHaveLength(10_000);
		expect(oneRow('a\nb')).toBe('a');
	});
});
