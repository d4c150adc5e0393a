import React, {useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState} from 'react';
import {Box, Text, useStdin, useStdout} from 'ink';
import {layoutEntry} from '../src/layout/layout-entry.js';
import type {Expansion, LayoutOptions} from '../src/layout/layout-options.js';
import {sanitizeInline} from '../src/layout/sanitize.js';
import type {Span, StyledLine} from '../src/layout/styled-line.js';
import {truncateToWidth} from '../src/layout/text-width.js';
import type {Theme} from '../src/layout/theme.js';
import type {Card} from '../src/presentation/card.js';
import {outcomeTally, type OutcomeCounts} from '../src/presentation/card-outcome.js';
import type {TranscriptEntry} from '../src/presentation/entry.js';
import type {EntrySource} from '../src/transcript/entry-source.js';
import type {ChildSessionLinks, OpenedChild} from '../src/transcript/child-session-links.js';
import {childSessionRow} from '../src/layout/child-session-row.js';
import {pacedListener} from './frame-pacing.js';
import {useClock} from './hooks/use-clock.js';
import {useKeys} from './hooks/use-keys.js';
import {useShrinkGuard, useTerminalSize} from './hooks/use-terminal-size.js';
import {entryCopy, entrySearchText, isFailedEntry} from './pager/card-text.js';
import {REDRAW_SCREEN, REENTER_ALTERNATE_SCREEN} from './alternate-screen.js';
import {writeOutput} from '../src/layout/terminal-sink.js';
import {damageNote, damageRows, damageStatus, lastDamageTop} from './pager/damage-list.js';
import {helpRows, statusRows} from './pager/pager-keys.js';
import {matchPosition, searchMatches} from './pager/search-matches.js';
import {lastPage, nextExpansion, pagerLayoutOptions, scrollBy, visibleRows, type PagerTop} from './pager/pager-view.js';
import {StyledRows} from './StyledRows.js';

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
	/** Child sessions of subagent cards: a dim row under each such card; Enter on one opens its child in a nested pager (`q` comes back). */
	readonly childSessions?: ChildSessionLinks;
};

/**
The full-screen pager: a card cursor over a virtualised list, per-card expansion, search, jumps
between failures, the list of the log's damaged lines (`!`) and of its keys (`?`). It is `rows − 1`
tall (its one or two status rows included): on ink 6.8 a frame as tall as the terminal clears the
user's scrollback. Idle, it
schedules nothing: the clock ticks only while a card runs in a live source.
*/
export function Pager({source, theme, title, now = Date.now, sessionCwd, start = 'end', follow = false, onExit, onCopy, onOpen, childSessions}: Props) {
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
	const [expansions] = useState(() => new Map<number, Expansion>());
	const [globalExpansion, setGlobalExpansion] = useState<Expansion | undefined>();
	// Running cards tick their elapsed time once a second, only while the source is live.
	const time = useClock((follow || !source.complete()) && (source.counts?.().running ?? 0) > 0, now);
	const base = useMemo((): LayoutOptions => ({width: columns, theme, now: time, ...(sessionCwd === undefined ? {} : {sessionCwd})}), [columns, theme, time, sessionCwd]);
	const rowsOf = useCallback((entry: TranscriptEntry, index: number) => {
		const rows = layoutEntry(entry, pagerLayoutOptions(base, expansions.get(index), globalExpansion));
		const link = childSessions?.linkOf(entry);
		return link === undefined ? rows : [...rows, childSessionRow(link, theme, columns, link.found ? '⏎ opens it' : undefined)];
	}, [base, expansions, globalExpansion, childSessions, theme, columns]);
	// The first frame is already at the newest entries: no frame says `1/N` before the cursor moves there.
	const [cursor, setCursor] = useState(() => (start === 'end' ? Math.max(0, source.count() - 1) : 0));
	const [top, setTop] = useState<PagerTop>(() => (start === 'end' ? lastPage(source, frameRows - 1, rowsOf) : {card: 0, row: 0}));
	const [search, setSearch] = useState<{readonly query: string; readonly editing: boolean}>({query: '', editing: false});
	const [message, setMessage] = useState<string | undefined>();
	// The damaged-lines list's top row while it is open.
	const [damageTop, setDamageTop] = useState<number | undefined>();
	// The `?` overlay's top row while it is open.
	const [helpTop, setHelpTop] = useState<number | undefined>();
	const opened = useRef(false);
	// Stay at the end while the source grows (indexing or following), until the user navigates.
	const stick = useRef(start === 'end');

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
		[search.editing, search.query, source, count, generation]);
	const searchNote = matches === undefined ? undefined : matchPosition(matches, cursor);
	const statusLines = search.editing ? [`/${search.query}`] : statusRows(message ?? statusText(source, cursor, source.label?.() ?? title, source.counts?.(), damageNote(damage), searchNote), columns);
	const height = Math.max(1, frameRows - statusLines.length);

	// Open on the newest cards, and keep to them while the source grows and the user has not moved.
	useEffect(() => {
		if (count > 0 && (stick.current || !opened.current)) {
			opened.current = true;
			if (stick.current) {
				setTop(lastPage(source, height, rowsOf));
				setCursor(count - 1);
			}
		}
	}, [count, generation, source, height, rowsOf]);

	// When the source renumbers its cards (the full index replacing the tail window), keep the
	// cursor, the scroll position and per-card expansions on the same cards.
	const seenGeneration = useRef(generation);
	useLayoutEffect(() => {
		const from = seenGeneration.current;
		if (from === generation) {
			return;
		}

		seenGeneration.current = generation;
		if (stick.current || source.moved === undefined) {
			return;
		}

		const map = (index: number) => source.moved!(index, from);
		if (map(cursor) === undefined) {
			// The card under the cursor is gone (a watched log was replaced): show the new cards' end.
			stick.current = true;
			expansions.clear();
			setTop(lastPage(source, height, rowsOf));
			setCursor(Math.max(0, source.count() - 1));
			return;
		}

		setCursor(current => map(current) ?? current);
		setTop(current => {
			const card = map(current.card);
			return card === undefined ? current : {card, row: current.row};
		});
		const entries = [...expansions.entries()];
		expansions.clear();
		for (const [index, expansion] of entries) {
			const moved = map(index);
			if (moved !== undefined) {
				expansions.set(moved, expansion);
			}
		}
	}, [generation, source, expansions, cursor, height, rowsOf]);

	const damageList = useMemo(() => (damageTop === undefined || damage === undefined ? [] : damageRows(damage, columns, theme)),
		// The list only grows (or starts over at 0): its count tells a change.
		[damageTop === undefined, damage, damage?.total, columns, theme]);

	const helpList = useMemo(() => helpRows(columns, theme), [columns, theme]);

	const focus = useCallback((index: number) => {
		const count = source.count();
		if (count === 0) {
			return;
		}

		const target = Math.max(0, Math.min(count - 1, index));
		setCursor(target);
		setTop(current => {
			const visible = visibleRows(source, current, height, rowsOf);
			const shown = visible.some(entry => entry.card === target && entry.row === 0);
			return shown ? current : scrollBy(source, {card: target, row: 0}, 0, height, rowsOf);
		});
	}, [source, height, rowsOf]);

	// Scroll by `delta` rows, as `less` does, and put the cursor on the first entry that starts on screen.
	const pageBy = (delta: number) => {
		const next = scrollBy(source, top, delta, height, rowsOf);
		setTop(next);
		setCursor(visibleRows(source, next, height, rowsOf).find(entry => entry.row === 0)?.card ?? next.card);
	};

	const findFrom = useCallback((from: number, step: 1 | -1, predicate: (entry: TranscriptEntry) => boolean): number | undefined => {
		const count = source.count();
		for (let index = from; index >= 0 && index < count; index += step) {
			const entry = source.entry(index);
			if (entry !== undefined && predicate(entry)) {
				return index;
			}
		}

		return undefined;
	}, [source]);

	const searchNext = useCallback((query: string, step: 1 | -1) => {
		if (query === '') {
			return;
		}

		const needle = query.toLowerCase();
		const found = findFrom(cursor + step, step, entry => entrySearchText(entry).toLowerCase().includes(needle));
		if (found === undefined) {
			setMessage(`no ${step === 1 ? 'later' : 'earlier'} match for "${query}"`);
		} else {
			setMessage(undefined);
			focus(found);
		}
	}, [cursor, findFrom, focus]);

	/** Opens the child session of `entry` when it is a subagent card with one; false otherwise. */
	const openChild = (entry: TranscriptEntry | undefined): boolean => {
		const link = entry === undefined ? undefined : childSessions?.linkOf(entry);
		if (link?.found !== true) {
			return false;
		}

		void childSessions!.open(link.id).then(setNested, (error: unknown) => {
			setMessage(`cannot open child session ${link.id}: ${error instanceof Error ? error.message : String(error)}`);
		});
		return true;
	};

	// Fast key repeat, tmux and pastes deliver several keys in one chunk: each character is a key.
	useKeys(({input, key}) => {
		if (key.paste && !search.editing) {
			// Pasted text is no keys to run: only a search being typed takes it.
			return;
		}

		if (search.editing) {
			if (key.return) {
				setSearch({query: search.query, editing: false});
				searchNext(search.query, 1);
			} else if (key.escape) {
				setSearch({query: '', editing: false});
			} else if (key.backspace || key.delete) {
				setSearch({query: search.query.slice(0, -1), editing: true});
			} else if (!key.ctrl && !key.meta && input !== '') {
				setSearch({query: search.query + input.replaceAll(/\s+/g, ' '), editing: true});
			}

			return;
		}

		if (helpTop !== undefined) {
			const last = Math.max(0, helpList.length - overlayHeight);
			if (key.ctrl && input === 'c') {
				onExit();
			} else if (input === 'j' || key.downArrow) {
				setHelpTop(Math.min(last, helpTop + 1));
			} else if (input === 'k' || key.upArrow) {
				setHelpTop(Math.max(0, helpTop - 1));
			} else {
				// Any other key closes the help, q and Esc included: they never quit from here.
				setHelpTop(undefined);
			}

			return;
		}

		if (damageTop !== undefined) {
			const last = lastDamageTop(damageList.length, overlayHeight);
			const scrollTo = (row: number) => {
				setDamageTop(Math.max(0, Math.min(last, row)));
			};

			if (key.ctrl && input === 'c') {
				onExit();
			} else if (input === 'q' || key.escape || input === '!') {
				setDamageTop(undefined);
			} else if (input === 'j' || key.downArrow || key.return) {
				scrollTo(damageTop + 1);
			} else if (input === 'k' || key.upArrow) {
				scrollTo(damageTop - 1);
			} else if (key.pageDown || input === ' ' || (key.ctrl && input === 'f')) {
				scrollTo(damageTop + overlayHeight);
			} else if (key.pageUp || (key.ctrl && input === 'b')) {
				scrollTo(damageTop - overlayHeight);
			} else if (input === 'g' || key.home) {
				scrollTo(0);
			} else if (input === 'G' || key.end) {
				scrollTo(last);
			}

			return;
		}

		setMessage(undefined);
		if (input === '?') {
			setHelpTop(0);
			return;
		}

		if (input === '!') {
			if (damage === undefined || damage.total === 0) {
				setMessage('no damaged lines');
			} else {
				setDamageTop(0);
			}

			return;
		}

		if (input !== 'q' && !key.escape) {
			stick.current = (input === 'G' || key.end === true) && (follow || !source.complete());
		}

		if (input === 'q' || key.escape || (key.ctrl && input === 'c')) {
			onExit();
		} else if (input === 'j' || key.downArrow) {
			focus(cursor + 1);
		} else if (input === 'k' || key.upArrow) {
			focus(cursor - 1);
		} else if (key.pageDown || input === ' ' || (input === 'f' && !key.ctrl) || (key.ctrl && input === 'f')) {
			pageBy(height);
		} else if (key.pageUp || input === 'b' || (key.ctrl && input === 'b')) {
			pageBy(-height);
		} else if (key.ctrl && (input === 'd' || input === 'u')) {
			pageBy((input === 'd' ? 1 : -1) * Math.max(1, Math.floor(height / 2)));
		} else if (input === 'g' || key.home) {
			setTop({card: 0, row: 0});
			setCursor(0);
		} else if (input === 'G' || key.end) {
			setTop(lastPage(source, height, rowsOf));
			setCursor(Math.max(0, source.count() - 1));
		} else if (key.return && childSessions !== undefined && openChild(source.entry(cursor))) {
			// Enter on a subagent card with a child session opened it; `+` still expands every card.
		} else if (key.return) {
			if (source.entry(cursor) !== undefined) {
				const current = expansions.get(cursor) ?? globalExpansion ?? 'bounded';
				expansions.set(cursor, nextExpansion(current));
				refresh();
			}
		} else if (input === '+' || input === '-') {
			expansions.clear();
			setGlobalExpansion(input === '+' ? 'full' : 'summary');
		} else if (input === '/') {
			setSearch({query: '', editing: true});
		} else if (input === 'n' || input === 'N') {
			searchNext(search.query, input === 'n' ? 1 : -1);
		} else if (input === 'e' || input === 'E') {
			const step = input === 'e' ? 1 : -1;
			const found = findFrom(cursor + step, step, isFailedEntry);
			if (found === undefined) {
				setMessage(`no ${step === 1 ? 'later' : 'earlier'} failed card`);
			} else {
				focus(found);
			}
		} else if (input === 'y') {
			const entry = source.entry(cursor);
			if (onCopy === undefined) {
				setMessage('y: copying is not available here');
			} else if (entry !== undefined) {
				// What the entry shows at its expansion: the raw output when a card's full view shows it raw.
				const copy = entryCopy(entry, expansions.get(cursor) ?? globalExpansion ?? 'bounded');
				setMessage(`${onCopy(copy.text)} · ${copy.what}`);
			}
		} else if (input === 'o') {
			const entry = source.entry(cursor);
			if (onOpen === undefined) {
				setMessage('o: opening files is not available here');
			} else if (entry?.entry !== 'card') {
				setMessage('o: only a card has a file to open');
			} else {
				// The editor gets the terminal as a shell would give it: cooked, then the pager takes it back
				// and redraws on its own screen (an editor leaving its alternate screen left the pager's).
				setRawMode(false);
				const outcome = onOpen(entry.card);
				setRawMode(true);
				if (outcome.ran) {
					void writeOutput(stdout, REENTER_ALTERNATE_SCREEN);
					write(REDRAW_SCREEN);
				}

				setMessage(outcome.message);
			}
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

	if (helpTop !== undefined) {
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

	if (damageTop !== undefined && damage !== undefined) {
		const shown = damageList.slice(damageTop, damageTop + overlayHeight);
		const filler = Array.from({length: Math.max(0, overlayHeight - shown.length)}, (): StyledLine => ({spans: []}));
		return (
			<Box flexDirection="column">
				<StyledRows lines={[...shown, ...filler]} />
				<Text inverse wrap="truncate-end">{truncateToWidth(sanitizeInline(damageStatus(damage, damageTop, overlayHeight, damageList.length)), columns).padEnd(Math.min(columns, 400))}</Text>
			</Box>
		);
	}

	const visible = visibleRows(source, top, height, rowsOf);
	const lines = visible.map(entry => {
		const line = entry.card === cursor && entry.row === 0 ? {spans: entry.line.spans.map(span => ({...span, style: {...span.style, ...theme.selected}}))} : entry.line;
		return search.query === '' || search.editing ? line : highlight(line, search.query, theme);
	});
	const padding = Array.from({length: Math.max(0, height - lines.length)}, (): StyledLine => ({spans: []}));
	return (
		<Box flexDirection="column">
			<StyledRows lines={[...lines, ...padding]} />
			{statusLines.map((status, row) => (
				// eslint-disable-next-line react/no-array-index-key
				<Text key={row} inverse={!search.editing} wrap="truncate-end">{truncateToWidth(sanitizeInline(status), columns).padEnd(Math.min(columns, 400))}</Text>
			))}
		</Box>
	);
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
