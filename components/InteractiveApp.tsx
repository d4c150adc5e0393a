import React, {useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore} from 'react';
import {Box, useApp, useInput, useStdout} from 'ink';
import {completeWord, editLine, emptyLine, type LineState} from '../src/cli/interactive/line-editor.js';
import {layoutCard} from '../src/layout/layout-card.js';
import type {LayoutOptions} from '../src/layout/layout-options.js';
import {renderLines} from '../src/layout/render-lines.js';
import type {StyledLine} from '../src/layout/styled-line.js';
import type {Theme} from '../src/layout/theme.js';
import {APPROVAL_DIALOG_ROWS, ApprovalDialog} from './ApprovalDialog.js';
import {fitLiveRows} from './fit-live-rows.js';
import {useClock} from './hooks/use-clock.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {Pager} from './Pager.js';
import {Prompt} from './Prompt.js';
import type {ScrollbackEntry, SessionModel} from './session-model.js';
import {StatusLine} from './StatusLine.js';
import {StyledRows} from './StyledRows.js';
import {arrayCardSource} from './card-source.js';

type Props = {
	readonly model: SessionModel;
	readonly theme: Theme;
	/** Write ANSI colours to the scrollback. */
	readonly color: boolean;
	/** Emit OSC 8 links for http(s)/file targets. */
	readonly hyperlinks: boolean;
	/** The clock (tests pass a fixed one). */
	readonly now?: () => number;
};

/** Rows of the live region that are not cards: the prompt and the status line. */
const CHROME_ROWS = 2;

/**
The interactive session's screen. Settled cards are written once into the terminal's scrollback as
pre-rendered rows; Ink draws only the running cards, the approval dialog, the prompt and the status
line, and that region always stays shorter than the terminal.
*/
export function InteractiveApp({model, theme, color, hyperlinks, now = Date.now}: Props) {
	const {exit} = useApp();
	const {write} = useStdout();
	const {columns, rows} = useTerminalSize();
	const snapshot = useSyncExternalStore(model.subscribe, model.getSnapshot);
	const [line, setLine] = useState<LineState>(() => emptyLine(model.history.length));
	const [hint, setHint] = useState<string | undefined>();
	const [pager, setPager] = useState(false);
	const lastInterrupt = useRef(0);
	const time = useClock(snapshot.running.length > 0, now);
	const sessionCwd = model.cwd;

	const options = useMemo((): LayoutOptions => ({width: columns, theme, now: time, sessionCwd}), [columns, theme, time, sessionCwd]);

	// Scrollback: each settled card and notice is written exactly once, at the width of the moment.
	const widthRef = useRef(columns);
	widthRef.current = columns;
	useEffect(() => model.onScrollback((entry: ScrollbackEntry) => {
		const width = widthRef.current;
		const lines = entry.kind === 'card' ? layoutCard(entry.card, {width, theme, now: now(), sessionCwd}) : entry.lines;
		write(renderLines(lines, {color, hyperlinks, width}));
	}), [model, write, theme, color, hyperlinks, now, sessionCwd]);

	useEffect(() => {
		if (snapshot.closing) {
			exit();
		}
	}, [snapshot.closing, exit]);

	const interrupt = useCallback(() => {
		if (model.cancel()) {
			setHint(undefined);
			return;
		}

		if (line.text !== '') {
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
	}, [model, line.text, now]);

	useInput((input, key) => {
		if (key.ctrl && input === 'c') {
			interrupt();
			return;
		}

		if (snapshot.approval !== undefined) {
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
			if (line.text === '') {
				void model.close();
			}

			return;
		}

		if (key.ctrl && input === 'o') {
			setPager(true);
			return;
		}

		if (key.tab) {
			void model.complete(line.text, line.cursor).then(candidates => {
				if (candidates.length === 1) {
					setLine(current => completeWord(current, candidates[0]!));
				} else if (candidates.length > 1) {
					const prefix = commonPrefix(candidates);
					setLine(current => completeWord(current, prefix));
					setHint(candidates.slice(0, 12).join('  ') + (candidates.length > 12 ? `  … ${candidates.length - 12} more` : ''));
				}
			});
			return;
		}

		setHint(undefined);
		const {state, submitted} = editLine(line, input, key, model.history);
		setLine(state);
		if (submitted !== undefined) {
			if (submitted.trim() === '/pager') {
				setPager(true);
			}

			model.submit(submitted);
		}
	}, {isActive: !pager});

	if (pager) {
		return <Pager source={arrayCardSource(model.cards())} theme={theme} title={`session ${model.sessionId}`} now={now} onExit={() => setPager(false)} />;
	}

	const dialogRows = snapshot.approval === undefined ? 0 : APPROVAL_DIALOG_ROWS;
	const budget = Math.max(0, rows - 1 - CHROME_ROWS - dialogRows);
	const liveRows = fitLiveRows(
		snapshot.running.map(card => layoutCard(card, {...options, expansion: 'full'})),
		budget,
		hidden => hiddenRow(hidden, theme),
	);
	const marker = snapshot.multiline === undefined ? '> ' : '… ';
	const promptHint = snapshot.multiline === undefined ? 'type !command, /help, or TOOL {json}' : `${snapshot.multiline.label}: line ${snapshot.multiline.lines + 1}, "." ends`;
	return (
		<Box flexDirection="column">
			<StyledRows lines={liveRows} />
			{snapshot.approval === undefined ? null : <ApprovalDialog approval={snapshot.approval} width={columns} />}
			<Prompt line={line} width={columns} marker={marker} hint={promptHint} />
			<StatusLine cwd={model.cwd} sessionId={model.sessionId} snapshot={snapshot} width={columns} hint={hint} />
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
