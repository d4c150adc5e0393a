/** What each key does while an approval question is shown (components/approval-keys.ts): only ↑/↓ and Enter answer. */
import {describe, expect, it} from 'vitest';
import {approvalKey, WORDS_HINT} from '../../components/approval-keys.js';
import {callChoices} from '../../src/host/approvals.js';
import type {PendingApproval} from '../../components/session-model.js';

const approval: PendingApproval = {id: 'q', toolName: 'bash', callId: 'c', choices: callChoices('bash', false)};

describe('approvalKey', () => {
	it('leaves every typed character to the prompt: the answer keys of old too, pasted or typed', () => {
		for (const input of ['a', 's', 'd', 'y', 'n', '1', 'hello sam', ' ']) {
			expect(approvalKey(approval, 0, '', input, {})).toEqual({kind: 'prompt'});
			expect(approvalKey(approval, 0, '', input, {paste: true})).toEqual({kind: 'prompt'});
		}
	});

	it('moves the mark with ↑/↓ within the list', () => {
		expect(approvalKey(approval, 0, '', '', {downArrow: true})).toEqual({kind: 'move', selected: 1});
		expect(approvalKey(approval, 3, '', '', {downArrow: true})).toEqual({kind: 'move', selected: 3});
		expect(approvalKey(approval, 0, '', '', {upArrow: true})).toEqual({kind: 'move', selected: 0});
	});

	it('answers with Enter on an empty prompt; Enter on a typed line sends the line, and the question waits', () => {
		expect(approvalKey(approval, 1, '', '', {return: true})).toEqual({kind: 'answer', choice: 1});
		expect(approvalKey(approval, 1, 'hello sam', '', {return: true})).toEqual({kind: 'prompt'});
		// Shift+Enter and Alt+Enter are the prompt's newline.
		expect(approvalKey(approval, 1, '', '', {return: true, shift: true})).toEqual({kind: 'prompt'});
		expect(approvalKey(approval, 1, '', '', {return: true, meta: true})).toEqual({kind: 'prompt'});
	});

	it('a choice that takes words is confirmed with the words typed, and asks for them when there are none', () => {
		expect(approvalKey(approval, 3, '  use pytest  ', '', {return: true})).toEqual({kind: 'answer', choice: 3, words: 'use pytest'});
		expect(approvalKey(approval, 3, '', '', {return: true})).toEqual({kind: 'hint', text: WORDS_HINT});
	});
});
