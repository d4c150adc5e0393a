import {useCallback, useContext, useEffect, useMemo, useRef, useState} from 'react';
import {Box, useApp, useStdout} from 'ink';
import type {Card} from '../src/presentation/card.js';
import {layoutEntry} from '../src/layout/entries/layout-entry.js';
import {promptHintOf} from './prompt-hint.js';
import type {LayoutOptions} from '../src/layout/text/layout-options.js';
import {controlSequence, writeOutput} from '../src/layout/terminal/terminal-sink.js';
import type {StyledLine} from '../src/layout/text/styled-line.js';
import type {Theme} from '../src/layout/text/theme.js';
import {ApprovalDialog, approvalRows, approvalTexts} from './ApprovalDialog.js';
import {fitLiveRows} from './fit-live-rows.js';
import {OK_ROW_BUDGET} from '../src/layout/cards/fold-body.js';
import {useClock} from './hooks/use-clock.js';
import {BRACKETED_PASTE, useTerminalMode} from './hooks/use-terminal-mode.js';
import {useAttention} from './hooks/use-attention.js';
import type {AttentionOptions} from './attention.js';
import {usePacedSnapshot} from './hooks/use-paced-snapshot.js';
import {usePromptInput} from './hooks/use-prompt-input.js';
import {useScrollback} from './hooks/use-scrollback.js';
import {scrollbackOutput} from './scrollback-output.js';
import {useShrinkGuard, useTerminalSize} from './hooks/use-terminal-size.js';
import {Pager} from './Pager.js';
import {pickerRows} from './path-picker-rows.js';
import {Prompt, promptRowText} from './Prompt.js';
import {attachmentRowTexts, QueueRows, queueRowTexts} from './QueueRows.js';
import type {ScrollbackEntry, SessionModel} from './session-model.js';
import {StatusLine, statusText} from './StatusLine.js';
import {lineText} from '../src/layout/text/spans.js';
import {displayWidth} from '../src/layout/text/text-width.js';
import {StyledRows} from './StyledRows.js';
import {ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN} from './alternate-screen.js';
import {ColorDepthContext} from './color-depth-context.js';
import {arrayEntrySource, type EntrySource} from '../src/transcript/entry-source.js';

type Props = {
	readonly model: SessionModel;
	readonly theme: Theme;
	/** Write ANSI colours to the scrollback. */
	readonly color: boolean;
	/** Emit OSC 8 links for http(s)/file targets. */
	readonly hyperlinks: boolean;
	/** Animate running cards (a spinner glyph, one frame a second); off under reduced motion or without colour. */
	readonly motion?: boolean;
	/** The clock (tests pass a fixed one). */
	readonly now?: () => number;
	/** Subscribe to Ink's rendered frames (render's `onRender`); used to leave the pager's screen after the prompt is drawn. */
	readonly onFrame?: (listener: () => void) => () => void;
	/** The Ctrl+O pager's `y` and `o` (pager-actions.ts); absent, the pager says they are not available. */
	readonly onCopy?: (text: string) => string;
	readonly onOpen?: (card: Card) => {readonly message: string; readonly ran: boolean};
	/** The pager's `x`: export the session so far; resolves with the status line's message. */
	readonly onExport?: () => Promise<string>;
	/** The window title and the notifications when a turn ends or a question waits (absent: neither). */
	readonly attention?: AttentionOptions;
};

export {ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN} from './alternate-screen.js';
export {clearScreenOutput} from './scrollback-output.js';

/** Rows of the live region that are not cards: the prompt and the status line. */
const CHROME_ROWS = 2;

/**
Live rows a running entry may take: what it will take once settled (a bounded card: header, 12 body
rows) and a marker. A live region taller than what replaces it would push earlier output into the
scrollback and leave blank rows when it shrinks, since a terminal cannot scroll back down.
*/
const LIVE_ROWS_PER_ENTRY = 1 + OK_ROW_BUDGET + 1;

/**
The interactive session's screen. Settled cards are written once into the terminal's scrollback as
pre-rendered rows; Ink draws only the running cards, the approval dialog, the queued work, the
prompt and the status line, and that region always stays shorter than the terminal.
*/
export function InteractiveApp({model, theme, color, hyperlinks, motion = false, now = Date.now, onFrame, onCopy, onOpen, onExport, attention}: Props) {
	const {exit} = useApp();
	const {write, stdout} = useStdout();
	const {columns, rows} = useTerminalSize();
	// The scrollback's colours at the terminal's depth, as the live frame's (StyledRows).
	const depth = useContext(ColorDepthContext);
	// Changes paced to a frame, urgent ones (a step's first token) at once: frame-pacing.ts.
	const {snapshot, ...progress} = usePacedSnapshot(model);
	const [pager, setPager] = useState<'closed' | 'open' | 'leaving'>('closed');
	const [, bumpFrame] = useState(0);
	// Running cards tick their elapsed seconds, and a model turn its time and a retry's countdown.
	const time = useClock(snapshot.running.length > 0 || snapshot.turn !== undefined, now, 1000, snapshot.turn?.retry?.startsAt);
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

	// Bracketed paste while mounted, so a paste is text and never runs lines.
	useTerminalMode(BRACKETED_PASTE);
	useAttention(model, attention);
	const frameHeight = useCallback(() => frameWidths.current.length, []);
	useShrinkGuard(frameHeight, onFrame);

	const subscribeScrollback = useCallback((listener: (entry: ScrollbackEntry) => void) => model.onScrollback(listener), [model]);
	const renderScrollback = useCallback((entry: ScrollbackEntry) => scrollbackOutput(entry, {theme, color, depth, hyperlinks, sessionCwd}, {width: widthRef.current, rows: stdout.rows || 24, now: now()}), [theme, color, depth, hyperlinks, now, sessionCwd, stdout]);

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
	// `/pager` asks for it as Ctrl+O does.
	useEffect(() => model.onOpenPager?.(openPager), [model, openPager]);
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

	// Entries that settle while the pager has the alternate screen wait, in order, until it closes.
	useScrollback({subscribe: subscribeScrollback, render: renderScrollback, write, paused: pager !== 'closed', progress, ...(onFrame === undefined ? {} : {onFrame})});

	const {line, hint, choice, picker} = usePromptInput({model, now, width: widthRef, openPager, pager});
	// Rows for the work that waits, under the running cards and the dialog, never more than the screen leaves.
	const dialogRows = snapshot.approval === undefined ? 0 : approvalRows(snapshot.approval, columns);
	const queueRows = useMemo(() => [
		...queueRowTexts(snapshot.queue, snapshot.queueHeld === true, columns, rows - 1 - CHROME_ROWS - dialogRows),
		...attachmentRowTexts(snapshot.attachments ?? [], columns),
	], [snapshot.queue, snapshot.queueHeld, snapshot.attachments, columns, rows, dialogRows]);
	// The `@` picker's rows sit right above the prompt, in what the dialog and the queue leave.
	const pickRows = picker === undefined ? [] : pickerRows(picker, theme, columns, rows - 1 - CHROME_ROWS - dialogRows - queueRows.length);

	// Closing: draw nothing, so the terminal is left with the transcript and no stale prompt.
	if (snapshot.closing) {
		return null;
	}

	if (pager === 'open') {
		return <Pager source={pagerSource ?? arrayEntrySource([])} follow theme={theme} title={`session ${model.sessionId}`} now={now} sessionCwd={sessionCwd} onExit={() => setPager('leaving')} onCopy={onCopy} onOpen={onOpen} {...(onExport === undefined ? {} : {onExport})} {...(model.childSessions === undefined ? {} : {childSessions: model.childSessions})} {...(model.cardUndo === undefined ? {} : {cardUndo: model.cardUndo})} />;
	}

	const entries = snapshot.runningEntries ?? snapshot.running.map(card => ({entry: 'card' as const, card}));
	const regionRows = Math.max(0, rows - 1 - CHROME_ROWS - dialogRows - queueRows.length - pickRows.length);
	// A streaming answer is laid out only as far as the region can show it (the other entries keep a row each).
	const streamRows = Math.max(1, Math.min(regionRows, LIVE_ROWS_PER_ENTRY * Math.max(1, entries.length)) - (entries.length - 1));
	const running = entries.map(entry => layoutEntry(entry, {...options, expansion: 'full', spinner: motion, liveRows: streamRows})).filter(lines => lines.length > 0);
	const budget = Math.min(regionRows, LIVE_ROWS_PER_ENTRY * Math.max(1, running.length));
	const liveRows = fitLiveRows(
		running,
		budget,
		hidden => hiddenRow(hidden, theme),
	);
	const marker = snapshot.multiline === undefined ? '> ' : '… ';
	const promptHint = promptHintOf(snapshot, model.placeholder, choice);
	const dialogTexts = snapshot.approval === undefined ? [] : approvalTexts(snapshot.approval, choice, columns);
	// The clock read as this frame is drawn: a retry that just came counts down from its own delay, not from the last tick.
	const statusProps = {cwd: model.cwd, sessionId: model.sessionId, snapshot, width: columns, now: Math.max(time, now()), ...(hint === undefined ? {} : {hint})};
	frameWidths.current = [
		...liveRows.map(row => Math.min(columns, displayWidth(lineText(row)))),
		...dialogTexts.map(text => Math.min(columns, displayWidth(text))),
		...queueRows.map(text => Math.min(columns, displayWidth(text))),
		...pickRows.map(row => Math.min(columns, displayWidth(lineText(row)))),
		Math.min(columns, displayWidth(promptRowText(line, marker, promptHint))),
		displayWidth(statusText(statusProps)),
	];
	return (
		<Box flexDirection="column">
			<StyledRows lines={liveRows} />
			{snapshot.approval === undefined ? null : <ApprovalDialog approval={snapshot.approval} selected={choice} width={columns} />}
			<QueueRows rows={queueRows} />
			<StyledRows lines={pickRows} />
			<Prompt line={line} width={columns} marker={marker} hint={promptHint} />
			<StatusLine {...statusProps} />
		</Box>
	);
}

function hiddenRow(hidden: number, theme: Theme): StyledLine {
	return {spans: [{text: `… ${hidden} earlier lines not shown while running`, style: theme.muted}]};
}
