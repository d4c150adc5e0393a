import {useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState} from 'react';
import {Box, Text, useStdin, useStdout} from 'ink';
import {layoutEntry} from '../src/layout/entries/layout-entry.js';
import type {LayoutOptions} from '../src/layout/text/layout-options.js';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import type {Span, StyledLine} from '../src/layout/text/styled-line.js';
import {truncateToWidth} from '../src/layout/text/text-width.js';
import type {Theme} from '../src/layout/text/theme.js';
import type {Card} from '../src/presentation/card.js';
import {assertNever} from '../src/presentation/assert-never.js';
import {outcomeTally, type OutcomeCounts} from '../src/presentation/card-outcome.js';
import type {TranscriptEntry} from '../src/presentation/entry.js';
import type {EntrySource} from '../src/transcript/entry-source.js';
import type {ChildSessionLinks, OpenedChild} from '../src/transcript/child-session-links.js';
import {childSessionRow} from '../src/layout/cards/child-session-row.js';
import {pacedListener} from './frame-pacing.js';
import {useClock} from './hooks/use-clock.js';
import {useKeys} from './hooks/use-keys.js';
import {useShrinkGuard, useTerminalSize} from './hooks/use-terminal-size.js';
import {entryCopy} from './pager/card-text.js';
import {REDRAW_SCREEN, REENTER_ALTERNATE_SCREEN} from './alternate-screen.js';
import {writeOutput} from '../src/layout/terminal/terminal-sink.js';
import {damageNote, damageRows, damageStatus} from './pager/damage-list.js';
import {helpRows, statusRows} from './pager/pager-keys.js';
import {matchPosition, searchMatches} from './pager/search-matches.js';
import {entryRows, initialPagerState, keyAction, keyEffect, reducePager, type EntryLayout, type PagerAction, type PagerContext, type PagerEffect, type PagerState} from './pager/pager-state.js';
import {pagerLayoutOptions, visibleRows} from './pager/pager-view.js';
import {markGutter, modelViewOn, modelViewRows, requestAt, standingOf} from './pager/model-view.js';
import {StyledRows} from './StyledRows.js';
import type {CardUndo, CardUndoPreview} from '../src/host/session-undo.js';
import {span, wrapSpans} from '../src/layout/text/spans.js';

type Props = {
	readonly source: EntrySource;
	readonly theme: Theme;
	/** Shown in the status line (session title or log name). */
	readonly title: string;
	readonly now?: () => number;
	/** The session's directory: paths inside it are shown relative, as in the live transcript. */
	readonly sessionCwd?: string;
	/** Open at the newest cards (default) or the first. */
	readonly start?: 'end' | 'start';
	/** Keep showing the newest cards as the source grows, until the user moves (watch mode). */
	readonly follow?: boolean;
	readonly onExit: () => void;
	/** Copy text to the clipboard (OSC 52 or print on exit); returns a message for the status line. */
	readonly onCopy?: (text: string) => string;
	/** Open a file location in $EDITOR (synchronously); the message for the status line, and whether an editor ran. */
	readonly onOpen?: (card: Card) => {readonly message: string; readonly ran: boolean};
	/** `x`: write the session's page to share (`cardterm export`'s, redacted); the message for the status line. */
	readonly onExport?: () => Promise<string>;
	/** Child sessions of subagent cards: a dim row under each such card; Enter on one opens its child in a nested pager (`q` comes back). */
	readonly childSessions?: ChildSessionLinks;
	/** `u` on a diff card: its preview, then the step (a live session's pager); absent, `u` says the pager is read-only. */
	readonly cardUndo?: CardUndo;
};

/**
The full-screen pager: a card cursor over a virtualised list, per-card expansion, search, jumps
between failures, the list of the log's damaged lines (`!`) and of its keys (`?`). A thin view: its
state is a pure reducer (pager/pager-state.ts) fed by the key table (pager/pager-keys.ts); this
component draws it and runs the effects (copy, $EDITOR, a child session, quit). It is `rows − 1`
tall (its one or two status rows included): on ink 6.8 a frame as tall as the terminal clears the
user's scrollback. Idle, it schedules nothing: the clock ticks only while a card runs in a live source.
*/
export function Pager({source, theme, title, now = Date.now, sessionCwd, start = 'end', follow = false, onExit, onCopy, onOpen, onExport, childSessions, cardUndo}: Props) {
	const {columns, rows} = useTerminalSize();
	const {write, stdout} = useStdout();
	const {setRawMode} = useStdin();
	// The frame on screen: rows of cards and one or two status rows (pager-keys.ts statusRows).
	const frameRows = Math.max(2, rows - 1);
	// An overlay (`?` help, `!` damaged lines) has one status row.
	const overlayHeight = frameRows - 1;
	const heightRef = useRef(frameRows);
	heightRef.current = frameRows;
	const frameHeight = useCallback(() => heightRef.current, []);
	useShrinkGuard(frameHeight);
	const [, refresh] = useReducer((value: number) => value + 1, 0);
	// Running cards tick their elapsed time once a second, only while the source is live.
	const time = useClock((follow || !source.complete()) && (source.counts?.().running ?? 0) > 0, now);
	const base = useMemo((): LayoutOptions => ({width: columns, theme, now: time, ...(sessionCwd === undefined ? {} : {sessionCwd})}), [columns, theme, time, sessionCwd]);
	const layout = useCallback<EntryLayout>((entry, expansion, modelView) => {
		const options = pagerLayoutOptions(base, expansion);
		const timeline = modelView ? source.context?.() : undefined;
		const rows = timeline === undefined ? layoutEntry(entry, options) : modelViewRows(entry, timeline, options, layoutEntry);
		const link = childSessions?.linkOf(entry);
		return link === undefined ? rows : [...rows, childSessionRow(link, theme, columns, link.found ? '⏎ opens it' : undefined)];
	}, [base, childSessions, theme, columns, source]);
	const childOf = useCallback((entry: TranscriptEntry) => {
		const link = childSessions?.linkOf(entry);
		return link?.found === true ? link.id : undefined;
	}, [childSessions]);
	// The first frame is already at the newest entries: no frame says `1/N` before the cursor moves there.
	const [state, dispatch] = useReducer(reduceDispatched, undefined, () => initialPagerState(start, source, frameRows - 1, layout));
	const {cursor, search, message, overlay} = state;
	const modelView = modelViewOn(state.modelView, source);
	// eslint-disable-next-line react-hooks/exhaustive-deps -- the rows change with the expansions and the model's view alone, not with every new state (a cursor move)
	const rowsOf = useMemo(() => entryRows(state, layout, source), [state.expansions, state.expansion, modelView, layout, source]);

	// A followed source grows as fast as the session streams: its frames are paced (frame-pacing.ts).
	useEffect(() => {
		const paced = pacedListener(refresh);
		const unsubscribe = source.subscribe?.(() => {
			paced.notify();
		});
		return () => {
			paced.dispose();
			unsubscribe?.();
		};
	}, [source]);
	useEffect(() => childSessions?.subscribe(refresh), [childSessions]);
	// A subagent's child session, open in a nested pager over this one.
	const [nested, setNested] = useState<OpenedChild | undefined>();

	const damage = source.damage?.();
	const count = source.count();
	const generation = source.generation?.() ?? 0;
	// Entries that match the committed search, found once per query (and again as the source grows).
	const matches = useMemo(() => (search.editing || search.query === '' ? undefined : searchMatches(source, search.query)),
		// eslint-disable-next-line react-hooks/exhaustive-deps -- the source changes in place: its count and generation say it grew
		[search.editing, search.query, source, count, generation]);
	const searchNote = matches === undefined ? undefined : `${matchPosition(matches, cursor)}${search.wrapped ? ' · search wrapped' : ''}`;
	// Sanitized before it is measured: a title, a query or a message may hold escapes (measured raw, a
	// 100 000-character query with one escape in it took seconds a row, and widths were the raw text's).
	const statusLines = search.editing ? [sanitizeInline(`/${search.query}`)] : statusRows(sanitizeInline(message ?? statusText(source, cursor, source.label?.() ?? title, source.counts?.(), damageNote(damage), searchNote)), columns);
	const height = Math.max(1, frameRows - statusLines.length);
	const damageOpen = overlay?.kind === 'damage';
	const damageList = useMemo(() => (!damageOpen || damage === undefined ? [] : damageRows(damage, columns, theme)),
		// eslint-disable-next-line react-hooks/exhaustive-deps -- the list only grows (or starts over at 0): its count tells a change
		[damageOpen, damage, damage?.total, columns, theme]);
	const helpList = useMemo(() => helpRows(columns, theme), [columns, theme]);
	const undoPreview = overlay?.kind === 'undo' ? overlay.preview : undefined;
	const undoOpen = overlay?.kind === 'undo';
	// The rows follow the preview, not every scroll of the overlay.
	const undoList = useMemo(() => (undoOpen ? undoRows(undoPreview, base, theme) : []), [undoOpen, undoPreview, base, theme]);
	const context: PagerContext = {source, layout, height, overlayHeight, follow, helpRows: helpList.length, damageRows: damageList.length, damaged: damage?.total ?? 0, undo: cardUndo !== undefined, undoRows: undoList.length, childOf};
	const act = (action: PagerAction) => {
		dispatch({action, context});
	};

	// When the source renumbers its entries (the full index replacing the tail window), the state follows them.
	useLayoutEffect(() => {
		if (generation !== state.generation) {
			act({type: 'renumbered'});
		}
	// eslint-disable-next-line react-hooks/exhaustive-deps -- act is new each render; the numbering is what the effect follows
	}, [generation, state.generation]);
	// Open on the newest entries, and keep to them while the source grows and the user has not moved.
	useEffect(() => {
		act({type: 'grew'});
	// eslint-disable-next-line react-hooks/exhaustive-deps -- act is new each render; the source's growth and the frame are what the effect follows
	}, [count, generation, source, height, rowsOf]);

	const run = (effect: PagerEffect) => {
		switch (effect.type) {
			case 'quit': {
				onExit();
				return;
			}

			case 'copy': {
				if (onCopy === undefined) {
					act({type: 'say', message: 'y: copying is not available here'});
				} else if (effect.entry !== undefined) {
					// What the entry shows at its expansion: the raw output when a card's full view shows it raw.
					const copy = entryCopy(effect.entry, effect.expansion);
					act({type: 'say', message: `${onCopy(copy.text)} · ${copy.what}`});
				}

				return;
			}

			case 'open': {
				if (onOpen === undefined) {
					act({type: 'say', message: 'o: opening files is not available here'});
				} else if (effect.entry?.entry === 'card') {
					// The editor gets the terminal as a shell would give it: cooked, then the pager takes it back
					// and redraws on its own screen (an editor leaving its alternate screen left the pager's).
					setRawMode(false);
					const outcome = onOpen(effect.entry.card);
					setRawMode(true);
					if (outcome.ran) {
						void writeOutput(stdout, REENTER_ALTERNATE_SCREEN);
						write(REDRAW_SCREEN);
					}

					act({type: 'say', message: outcome.message});
				} else {
					act({type: 'say', message: 'o: only a card has a file to open'});
				}

				return;
			}

			case 'export': {
				if (onExport === undefined) {
					act({type: 'say', message: 'x: exporting is not available here (cardterm export LOG writes the page)'});
				} else {
					void onExport().then(message => {
						act({type: 'say', message});
					}, (error: unknown) => {
						act({type: 'say', message: `export failed: ${errorText(error)}`});
					});
				}

				return;
			}

			case 'open-child': {
				void childSessions?.open(effect.id).then(setNested, (error: unknown) => {
					act({type: 'say', message: `cannot open child session ${effect.id}: ${errorText(error)}`});
				});
				return;
			}

			case 'undo-preview': {
				const {callId} = effect;
				void cardUndo?.preview(callId).then(preview => {
					act({type: 'undo-previewed', callId, preview});
				}, (error: unknown) => {
					act({type: 'undo-previewed', callId, preview: {ok: false, message: `cannot read the change: ${errorText(error)}`}});
				});
				return;
			}

			case 'undo-confirm': {
				void cardUndo?.apply(effect.callId).then(outcome => {
					act({type: 'say', message: outcome.message});
				}, (error: unknown) => {
					act({type: 'say', message: `undo failed: ${errorText(error)}`});
				});
				return;
			}

			default: {
				assertNever(effect, 'pager effect');
			}
		}
	};

	// Fast key repeat, tmux and pastes deliver several keys in one chunk: each character is a key,
	// handled after the frame of the one before it.
	useKeys(press => {
		const action = keyAction(press, state);
		if (action === undefined) {
			return;
		}

		const effect = action.type === 'key' ? keyEffect(state, action.command, context) : undefined;
		act(action);
		if (effect !== undefined) {
			run(effect);
		}
	}, {oneAtATime: true, isActive: nested === undefined});

	if (nested !== undefined) {
		return (
			<Pager
				source={nested.source}
				theme={theme}
				title={nested.title}
				now={now}
				{...(sessionCwd === undefined ? {} : {sessionCwd})}
				childSessions={nested.links}
				{...(onCopy === undefined ? {} : {onCopy})}
				{...(onOpen === undefined ? {} : {onOpen})}
				onExit={() => {
					nested.source.close();
					setNested(undefined);
				}}
			/>
		);
	}

	if (overlay?.kind === 'help') {
		const helpTop = overlay.top;
		const shown = helpList.slice(helpTop, helpTop + overlayHeight);
		const filler = Array.from({length: Math.max(0, overlayHeight - shown.length)}, (): StyledLine => ({spans: []}));
		const range = `${helpTop + 1}–${Math.min(helpList.length, helpTop + overlayHeight)}/${helpList.length}`;
		return (
			<Box flexDirection="column">
				<StyledRows lines={[...shown, ...filler]} />
				<Text inverse wrap="truncate-end">{truncateToWidth(`pager keys ${range} · j/k scroll · any other key closes`, columns).padEnd(Math.min(columns, 400))}</Text>
			</Box>
		);
	}

	if (overlay?.kind === 'undo') {
		const shown = undoList.slice(overlay.top, overlay.top + overlayHeight);
		const filler = Array.from({length: Math.max(0, overlayHeight - shown.length)}, (): StyledLine => ({spans: []}));
		const keys = undoPreview === undefined ? 'reading the change… · n/Esc cancels' : (undoPreview.ok ? 'undo this card? y/⏎ takes it back · n/Esc keeps it · j/k scroll' : 'cannot undo · any key closes');
		return (
			<Box flexDirection="column">
				<StyledRows lines={[...shown, ...filler]} />
				<Text inverse wrap="truncate-end">{truncateToWidth(keys, columns).padEnd(Math.min(columns, 400))}</Text>
			</Box>
		);
	}

	if (overlay?.kind === 'damage' && damage !== undefined) {
		const damageTop = overlay.top;
		const shown = damageList.slice(damageTop, damageTop + overlayHeight);
		const filler = Array.from({length: Math.max(0, overlayHeight - shown.length)}, (): StyledLine => ({spans: []}));
		return (
			<Box flexDirection="column">
				<StyledRows lines={[...shown, ...filler]} />
				<Text inverse wrap="truncate-end">{truncateToWidth(sanitizeInline(damageStatus(damage, damageTop, overlayHeight, damageList.length)), columns).padEnd(Math.min(columns, 400))}</Text>
			</Box>
		);
	}

	const visible = visibleRows(source, state.top, height, rowsOf);
	const gutter = modelView ? gutterOf(source, cursor, theme) : undefined;
	const lines = visible.map(entry => {
		const row = gutter === undefined ? entry.line : gutter(entry.card, entry.line);
		const line = entry.card === cursor && entry.row === 0 ? {spans: row.spans.map(span => ({...span, style: {...span.style, ...theme.selected}}))} : row;
		return search.query === '' || search.editing ? line : highlight(line, search.query, theme);
	});
	const padding = Array.from({length: Math.max(0, height - lines.length)}, (): StyledLine => ({spans: []}));
	return (
		<Box flexDirection="column">
			<StyledRows lines={[...lines, ...padding]} />
			{statusLines.map((status, row) => (
				// Status rows have no identity beyond their position: the index is their key.
				<Text key={row} inverse={!search.editing} wrap="truncate-end">{truncateToWidth(status, columns).padEnd(Math.min(columns, 400))}</Text>
			))}
		</Box>
	);
}

/**
The rows of the `u` preview: the undo cards the step would append, laid out whole as the log's cards
are (the same presenter), under a line that says nothing is changed yet; or why it cannot be undone.
*/
function undoRows(preview: CardUndoPreview | undefined, base: LayoutOptions, theme: Theme): StyledLine[] {
	if (preview === undefined) {
		return [{spans: [span('reading the change…', theme.muted)]}];
	}

	if (!preview.ok) {
		return preview.message.split('\n').flatMap(line => wrapSpans([span(sanitizeInline(line), theme.error)], base.width));
	}

	const head = wrapSpans([span(`Undo this card alone? Nothing is changed until y or Enter. ${preview.cards.length === 1 ? 'This card' : `These ${preview.cards.length} cards`} would be appended to the log:`, theme.markdownHeading)], base.width);
	return [...head, {spans: []}, ...preview.cards.flatMap(card => layoutEntry({entry: 'card', card}, {...base, expansion: 'full'}))];
}

/** The model's view's gutter for a frame: each row's entry marked by where it stood in the context at the cursor's step. */
function gutterOf(source: EntrySource, cursor: number, theme: Theme): ((index: number, line: StyledLine) => StyledLine) | undefined {
	const timeline = source.context?.();
	if (timeline === undefined) {
		return undefined;
	}

	const request = requestAt(timeline, source.entry(cursor));
	return (index, line) => {
		const entry = source.entry(index);
		return entry === undefined ? line : markGutter(line, standingOf(timeline, entry, request), theme);
	};
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The pager's reducer as React holds it: each action comes with the context it was dispatched in. */
function reduceDispatched(state: PagerState, {action, context}: {readonly action: PagerAction; readonly context: PagerContext}): PagerState {
	return reducePager(state, action, context);
}

function statusText(source: EntrySource, cursor: number, title: string, counts: OutcomeCounts | undefined, damage: string | undefined, searchNote: string | undefined): string {
	const count = source.count();
	const progress = source.progress?.();
	// A source that names its own state (watch: `following`, `writer finished`, `waiting for …`) is not `reading…`.
	const index = source.complete() || source.label?.() !== undefined ? '' : (progress === undefined ? ' · reading…' : ` · indexing ${Math.round(progress * 100)}%`);
	const outcomes = counts === undefined ? '' : outcomeTally(counts, ' ');
	const tally = outcomes === '' ? '' : ` · ${outcomes}`;
	// Damage and the search position come first: on a narrow terminal the rest of the line is cut.
	return `${positionText(source, cursor, count)}${searchNote === undefined ? '' : ` · ${searchNote}`}${damage === undefined ? '' : ` · ${damage}`}${tally} · ${title}${index}`;
}

/**
Where the cursor is. While a log's tail window is shown its numbers are not the log's (the full index
renumbers every card), so the position is counted back from the newest entry, which stays true when
the index replaces the window — no `1/294` that jumps to `7873/7873`.
*/
function positionText(source: EntrySource, cursor: number, count: number): string {
	if (count === 0) {
		return 'empty';
	}

	if (source.provisional?.() === true) {
		const back = count - 1 - cursor;
		return back === 0 ? 'newest' : `${back} before newest`;
	}

	return `${cursor + 1}/${count}`;
}

/** The row with every case-insensitive occurrence of `query` in the match style. */
function highlight(line: StyledLine, query: string, theme: Theme): StyledLine {
	const text = line.spans.map(span => span.text).join('');
	const lower = text.toLowerCase();
	const needle = query.toLowerCase();
	if (!lower.includes(needle)) {
		return line;
	}

	const marks = new Array<boolean>(text.length).fill(false);
	for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) {
		marks.fill(true, at, at + needle.length);
	}

	const spans: Span[] = [];
	let offset = 0;
	for (const span of line.spans) {
		let runStart = 0;
		for (let index = 1; index <= span.text.length; index++) {
			if (index === span.text.length || marks[offset + index] !== marks[offset + runStart]) {
				const piece = span.text.slice(runStart, index);
				spans.push(marks[offset + runStart] ? {...span, text: piece, style: {...span.style, ...theme.match, inverse: true}} : {...span, text: piece});
				runStart = index;
			}
		}

		offset += span.text.length;
	}

	return {...line, spans};
}
