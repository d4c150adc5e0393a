/** The dialog's rows (components/ApprovalDialog.tsx) with hostile askers: every field escaped, the question at most 4 rows, every row within the width. */
import {describe, expect, it} from 'vitest';
import {approvalRows, approvalTexts} from '../../components/ApprovalDialog.js';
import type {PendingApproval} from '../../components/session-model.js';
import {displayWidth} from '../../src/layout/text/text-width.js';

const hostile: PendingApproval = {
	id: 'q',
	toolName: '\u001B]0;pwned\u0007bash\u001B[2J',
	callId: 'c',
	reason: `${'the config asks before bash '.repeat(40_000)}\u202Eevil\u001B[31m`,
	choices: [
		{label: `allow once ${'\u001B[H'.repeat(100_000)}`, answer: 'allowed-once'},
		{label: 'x'.repeat(1_000_000), answer: 'rejected'},
	],
};

describe('the approval dialog\'s rows', () => {
	it('shows a hostile question as text: no escape, at most 4 question rows, each row within the width', () => {
		for (const width of [1, 20, 80, 200]) {
			const rows = approvalTexts(hostile, 1, width);
			expect(rows).toHaveLength(approvalRows(hostile, width));
			expect(rows.length).toBeLessThanOrEqual(4 + hostile.choices.length + 1);
			for (const row of rows) {
				expect(row).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202E]/u);
				expect(displayWidth(row)).toBeLessThanOrEqual(width);
			}
		}

		const rows = approvalTexts(hostile, 1, 80);
		expect(rows[0]).toContain('? Allow \\x1b]0;pwned\\x07bash');
		expect(rows[3]).toMatch(/…$/u);
		expect(rows[5]).toMatch(/^❯ x+…$/u);
	});

	it('a short question is one row, its choices one each', () => {
		const plain: PendingApproval = {id: 'q', toolName: 'bash', callId: 'c', reason: 'the config asks before bash', choices: [{label: 'Yes, once', answer: 'allowed-once'}, {label: 'No', answer: 'rejected'}]};
		expect(approvalTexts(plain, 0, 80)).toEqual([
			'? Allow bash — the config asks before bash',
			'❯ Yes, once',
			'  No',
			'  ↑↓ choose · Enter answers · Esc cancels the call · typing stays in the prompt',
		]);
	});
});
