import React, {useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState} from 'react';
import {Box, Text, useStdout} from 'ink';
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
import {useClock} from './hooks/use-clock.js';
import {useKeys} from './hooks/use-keys.js';
import {useShrinkGuard, useTerminalSize} from './hooks/use-terminal-size.js';
import {entryCopyText, entrySearchText, isFailedEntry} from './pager/card-text.js';
import {damageNote, damageRows, damageStatus, lastDamageTop} from './pager/damage-list.js';
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
	/** Open a file location in $EDITOR; returns a message for the status line. */
	readonly onOpen?: (card: Card) => string;
	/** Child sessions of subagent cards: a dim row under each such card; Enter on one opens its child in a nested pager (`q` comes back). */
	readonly childSessions?: ChildSessionLinks;
};

/**
The full-screen pager: a card cursor over a virtualised list, per-card expansion, search, jumps
between failures, and the list of the log's damaged lines (`!`). It is `rows − 1` tall (one status
row included): on ink 6.8 a frame as tall as the terminal clears the user's scrollback. Idle, it
schedules nothing: the clock ticks only while a card runs in a live source.
*/
export function Pager({source, theme, title, now = Date.now, sessionCwd, start = 'end', follow = false, onExit, onCopy, onOpen, childSessions}: Props) {
	const {columns, rows} = useTerminalSize();
	const height = Math.max(1, rows - 2);
	// The frame on screen is `height` rows of cards and one status row.
	const heightRef = useRef(height + 1);
	heightRef.current = height + 1;
	const frameHeight = useCallback(() => heightRef.current, []);
	useShrinkGuard(frameHeight);
	const [, refresh] = useReducer((value: number) => value + 1, 0);
	const [expansions] = useState(() => new Map<number, Expansion>());
	const [globalExpansion, setGlobalExpansion] = useState<Expansion | undefined>();
	const [cursor, setCursor] = useState(0);
	const [top, setTop] = useState<PagerTop>({card: 0, row: 0});
	const [search, setSearch] = useState<{readonly query: string; readonly editing: boolean}>({query: '', editing: false});
	const [message, setMessage] = useState<string | undefined>();
	// The damaged-lines list's top row while it is open.
	const [damageTop, setDamageTop] = useState<number | undefined>();
	const opened = useRef(false);
	// Stay at the end while the source grows (indexing or following), until the user navigates.
	const stick = useRef(start === 'end');
	// Running cards tick their elapsed time once a second, only while the source is live.
	const time = useClock((follow || !source.complete()) && (source.counts?.().running ?? 0) > 0, now);

	useEffect(() => source.subscribe?.(refresh), [source]);
	useEffect(() => childSessions?.subscribe(refresh), [childSessions]);
	// A subagent's child session, open in a nested pager over this one.
	const [nested, setNested] = useState<OpenedChild | undefined>();

	const base = useMemo((): LayoutOptions => ({width: columns, theme, now: time, ...(sessionCwd === undefined ? {} : {sessionCwd})}), [columns, theme, time, sessionCwd]);
	const rowsOf = useCallback((entry: TranscriptEntry, index: number) => {
		const rows = layoutEntry(entry, pagerLayoutOptions(base, expansions.get(index), globalExpansion));
		const link = childSessions?.linkOf(entry);
		return link === undefined ? rows : [...rows, childSessionRow(link, theme, columns, link.found ? '⏎ opens it' : undefined)];
	}, [base, expansions, globalExpansion, childSessions, theme, columns]);

	// Open on the newest cards, and keep to them while the source grows and the user has not moved.
	const count = source.count();
	const generation = source.generation?.() ?? 0;
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

	const damage = source.damage?.();
	const damageList = useMemo(() => (damageTop === undefined || damage === undefined ? [] : damageRows(damage, columns, theme)),
		// The list only grows (or starts over at 0): its count tells a change.
		[damageTop === undefined, damage, damage?.total, columns, theme]);

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

		if (damageTop !== undefined) {
			const last = lastDamageTop(damageList.length, height);
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
				scrollTo(damageTop + height);
			} else if (key.pageUp || (key.ctrl && input === 'b')) {
				scrollTo(damageTop - height);
			} else if (input === 'g' || key.home) {
				scrollTo(0);
			} else if (input === 'G' || key.end) {
				scrollTo(last);
			}

			return;
		}

		setMessage(undefined);
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
		} else if (key.pageDown || input === ' ' && key.shift || (key.ctrl && input === 'f')) {
			const next = scrollBy(source, top, height, height, rowsOf);
			setTop(next);
			setCursor(visibleRows(source, next, height, rowsOf).find(entry => entry.row === 0)?.card ?? next.card);
		} else if (key.pageUp || (key.ctrl && input === 'b')) {
			const next = scrollBy(source, top, -height, height, rowsOf);
			setTop(next);
			setCursor(visibleRows(source, next, height, rowsOf).find(entry => entry.row === 0)?.card ?? next.card);
		} else if (input === 'g' || key.home) {
			setTop({card: 0, row: 0});
			setCursor(0);
		} else if (input === 'G' || key.end) {
			setTop(lastPage(source, height, rowsOf));
			setCursor(Math.max(0, source.count() - 1));
		} else if (key.return && childSessions !== undefined && openChild(source.entry(cursor))) {
			// Enter on a subagent card with a child session opened it; space still expands the card.
		} else if (key.return || input === ' ') {
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
			if (entry !== undefined && onCopy !== undefined) {
				// What the entry shows at its expansion: the raw output when a card's full view shows it raw.
				setMessage(onCopy(entryCopyText(entry, expansions.get(cursor) ?? globalExpansion ?? 'bounded')));
			}
		} else if (input === 'o') {
			const entry = source.entry(cursor);
			if (entry?.entry === 'card' && onOpen !== undefined) {
				setMessage(onOpen(entry.card));
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

	if (damageTop !== undefined && damage !== undefined) {
		const shown = damageList.slice(damageTop, damageTop + height);
		const filler = Array.from({length: Math.max(0, height - shown.length)}, (): StyledLine => ({spans: []}));
		return (
			<Box flexDirection="column">
				<StyledRows lines={[...shown, ...filler]} />
				<Text inverse wrap="truncate-end">{truncateToWidth(sanitizeInline(damageStatus(damage, damageTop, height, damageList.length)), columns).padEnd(Math.min(columns, 400))}</Text>
			</Box>
		);
	}

	const visible = visibleRows(source, top, height, rowsOf);
	const lines = visible.map(entry => {
		const line = entry.card === cursor && entry.row === 0 ? {spans: entry.line.spans.map(span => ({...span, style: {...span.style, ...theme.selected}}))} : entry.line;
		return search.query === '' || search.editing ? line : highlight(line, search.query, theme);
	});
	const padding = Array.from({length: Math.max(0, height - lines.length)}, (): StyledLine => ({spans: []}));
	const status = search.editing ? `/${search.query}` : (message ?? statusText(source, cursor, source.label?.() ?? title, source.counts?.(), damageNote(damage)));
	return (
		<Box flexDirection="column">
			<StyledRows lines={[...lines, ...padding]} />
			<Text inverse={!search.editing} wrap="truncate-end">{truncateToWidth(sanitizeInline(status), columns).padEnd(Math.min(columns, 400))}</Text>
		</Box>
	);
}

function statusText(source: EntrySource, cursor: number, title: string, counts: OutcomeCounts | undefined, damage: string | undefined): string {
	const count = source.count();
	const position = count === 0 ? 'empty' : `${cursor + 1}/${count}`;
	const progress = source.progress?.();
	const index = source.complete() ? '' : (progress === undefined ? ' · reading…' : ` · indexing ${Math.round(progress * 100)}%`);
	const outcomes = counts === undefined ? '' : outcomeTally(counts, ' ');
	const tally = outcomes === '' ? '' : ` · ${outcomes}`;
	// Damage comes first: on a narrow terminal the rest of the line is cut.
	return `${position}${damage === undefined ? '' : ` · ${damage}`}${tally} · ${title}${index} · j/k move  ⏎ expand  +/- all  / search  e/E failures  y copy  o open  q quit`;
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
