import {useCallback, useRef, useState, type RefObject} from 'react';
import {assertNever} from '../../src/presentation/assert-never.js';
import {approvalKey} from '../approval-keys.js';
import type {Key} from '../input/keys.js';
import {completeWord, editLine, emptyLine, prependText, type LineState} from '../input/line-editor.js';
import type {SessionModel} from '../session-model.js';
import {candidateHint} from '../StatusLine.js';
import {useKeys} from './use-keys.js';

export type PromptInputOptions = {
	readonly model: SessionModel;
	readonly now: () => number;
	/** The terminal's columns now (completion hints fit them). */
	readonly width: RefObject<number>;
	readonly openPager: () => void;
	/** Keys go to the prompt only while the pager is closed. */
	readonly pager: 'closed' | 'open' | 'leaving';
};

/**
The prompt's keys: the line editor, Tab completion, and the session keys (Ctrl+C / Esc cancel,
Ctrl+D exit, Ctrl+L clear, Ctrl+O pager, Alt+↑ / Alt+↓ edit or drop the newest queued work, the
approval dialog's ↑/↓ and Enter: approval-keys.ts). Returns the line, the transient hint the status
line shows, and the dialog's marked choice.
*/
export function usePromptInput({model, now, width, openPager, pager}: PromptInputOptions): {readonly line: LineState; readonly hint: string | undefined; readonly choice: number} {
	// The line lives in a ref so that several keys delivered in one chunk see each other's edits.
	const lineRef = useRef<LineState>(emptyLine(model.history.length));
	const [line, setLineState] = useState<LineState>(lineRef.current);
	const setLine = useCallback((next: LineState | ((current: LineState) => LineState)) => {
		lineRef.current = typeof next === 'function' ? next(lineRef.current) : next;
		setLineState(lineRef.current);
	}, []);
	const [hint, setHint] = useState<string | undefined>();
	const lastInterrupt = useRef(0);
	// The dialog's marked choice, per question (a new question starts on its first choice); a ref, as the line.
	const choiceRef = useRef<{readonly id: string | undefined; readonly index: number}>({id: undefined, index: 0});
	const [, setChoiceState] = useState(choiceRef.current);
	const shown = model.getSnapshot().approval;
	const choice = choiceRef.current.id === shown?.id ? choiceRef.current.index : 0;

	const interrupt = useCallback(() => {
		if (model.cancel()) {
			setHint(undefined);
			return;
		}

		if (lineRef.current.text !== '') {
			setLine(emptyLine(model.history.length));
			return;
		}

		const at = now();
		if (at - lastInterrupt.current < 2000) {
			void model.close();
			return;
		}

		lastInterrupt.current = at;
		setHint('press Ctrl+C again to exit (or Ctrl+D)');
	}, [model, now, setLine]);

	const handleKey = (input: string, key: Key): void => {
		if (key.ctrl && input === 'c') {
			interrupt();
			return;
		}

		const approval = model.getSnapshot().approval;
		if (approval !== undefined) {
			const marked = choiceRef.current.id === approval.id ? choiceRef.current.index : 0;
			const action = approvalKey(approval, marked, lineRef.current.text, input, key);
			switch (action.kind) {
				case 'move': {
					choiceRef.current = {id: approval.id, index: action.selected};
					setChoiceState(choiceRef.current);
					setHint(undefined);
					return;
				}

				case 'answer': {
					const chosen = approval.choices[action.choice]!;
					model.answerApproval(chosen.answer, action.words);
					if (action.words !== undefined) {
						// The words went to the agent with the refusal.
						setLine(emptyLine(model.history.length));
					}

					setHint(undefined);
					return;
				}

				case 'hint': {
					setHint(action.text);
					return;
				}

				case 'prompt': {
					break;
				}

				default: {
					assertNever(action, 'approval key action');
				}
			}
		}

		if (key.ctrl && input === 'd') {
			if (lineRef.current.text === '') {
				void model.close();
			}

			return;
		}

		if (key.escape) {
			// Esc cancels the running call (or the text being collected), as Ctrl+C does; never the line.
			model.cancel();
			return;
		}

		if (key.ctrl && input === 'l') {
			model.clearScreen?.();
			return;
		}

		if (key.ctrl && input === 'o') {
			openPager();
			return;
		}

		if (key.meta && (key.upArrow || key.downArrow)) {
			// Alt+↑ takes the newest queued work back to the prompt, Alt+↓ drops it (QueueRows shows the keys);
			// with nothing queued they walk the history as ↑/↓ do.
			if (key.upArrow) {
				const text = model.editQueued?.();
				if (text !== undefined) {
					setHint(undefined);
					setLine(current => prependText(current, text));
					return;
				}
			} else if (model.dropQueued?.() === true) {
				setHint(undefined);
				return;
			}
		}

		if (key.tab && key.shift) {
			// Shift+Tab (CSI Z) cycles the session's mode; it never completes.
			model.cycleMode?.();
			return;
		}

		if (key.tab) {
			const {text, cursor} = lineRef.current;
			void model.complete(text, cursor).then(candidates => {
				if (candidates.length === 1) {
					// A finished word gets its space; a directory stays open for the next Tab.
					const word = candidates[0]!;
					setLine(current => completeWord(current, word.endsWith('/') ? word : `${word} `));
					setHint(undefined);
				} else if (candidates.length > 1) {
					const prefix = commonPrefix(candidates);
					setLine(current => completeWord(current, prefix));
					setHint(candidateHint(candidates, width.current));
				} else {
					setHint('no completions');
				}
			});
			return;
		}

		setHint(undefined);
		const {state, submitted} = editLine(lineRef.current, input, key, model.history);
		setLine(state);
		if (submitted !== undefined) {
			model.submit(submitted);
			// Only commands enter the history (not lines of a multi-line text): start the walk at its end.
			setLine(emptyLine(model.history.length));
		}
	};

	useKeys(({input, key}) => {
		// Stay active while leaving the pager (an inactive input releases stdin and lets Node exit), but ignore keys.
		if (pager === 'closed') {
			handleKey(input, key);
		}
	}, {isActive: pager !== 'open'});

	return {line, hint, choice};
}

function commonPrefix(words: readonly string[]): string {
	let prefix = words[0] ?? '';
	for (const word of words) {
		while (!word.startsWith(prefix)) {
			prefix = prefix.slice(0, -1);
		}
	}

	return prefix;
}
