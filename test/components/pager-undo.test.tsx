/**
`u` on a diff card in the pager, drawn by Ink: the preview shows the undo card the step would append
(its reverse diff), y takes the card back through the session's undo, n keeps it, a refusal is shown
whole, and a pager without the session's undo (a replay) says it is read-only.
*/
import {describe, expect, it} from 'vitest';
import {changeMeta, UNDO_TOOL, undoPresenter} from '../../src/builtin/fs/undo-card.js';
import type {CardUndo, CardUndoPreview, StepOutcome} from '../../src/host/session-undo.js';
import type {Card} from '../../src/presentation/card.js';
import {cardResult, pendingCard, settleCard} from '../../src/presentation/compose-card.js';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {makeCard, text} from '../layout/fixtures.js';
import {keys} from './harness/fake-terminal.js';
import {startPager} from './harness/pager-screen.js';

const editCard: Card = makeCard({name: 'edit', callId: 'edit-1', callView: {card: 'diff', title: 'app.ts', diffs: []}, result: {content: text('ok'), isError: false}});

/** The undo card a step would append: `TWO` back to `two` in app.ts. */
const undoCard: Card = settleCard(
	pendingCard({callId: 'preview', name: UNDO_TOOL, argsRaw: JSON.stringify({action: 'undo', undoes: 'edit', path: 'app.ts', op: 'preview', targets: ['card:edit-1']}), seq: -1, time: null}, undoPresenter),
	cardResult([{type: 'text', text: 'Undid the edit of app.ts: restored'}], false, undefined, changeMeta({operation: 'update', path: 'app.ts', diffs: [{path: 'app.ts', oldText: 'one\nTWO\nthree\n', newText: 'one\ntwo\nthree\n'}]})),
	null,
	undoPresenter,
);

/** A session's undo that answers `preview` and records what was applied. */
function fakeUndo(preview: CardUndoPreview, outcome: StepOutcome = {tone: 'info', message: 'undid the edit of app.ts (that card alone): app.ts'}): CardUndo & {previewed: string[]; applied: string[]} {
	const previewed: string[] = [];
	const applied: string[] = [];
	return {
		previewed,
		applied,
		async preview(callId) {
			previewed.push(callId);
			return preview;
		},
		async apply(callId) {
			applied.push(callId);
			return outcome;
		},
	};
}

describe('pager u', () => {
	it('shows the reverse diff of the card, takes it back on y, and says what the session did', async () => {
		const undo = fakeUndo({ok: true, cards: [undoCard]});
		const pager = await startPager(arrayEntrySource(asEntries([editCard])), {columns: 100, rows: 24, cardUndo: undo});
		try {
			await pager.press('u');
			const shown = pager.tty.text();
			expect(undo.previewed).toEqual(['edit-1']);
			expect(shown).toContain('Undo this card alone? Nothing is changed until y or Enter.');
			expect(shown).toContain('Undo edit app.ts');
			expect(shown).toMatch(/-.*TWO/);
			expect(shown).toMatch(/\+.*two/);
			expect(shown).toContain('undo this card? y/⏎ takes it back · n/Esc keeps it');
			expect(undo.applied).toEqual([]);

			await pager.press('y');
			expect(undo.applied).toEqual(['edit-1']);
			expect(pager.tty.text()).toContain('undid the edit of app.ts (that card alone): app.ts');
			expect(pager.tty.text()).not.toContain('Undo this card alone?');
		} finally {
			await pager.close();
		}
	});

	it('keeps the card on n or Esc, without quitting the pager', async () => {
		const undo = fakeUndo({ok: true, cards: [undoCard]});
		let quit = false;
		const pager = await startPager(arrayEntrySource(asEntries([editCard])), {columns: 100, rows: 24, cardUndo: undo, onExit() {
			quit = true;
		}});
		try {
			for (const key of ['n', keys.escape]) {
				await pager.press('u');
				await pager.press(key);
				expect(pager.tty.text()).toContain('undo cancelled: nothing was changed');
			}

			expect(undo.applied).toEqual([]);
			expect(quit).toBe(false);
		} finally {
			await pager.close();
		}
	});

	it('shows a refusal whole (the file and its lines, escapes made visible), and any key closes it', async () => {
		const refusal = 'undo refused: cannot take back the edit of app.ts: the file changed after it (near line 1).\n  the file holds now:\n    + TWO by hand\u001B[31m\nNothing was changed: the file keeps what is in it now.';
		const undo = fakeUndo({ok: false, message: refusal});
		const pager = await startPager(arrayEntrySource(asEntries([editCard])), {columns: 100, rows: 24, cardUndo: undo});
		try {
			await pager.press('u');
			const shown = pager.tty.text();
			expect(shown).toContain('cannot take back the edit of app.ts: the file changed after it');
			expect(shown).toContain('+ TWO by hand');
			expect(shown).toContain('Nothing was changed: the file keeps what is in it now.');
			expect(pager.tty.bytes).not.toContain('by hand\u001B[31m');
			await pager.press('y');
			expect(undo.applied).toEqual([]);
			expect(pager.tty.text()).not.toContain('the file holds now');
		} finally {
			await pager.close();
		}
	});

	it('says the pager is read-only where it has no session undo (a replay)', async () => {
		const pager = await startPager(arrayEntrySource(asEntries([editCard])), {columns: 160, rows: 24});
		try {
			await pager.press('u');
			expect(pager.tty.text()).toContain('u: this pager is read-only (a replay of the log)');
		} finally {
			await pager.close();
		}
	});
});
