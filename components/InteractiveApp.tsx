import React, {useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore} from 'react';
import {Box, useApp, useStdout} from 'ink';
import type {Key} from './input/keys.js';
import {completeWord, editLine, emptyLine, type LineState} from './input/line-editor.js';
import {layoutEntry} from '../src/layout/layout-entry.js';
import type {LayoutOptions} from '../src/layout/layout-options.js';
import {renderLines} from '../src/layout/render-lines.js';
import {controlSequence, writeOutput} from '../src/layout/terminal-sink.js';
import type {StyledLine} from '../src/layout/styled-line.js';
import type {Theme} from '../src/layout/theme.js';
import {APPROVAL_DIALOG_ROWS, ApprovalDialog, approvalTexts} from './ApprovalDialog.js';
import {fitLiveRows} from './fit-live-rows.js';
import {useClock} from './hooks/use-clock.js';
import {useKeys} from './hooks/use-keys.js';
import {useShrinkGuard, useTerminalSize} from './hooks/use-terminal-size.js';
import {Pager} from './Pager.js';
import {Prompt} from './Prompt.js';
import type {ScrollbackEntry, SessionModel} from './session-model.js';
import {StatusLine, statusText} from './StatusLine.js';
import {lineText} from '../src/layout/spans.js';
import {sanitizeInline} from '../src/layout/sanitize.js';
import {displayWidth} from '../src/layout/text-width.js';
import {StyledRows} from './StyledRows.js';
import {arrayEntrySource, type EntrySource} from '../src/transcript/entry-source.js';

type Props = {
	readonly model: SessionModel;
	readonly theme: Theme;
	/** Write ANSI colours to the scrollback. */
	readonly color: boolean;
	/** Emit OSC 8 links for http(s)/file targets. */
	readonly hyperlinks: boolean;
	/** The clock (tests pass a fixed one). */
	readonly now?: () => number;
	/** Subscribe to Ink's rendered frames (render's `onRender`); used to leave the pager's screen after the prompt is drawn. */
	readonly onFrame?: (listener: () => void) => () => void;
};

/** DEC private mode 1049: save the cursor and switch to the alternate screen, cursor home. */
export const ENTER_ALTERNATE_SCREEN = controlSequence('\u001B[?1049h\u001B[H');
/** Back to the main screen and the saved cursor. */
export const LEAVE_ALTERNATE_SCREEN = controlSequence('\u001B[?1049l');

/** Rows of the live region that are not cards: the prompt and the status line. */
const CHROME_ROWS = 2;

/**
The interactive session's screen. Settled cards are written once into the terminal's scrollback as
pre-rendered rows; Ink draws only the running cards, the approval dialog, the prompt and the status
line, and that region always stays shorter than the terminal.
*/
export function InteractiveApp({model, theme, color, hyperlinks, now = Date.now, onFrame}: Props) {
	const {exit} = useApp();
	const {write, stdout} = useStdout();
	const {columns, rows} = useTerminalSize();
	// The model is a class instance: bind its methods, or React calls them without `this`.
	const subscribe = useCallback((listener: () => void) => model.subscribe(listener), [model]);
	const getSnapshot = useCallback(() => model.getSnapshot(), [model]);
	const snapshot = useSyncExternalStore(subscribe, getSnapshot);
	// The line lives in a ref so that several keys delivered in one chunk see each other's edits.
	const lineRef = useRef<LineState>(emptyLine(model.history.length));
	const [line, setLineState] = useState<LineState>(lineRef.current);
	const setLine = useCallback((next: LineState | ((current: LineState) => LineState)) => {
		lineRef.current = typeof next === 'function' ? next(lineRef.current) : next;
		setLineState(lineRef.current);
	}, []);
	const [hint, setHint] = useState<string | undefined>();
	const [pager, setPager] = useState<'closed' | 'open' | 'leaving'>('closed');
	const [, bumpFrame] = useState(0);
	const lastInterrupt = useRef(0);
	const time = useClock(snapshot.running.length > 0, now);
	const sessionCwd = model.cwd;

	const options = useMemo((): LayoutOptions => ({width: columns, theme, now: time, sessionCwd}), [columns, theme, time, sessionCwd]);

	// Scrollback: each settled card and notice is written exactly once, at the width of the moment.
	const widthRef = useRef(columns);
	widthRef.current = columns;
	// Widths of the rows of the frame on screen, to erase it whole after the terminal reflows it.
	const frameWidths = useRef<number[]>([]);
	useEffect(() => {
		// Runs before Ink's own resize handler: when the terminal narrows, it re-wraps the frame's rows
		// into more rows than Ink will erase, which would leave stale copies above the new frame.
		const onResize = (): void => {
			const before = widthRef.current;
			const after = Math.max(1, stdout.columns || before);
			const widths = frameWidths.current;
			if (after >= before || widths.length === 0) {
				return;
			}

			const height = widths.length;
			const wrapped = widths.reduce((sum, width) => sum + Math.max(1, Math.ceil(width / after)), 0);
			if (wrapped > height) {
				// Up to the frame's first row, erase to the end of the screen (never ESC[2J/3J), then step
				// down to where Ink's own erase of `height` rows will land on that first row again.
				void writeOutput(stdout, controlSequence(`\u001B[${wrapped}A\r\u001B[J${'\n'.repeat(height)}`));
			}
		};

		stdout.prependListener('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout]);

	const frameHeight = useCallback(() => frameWidths.current.length, []);
	useShrinkGuard(frameHeight, onFrame);

	useEffect(() => model.onScrollback((entry: ScrollbackEntry) => {
		const width = widthRef.current;
		const lines = entry.kind === 'entry' ? layoutEntry(entry.entry, {width, theme, now: now(), sessionCwd}) : entry.lines;
		// A blank row after each entry keeps them apart in the scrollback.
		write(renderLines(entry.kind === 'entry' ? [...lines, {spans: []}] : lines, {color, hyperlinks, width}));
	}), [model, write, theme, color, hyperlinks, now, sessionCwd]);

	useEffect(() => {
		if (snapshot.closing) {
			exit();
		}
	}, [snapshot.closing, exit]);

	// The pager takes the alternate screen, as `less` does: the user's scrollback and the live
	// transcript are untouched underneath and come back as they were when it closes. Ink's write
	// erases the live frame, writes the escape, then redraws its last frame on the new screen.
	const [pagerSource, setPagerSource] = useState<(EntrySource & {close?(): unknown}) | undefined>();
	const openPager = useCallback(() => {
		void model.pagerSource().then(source => {
			write(ENTER_ALTERNATE_SCREEN);
			setPagerSource(source);
			setPager('open');
		});
	}, [model, write]);
	useEffect(() => {
		if (pager !== 'leaving') {
			return;
		}

		// Leave only once Ink has drawn the prompt frame (not the pager's) on the alternate screen, so
		// the frame it redraws on the main screen is the prompt.
		let done = false;
		const leave = (): void => {
			if (!done) {
				done = true;
				write(LEAVE_ALTERNATE_SCREEN);
				setPager('closed');
				setPagerSource(current => {
					void current?.close?.();
					return undefined;
				});
			}
		};

		if (onFrame === undefined) {
			const timer = setTimeout(leave, 100);
			return () => {
				clearTimeout(timer);
			};
		}

		const unsubscribe = onFrame(() => {
			queueMicrotask(leave);
		});
		// The prompt's frame may already be drawn; a fresh commit guarantees one more frame to wait for.
		bumpFrame(value => value + 1);
		return unsubscribe;
	}, [pager, onFrame, write]);

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
			if (input === 'a' || input === 'y') {
				model.answerApproval('allowed-once');
			} else if (input === 's') {
				model.answerApproval('allowed-session');
			} else if (input === 'd' || input === 'n') {
				model.answerApproval('rejected');
			} else if (key.escape) {
				model.cancel();
			}

			return;
		}

		if (key.ctrl && input === 'd') {
			if (lineRef.current.text === '') {
				void model.close();
			}

			return;
		}

		if (key.ctrl && input === 'o') {
			openPager();
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
					setHint(candidates.slice(0, 12).join('  ') + (candidates.length > 12 ? `  … ${candidates.length - 12} more` : ''));
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
			if (submitted.trim() === '/pager' && model.getSnapshot().multiline === undefined) {
				openPager();
			}

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

	// Closing: draw nothing, so the terminal is left with the transcript and no stale prompt.
	if (snapshot.closing) {
		return null;
	}

	if (pager === 'open') {
		return <Pager source={pagerSource ?? arrayEntrySource([])} theme={theme} title={`session ${model.sessionId}`} now={now} sessionCwd={sessionCwd} onExit={() => setPager('leaving')} />;
	}

	const dialogRows = snapshot.approval === undefined ? 0 : APPROVAL_DIALOG_ROWS;
	const budget = Math.max(0, rows - 1 - CHROME_ROWS - dialogRows);
	const liveRows = fitLiveRows(
		(snapshot.runningEntries ?? snapshot.running.map(card => ({entry: 'card' as const, card}))).map(entry => layoutEntry(entry, {...options, expansion: 'full'})).filter(lines => lines.length > 0),
		budget,
		hidden => hiddenRow(hidden, theme),
	);
	const marker = snapshot.multiline === undefined ? '> ' : '… ';
	const promptHint = snapshot.approval === undefined
		? (snapshot.multiline === undefined ? 'type !command, /help, or TOOL {json}' : `${snapshot.multiline.label}: line ${snapshot.multiline.lines + 1}, "." ends`)
		: 'answer the question above: a, s or d';
	const dialogTexts = snapshot.approval === undefined ? [] : approvalTexts(snapshot.approval, columns);
	const statusProps = {cwd: model.cwd, sessionId: model.sessionId, snapshot, width: columns, ...(hint === undefined ? {} : {hint})};
	frameWidths.current = [
		...liveRows.map(row => Math.min(columns, displayWidth(lineText(row)))),
		...dialogTexts.map(text => Math.min(columns, displayWidth(text))),
		Math.min(columns, marker.length + 1 + displayWidth(line.text === '' ? promptHint : sanitizeInline(line.text))),
		displayWidth(statusText(statusProps)),
	];
	return (
		<Box flexDirection="column">
			<StyledRows lines={liveRows} />
			{snapshot.approval === undefined ? null : <ApprovalDialog approval={snapshot.approval} width={columns} />}
			<Prompt line={line} width={columns} marker={marker} hint={promptHint} />
			<StatusLine {...statusProps} />
		</Box>
	);
}

function hiddenRow(hidden: number, theme: Theme): StyledLine {
	return {spans: [{text: `… ${hidden} earlier lines not shown while running`, style: theme.muted}]};
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
