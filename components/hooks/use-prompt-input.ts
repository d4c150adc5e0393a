import {useCallback, useEffect, useRef, useState, type RefObject} from 'react';
import type {PathPicks} from '../../src/host/path-index.js';
import {assertNever} from '../../src/presentation/assert-never.js';
import {approvalKey} from '../approval-keys.js';
import type {Key, KeyPress} from '../input/keys.js';
import {completeWord, editLine, emptyLine, prependText, replaceBeforeCursor, type LineState} from '../input/line-editor.js';
import {moveSelection, PICKER_ROWS, pickerQuery, pickText, type PickerQuery} from '../input/path-picker.js';
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

/** The `@` picker as the screen draws it: the picks for the query, which is selected, how far the index is. */
export type PickerView = PathPicks & {readonly query: string; readonly selected: number};

/**
The prompt's keys: the line editor, Tab completion, the `@` picker (↑/↓ choose, Tab or Enter insert, Esc closes), and the session keys (Ctrl+C / Esc cancel,
Ctrl+D exit, Ctrl+L clear, Ctrl+O pager, Alt+↑ / Alt+↓ edit or drop the newest queued work, the
approval dialog's ↑/↓ and Enter: approval-keys.ts), and images: a pasted image file's path and
Ctrl+V attach one, Backspace on an empty prompt takes the newest off. Returns the line, the transient hint the status
line shows, and the dialog's marked choice.
*/
export function usePromptInput({model, now, width, openPager, pager}: PromptInputOptions): {readonly line: LineState; readonly hint: string | undefined; readonly choice: number; readonly picker?: PickerView} {
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
	// The `@` picker: the word Esc closed (its start), and the marked pick; refs, as the line.
	const dismissedRef = useRef<number | undefined>(undefined);
	const selectedRef = useRef(0);
	const [, setIndexed] = useState(0);
	const pickerOf = (current: LineState): PickerQuery | undefined => (model.paths === undefined || model.getSnapshot().multiline !== undefined || model.getSnapshot().approval !== undefined ? undefined : pickerQuery(current, dismissedRef.current));
	const query = pickerOf(line);
	const picks = query === undefined ? undefined : model.paths!.find(query.query, PICKER_ROWS);
	const open = query !== undefined;
	// While the picker is open, what the index adds shows as it comes.
	useEffect(() => (open ? model.paths?.onChange(() => {
		setIndexed(value => value + 1);
	}) : undefined), [open, model]);

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

	/** A key for the open `@` picker: whether it took it. */
	const pickerKey = (input: string, key: Key): boolean => {
		const at = pickerOf(lineRef.current);
		if (at === undefined || key.meta) {
			return false;
		}

		if (key.escape) {
			dismissedRef.current = at.start;
			setLine(current => ({...current}));
			return true;
		}

		const found = model.paths!.find(at.query, PICKER_ROWS).picks;
		if (key.upArrow || key.downArrow) {
			selectedRef.current = moveSelection(selectedRef.current, key.upArrow ? -1 : 1, found.length);
			setLine(current => ({...current}));
			return true;
		}

		const pick = found[Math.min(selectedRef.current, found.length - 1)];
		if ((key.tab || key.return) && pick !== undefined && !key.shift) {
			selectedRef.current = 0;
			setHint(undefined);
			setLine(current => replaceBeforeCursor(current, at.start, pickText(pick, key.tab ? 'tab' : 'enter')));
			return true;
		}

		return false;
	};

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

		if (pickerKey(input, key)) {
			return;
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

		if (key.paste && model.pasteImage?.(input) === true) {
			// A dropped image file's path: attached (a row above the prompt), not typed.
			setHint(undefined);
			return;
		}

		if (key.ctrl && input === 'v' && model.pasteClipboardImage !== undefined) {
			model.pasteClipboardImage();
			return;
		}

		if ((key.backspace || key.delete) && lineRef.current.text === '' && model.detachImage?.() === true) {
			return;
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
		if (state.text !== lineRef.current.text) {
			// A new query starts at its best pick; a word Esc closed opens again once it is gone.
			selectedRef.current = 0;
			if (dismissedRef.current !== undefined && state.text[dismissedRef.current] !== '@') {
				dismissedRef.current = undefined;
			}
		}

		setLine(state);
		if (submitted !== undefined) {
			model.submit(submitted);
			// Only commands enter the history (not lines of a multi-line text): start the walk at its end.
			setLine(emptyLine(model.history.length));
		}
	};

	// Keys typed while the pager gives the screen back (after its q, before the prompt's frame) are
	// the person's typeahead: held, then taken in order once the prompt has the screen.
	const held = useRef<KeyPress[]>([]);
	useKeys(press => {
		// Active while leaving the pager too: an inactive input releases stdin and lets Node exit.
		if (pager === 'closed') {
			handleKey(press.input, press.key);
		} else {
			held.current.push(press);
		}
	}, {isActive: pager !== 'open'});
	useEffect(() => {
		if (pager === 'closed') {
			for (const press of held.current.splice(0)) {
				handleKey(press.input, press.key);
			}
		}
	});

	const picker = picks === undefined ? undefined : {...picks, query: query!.query, selected: Math.min(selectedRef.current, Math.max(0, picks.picks.length - 1))};
	return {line, hint, choice, ...(picker === undefined ? {} : {picker})};
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
