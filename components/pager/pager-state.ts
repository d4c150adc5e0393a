/**
@module The pager's state as a pure reducer: the cursor, the scroll position, each entry's expansion,
the search, the open view (the entries, the `?` help, the `!` damaged lines) and the status message.
`reducePager(state, action, context)` reads the source and lays entries out through its context and
writes nothing. Copying, the editor, opening a child session and quitting belong to the view:
`keyEffect` says which of them a key asks for, and the view runs it.
*/
import type {Expansion} from '../../src/layout/text/layout-options.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';
import {assertNever} from '../../src/presentation/assert-never.js';
import type {TranscriptEntry} from '../../src/presentation/entry.js';
import type {Card} from '../../src/presentation/card.js';
import type {CardUndoPreview} from '../../src/host/session-undo.js';
import type {EntrySource} from '../../src/transcript/entry-source.js';
import type {KeyPress} from '../input/keys.js';
import {entrySearchText, isFailedEntry} from './card-text.js';
import {commandOf, type PagerCommand} from './pager-keys.js';
import {lastPage, nextExpansion, scrollBy, visibleRows, type CardRows, type PagerTop} from './pager-view.js';
import {modelViewOn} from './model-view.js';
import {compactionTarget, entryHolding} from './seq-links.js';

/**
A list over the entries and its top row: the `?` help, the `!` damaged lines, or the preview of `u`
on a card (its undo cards, or why it cannot be undone; `undefined` while it is read).
*/
type PagerOverlay =
	| {readonly kind: 'help' | 'damage'; readonly top: number}
	| {readonly kind: 'undo'; readonly top: number; readonly callId: string; readonly preview: CardUndoPreview | undefined};

/** The search: its query, whether it is being typed, and whether the last step went round an end. */
type PagerSearch = {readonly query: string; readonly editing: boolean; readonly wrapped: boolean};

export type PagerState = {
	readonly cursor: number;
	readonly top: PagerTop;
	/** What Enter chose per entry, over `expansion` (what `+`/`-` chose for every entry). */
	readonly expansions: ReadonlyMap<number, Expansion>;
	readonly expansion: Expansion | undefined;
	readonly search: PagerSearch;
	/** Said in the status line instead of the position, until the next key. */
	readonly message: string | undefined;
	readonly overlay: PagerOverlay | undefined;
	/** Keep to the newest entries while the source grows, until the user moves. */
	readonly stick: boolean;
	/** The source's numbering the positions above are in (`EntrySource.generation`). */
	readonly generation: number;
	/** "What the model knew" (`c`, model-view.ts): as toggled; `undefined` until then (on for a log with a compaction). */
	readonly modelView: boolean | undefined;
};

/** An entry's rows at an expansion (undefined: the layout's default), with the model's view or without, as the view draws them. */
export type EntryLayout = (entry: TranscriptEntry, expansion: Expansion | undefined, modelView: boolean) => readonly StyledLine[];

/** What the reducer reads besides the state: the source, the layout and the screen as the view last drew it. */
export type PagerContext = {
	readonly source: EntrySource;
	readonly layout: EntryLayout;
	/** Rows of entries on screen (the frame without its status rows). */
	readonly height: number;
	/** Rows of an overlay's list (the frame without its one status row). */
	readonly overlayHeight: number;
	/** Watch mode: the source is live even once complete. */
	readonly follow: boolean;
	/** Rows of the `?` list and of the `!` list as drawn now. */
	readonly helpRows: number;
	readonly damageRows: number;
	/** Damaged lines the source counted. */
	readonly damaged: number;
	/** Whether `u` can take a card back here (a live session's pager); a replay is read-only. */
	readonly undo: boolean;
	/** Rows of the `u` preview as drawn now. */
	readonly undoRows: number;
	/** The id of the child session Enter opens on this entry (a subagent card whose child was found). */
	readonly childOf: (entry: TranscriptEntry) => string | undefined;
};

export type PagerAction =
	/** A key of the table (or none: a key the table does not bind) pressed outside a search being typed. */
	| {readonly type: 'key'; readonly command: PagerCommand | undefined}
	| {readonly type: 'search-type'; readonly text: string}
	| {readonly type: 'search-erase'}
	| {readonly type: 'search-commit'}
	| {readonly type: 'search-cancel'}
	/** What an effect reports (`copied …`, `opened …`). */
	| {readonly type: 'say'; readonly message: string}
	/** The preview of `u` on the card `callId` was read. */
	| {readonly type: 'undo-previewed'; readonly callId: string; readonly preview: CardUndoPreview}
	/** The source renumbered its entries (`generation` changed). */
	| {readonly type: 'renumbered'}
	/** The source grew, or the screen changed size. */
	| {readonly type: 'grew'};

/** What the view does for a key, outside the reducer. */
export type PagerEffect =
	| {readonly type: 'quit'}
	| {readonly type: 'copy'; readonly entry: TranscriptEntry | undefined; readonly expansion: Expansion}
	| {readonly type: 'open'; readonly entry: TranscriptEntry | undefined}
	/** Write the session's page to share (`cardterm export`'s). */
	| {readonly type: 'export'}
	| {readonly type: 'open-child'; readonly id: string}
	/** Read what `u` on the card would take back. */
	| {readonly type: 'undo-preview'; readonly callId: string}
	/** The preview was confirmed: take the card back. */
	| {readonly type: 'undo-confirm'; readonly callId: string};

/** The state a pager opens in: on the newest entries (and keeping to them) or on the first. */
export function initialPagerState(start: 'end' | 'start', source: EntrySource, height: number, layout: EntryLayout): PagerState {
	const state: PagerState = {
		cursor: 0,
		top: {card: 0, row: 0},
		expansions: new Map(),
		expansion: undefined,
		search: {query: '', editing: false, wrapped: false},
		message: undefined,
		overlay: undefined,
		stick: start === 'end',
		generation: source.generation?.() ?? 0,
		modelView: undefined,
	};
	return start === 'end' ? {...state, cursor: Math.max(0, source.count() - 1), top: lastPage(source, height, entryRows(state, layout, source))} : state;
}

/** Each entry's rows at the expansion the state chose for it, in the model's view when it is on. */
export function entryRows(state: Pick<PagerState, 'expansions' | 'expansion' | 'modelView'>, layout: EntryLayout, source: EntrySource): CardRows {
	const view = modelViewOn(state.modelView, source);
	return (entry, index) => layout(entry, state.expansions.get(index) ?? state.expansion, view);
}

/** What a key press means in `state`: typed into a search being typed, else its table command; a paste is no keys. */
export function keyAction(press: KeyPress, state: PagerState): PagerAction | undefined {
	const {input, key} = press;
	if (state.search.editing) {
		if (key.return) {
			return {type: 'search-commit'};
		}

		if (key.escape) {
			return {type: 'search-cancel'};
		}

		if (key.backspace || key.delete) {
			return {type: 'search-erase'};
		}

		return !key.ctrl && !key.meta && input !== '' ? {type: 'search-type', text: input} : undefined;
	}

	return key.paste ? undefined : {type: 'key', command: commandOf(press)};
}

/** The effect of `command` pressed in `state`: Ctrl+C quits from anywhere; q, Esc, y, o and Enter on a child act on the entries only. */
export function keyEffect(state: PagerState, command: PagerCommand | undefined, context: PagerContext): PagerEffect | undefined {
	if (command === 'quit') {
		return {type: 'quit'};
	}

	const {overlay} = state;
	if (overlay?.kind === 'undo') {
		return overlay.preview?.ok === true && (command === 'copy' || command === 'cycle') ? {type: 'undo-confirm', callId: overlay.callId} : undefined;
	}

	if (overlay !== undefined) {
		return undefined;
	}

	const entry = () => context.source.entry(state.cursor);
	switch (command) {
		case 'close': {
			return {type: 'quit'};
		}

		case 'copy': {
			return {type: 'copy', entry: entry(), expansion: state.expansions.get(state.cursor) ?? state.expansion ?? 'bounded'};
		}

		case 'open': {
			return {type: 'open', entry: entry()};
		}

		case 'export': {
			return {type: 'export'};
		}

		case 'undo': {
			const card = undoableCard(entry(), context);
			return typeof card === 'string' ? undefined : {type: 'undo-preview', callId: card.callId};
		}

		case 'cycle': {
			const under = entry();
			const id = under === undefined ? undefined : context.childOf(under);
			return id === undefined ? undefined : {type: 'open-child', id};
		}

		default: {
			return undefined;
		}
	}
}

export function reducePager(state: PagerState, action: PagerAction, context: PagerContext): PagerState {
	switch (action.type) {
		case 'key': {
			if (state.overlay?.kind === 'help') {
				return onHelp(state, state.overlay, action.command, context);
			}

			if (state.overlay?.kind === 'undo') {
				return onUndo(state, state.overlay, action.command, context);
			}

			return state.overlay?.kind === 'damage' ? onDamage(state, state.overlay, action.command, context) : onEntries(state, action.command, context);
		}

		case 'search-type': {
			return {...state, search: {...state.search, query: state.search.query + action.text.replaceAll(/\s+/g, ' ')}};
		}

		case 'search-erase': {
			return {...state, search: {...state.search, query: Array.from(state.search.query).slice(0, -1).join('')}};
		}

		case 'search-commit': {
			return searchNext({...state, search: {...state.search, editing: false}}, 1, context);
		}

		case 'search-cancel': {
			return {...state, search: {query: '', editing: false, wrapped: false}};
		}

		case 'say': {
			return {...state, message: action.message};
		}

		case 'undo-previewed': {
			const {overlay} = state;
			return overlay?.kind === 'undo' && overlay.callId === action.callId && overlay.preview === undefined ? {...state, overlay: {...overlay, preview: action.preview}} : state;
		}

		case 'renumbered': {
			return renumbered(state, context);
		}

		case 'grew': {
			return toNewest(state, context);
		}

		default: {
			return assertNever(action, 'pager action');
		}
	}
}

/** The `?` list: j/k (and the arrows) scroll it, Ctrl+C is the view's, any other key closes it — q and Esc too, which never quit from here. */
function onHelp(state: PagerState, overlay: PagerOverlay, command: PagerCommand | undefined, context: PagerContext): PagerState {
	switch (command) {
		case 'quit': {
			return state;
		}

		case 'next':
		case 'previous': {
			return scrollOverlay(state, overlay, overlay.top + (command === 'next' ? 1 : -1), context.helpRows, context);
		}

		default: {
			return {...state, overlay: undefined};
		}
	}
}

/**
The `u` preview: y or Enter takes the card back (the view runs it, keyEffect), n, Esc or q keep it,
j/k and the page keys scroll it; a refusal (or a preview still being read) closes on any key but the
movement ones. Ctrl+C is the view's.
*/
function onUndo(state: PagerState, overlay: PagerOverlay & {readonly kind: 'undo'}, command: PagerCommand | undefined, context: PagerContext): PagerState {
	const to = (row: number) => scrollOverlay(state, overlay, row, context.undoRows, context);
	const page = context.overlayHeight;
	switch (command) {
		case 'quit': {
			return state;
		}

		case 'next':
		case 'previous': {
			return to(overlay.top + (command === 'next' ? 1 : -1));
		}

		case 'page-down':
		case 'page-up': {
			return to(overlay.top + (command === 'page-down' ? page : -page));
		}

		case 'copy':
		case 'cycle': {
			if (overlay.preview?.ok === true) {
				return {...state, overlay: undefined, message: 'undoing the card… (after the running work, if any)'};
			}

			return overlay.preview === undefined ? state : {...state, overlay: undefined};
		}

		case 'close':
		case 'next-match': {
			return {...state, overlay: undefined, message: overlay.preview?.ok === false ? undefined : 'undo cancelled: nothing was changed'};
		}

		default: {
			return overlay.preview?.ok === false ? {...state, overlay: undefined} : state;
		}
	}
}

/** The card under the cursor that `u` can take back, or what `u` says instead. */
function undoableCard(entry: TranscriptEntry | undefined, context: PagerContext): Card | string {
	if (!context.undo) {
		return 'u: this pager is read-only (a replay of the log); take changes back in the live session: u in its pager (Ctrl+O), or /undo';
	}

	if (entry?.entry !== 'card' || entry.card.callView.card !== 'diff') {
		return 'u: only a diff card (an edit or a write) can be undone alone; /undo takes back a turn';
	}

	return entry.card;
}

/** The `!` list takes the entries' movement keys, as rows (Enter is a row down, as in `less`); q, Esc and `!` close it. */
function onDamage(state: PagerState, overlay: PagerOverlay, command: PagerCommand | undefined, context: PagerContext): PagerState {
	const page = context.overlayHeight;
	const to = (row: number) => scrollOverlay(state, overlay, row, context.damageRows, context);
	switch (command) {
		case 'close':
		case 'damage': {
			return {...state, overlay: undefined};
		}

		case 'next':
		case 'cycle': {
			return to(overlay.top + 1);
		}

		case 'previous': {
			return to(overlay.top - 1);
		}

		case 'page-down':
		case 'page-up': {
			return to(overlay.top + (command === 'page-down' ? page : -page));
		}

		case 'half-page-down':
		case 'half-page-up': {
			return to(overlay.top + (command === 'half-page-down' ? 1 : -1) * Math.max(1, Math.floor(page / 2)));
		}

		case 'first': {
			return to(0);
		}

		case 'last': {
			return to(context.damageRows);
		}

		default: {
			return state;
		}
	}
}

/** `overlay` with its top at `row`, kept between the first row and the one that shows the last page of `rows`. */
function scrollOverlay(state: PagerState, overlay: PagerOverlay, row: number, rows: number, context: PagerContext): PagerState {
	const last = Math.max(0, rows - context.overlayHeight);
	return {...state, overlay: {...overlay, top: Math.max(0, Math.min(last, row))}};
}

/**
The entries: every key clears the message (and the wrapped note); a key that moves anywhere but to
the end of a live source stops keeping to the newest entries.
*/
function onEntries(state: PagerState, command: PagerCommand | undefined, context: PagerContext): PagerState {
	const {source, height} = context;
	const cleared: PagerState = {...state, message: undefined, search: state.search.wrapped ? {...state.search, wrapped: false} : state.search};
	const moved: PagerState = {...cleared, stick: command === 'last' && (context.follow || !source.complete())};
	switch (command) {
		case undefined:
		case 'copy':
		case 'open': {
			return moved;
		}

		case 'export': {
			return {...cleared, message: 'exporting…'};
		}

		case 'undo': {
			const card = undoableCard(source.entry(moved.cursor), context);
			return typeof card === 'string' ? {...moved, message: card} : {...moved, overlay: {kind: 'undo', top: 0, callId: card.callId, preview: undefined}};
		}

		case 'close':
		case 'quit': {
			return cleared;
		}

		case 'help': {
			return {...cleared, overlay: {kind: 'help', top: 0}};
		}

		case 'damage': {
			return context.damaged === 0 ? {...cleared, message: 'no damaged lines'} : {...cleared, overlay: {kind: 'damage', top: 0}};
		}

		case 'next':
		case 'previous': {
			return focus(moved, moved.cursor + (command === 'next' ? 1 : -1), context);
		}

		case 'page-down':
		case 'page-up': {
			return pageBy(moved, command === 'page-down' ? height : -height, context);
		}

		case 'half-page-down':
		case 'half-page-up': {
			return pageBy(moved, (command === 'half-page-down' ? 1 : -1) * Math.max(1, Math.floor(height / 2)), context);
		}

		case 'first': {
			return {...moved, top: {card: 0, row: 0}, cursor: 0};
		}

		case 'last': {
			return {...moved, top: lastPage(source, height, entryRows(moved, context.layout, source)), cursor: Math.max(0, source.count() - 1)};
		}

		case 'cycle': {
			return cycle(moved, context);
		}

		case 'expand-all':
		case 'collapse-all': {
			return {...moved, expansions: new Map(), expansion: command === 'expand-all' ? 'full' : 'summary'};
		}

		case 'search': {
			return {...moved, search: {query: '', editing: true, wrapped: false}};
		}

		case 'next-match':
		case 'previous-match': {
			return searchNext(moved, command === 'next-match' ? 1 : -1, context);
		}

		case 'model-view': {
			return toggleModelView(moved, context);
		}

		case 'follow-link': {
			const entry = source.entry(moved.cursor);
			const target = entry?.entry === 'compaction' ? compactionTarget(source, entry) : 'l: only a compaction card links to entries (the ones it summarised or pruned)';
			return typeof target === 'string' ? {...moved, message: target} : focus(moved, target, context);
		}

		case 'next-failure':
		case 'previous-failure': {
			const step = command === 'next-failure' ? 1 : -1;
			const found = findFrom(source, moved.cursor + step, step, isFailedEntry);
			return found === undefined ? {...moved, message: `no ${step === 1 ? 'later' : 'earlier'} failed card`} : focus(moved, found, context);
		}

		default: {
			return assertNever(command, 'pager command');
		}
	}
}

/** The cursor on entry `index` (clamped), scrolled to its first row unless that row is on screen. */
function focus(state: PagerState, index: number, context: PagerContext): PagerState {
	const {source, height} = context;
	const count = source.count();
	if (count === 0) {
		return state;
	}

	const target = Math.max(0, Math.min(count - 1, index));
	const rows = entryRows(state, context.layout, source);
	const shown = visibleRows(source, state.top, height, rows).some(entry => entry.card === target && entry.row === 0);
	return {...state, cursor: target, top: shown ? state.top : scrollBy(source, {card: target, row: 0}, 0, height, rows)};
}

/** Scrolled by `delta` rows, as `less` does, with the cursor on the first entry that starts on screen. */
function pageBy(state: PagerState, delta: number, context: PagerContext): PagerState {
	const {source, height} = context;
	const rows = entryRows(state, context.layout, source);
	const top = scrollBy(source, state.top, delta, height, rows);
	return {...state, top, cursor: visibleRows(source, top, height, rows).find(entry => entry.row === 0)?.card ?? top.card};
}

/** Enter: the entry under the cursor at its next expansion; nothing here when Enter opens its child session (keyEffect). */
function cycle(state: PagerState, context: PagerContext): PagerState {
	const entry = context.source.entry(state.cursor);
	if (entry === undefined || context.childOf(entry) !== undefined) {
		return state;
	}

	const current = state.expansions.get(state.cursor) ?? state.expansion ?? 'bounded';
	return {...state, expansions: new Map(state.expansions).set(state.cursor, nextExpansion(current))};
}

/**
The next match of the committed search in `step`'s direction. Past the last (or first) entry it goes
on from the other end, as `less` and vim do, and says so; the cursor's own entry is tried last.
*/
function searchNext(state: PagerState, step: 1 | -1, context: PagerContext): PagerState {
	const {query} = state.search;
	if (query === '') {
		return state;
	}

	const {source} = context;
	const seq = /^#(\d{1,15})$/.exec(query.trim());
	if (seq !== null) {
		const index = entryHolding(source, Number(seq[1]));
		return index === undefined ? {...state, message: `no entry holds log seq ${seq[1]}`} : focus({...state, message: undefined}, index, context);
	}

	const needle = query.toLowerCase();
	const count = source.count();
	for (let distance = 1; distance <= count; distance++) {
		const index = (((state.cursor + step * distance) % count) + count) % count;
		const entry = source.entry(index);
		if (entry !== undefined && entrySearchText(entry).toLowerCase().includes(needle)) {
			const wrapped = step === 1 ? index <= state.cursor : index >= state.cursor;
			return focus({...state, message: undefined, search: {...state.search, wrapped}}, index, context);
		}
	}

	return {...state, message: `no match for "${query}"`};
}

/** `c`: the model's view on or off; the cursor's entry stays on screen (the rows change: a gutter, ledger rows). */
function toggleModelView(state: PagerState, context: PagerContext): PagerState {
	const {source} = context;
	if (source.context?.() === undefined) {
		return {...state, message: 'c: this view has no record of the model\'s context'};
	}

	const on = !modelViewOn(state.modelView, source);
	const toggled: PagerState = {...state, modelView: on, top: {card: state.top.card, row: 0}, message: on ? 'what the model knew at the selected entry\'s step: │ summarised away · ┆ result pruned · ▸ tokens each step sent' : 'c: the model\'s view is off'};
	return focus(toggled, toggled.cursor, context);
}

/** The first entry from `from` in `step`'s direction that `predicate` takes, if any. */
function findFrom(source: EntrySource, from: number, step: 1 | -1, predicate: (entry: TranscriptEntry) => boolean): number | undefined {
	const count = source.count();
	for (let index = from; index >= 0 && index < count; index += step) {
		const entry = source.entry(index);
		if (entry !== undefined && predicate(entry)) {
			return index;
		}
	}

	return undefined;
}

/**
The source renumbered its entries (the full index replacing the tail window): the cursor, the scroll
position and per-entry expansions stay on the same entries. When the cursor's entry is gone (a watched
log was replaced) the pager shows the new entries' end and keeps to it.
*/
function renumbered(state: PagerState, context: PagerContext): PagerState {
	const {source} = context;
	const from = state.generation;
	const generation = source.generation?.() ?? 0;
	if (generation === from) {
		return state;
	}

	const now = {...state, generation};
	if (state.stick || source.moved === undefined) {
		return now;
	}

	const map = (index: number) => source.moved!(index, from);
	const cursor = map(state.cursor);
	if (cursor === undefined) {
		const reset: PagerState = {...now, stick: true, expansions: new Map()};
		return {...reset, top: lastPage(source, context.height, entryRows(reset, context.layout, source)), cursor: Math.max(0, source.count() - 1)};
	}

	const expansions = new Map<number, Expansion>();
	for (const [index, expansion] of state.expansions) {
		const moved = map(index);
		if (moved !== undefined) {
			expansions.set(moved, expansion);
		}
	}

	const card = map(state.top.card);
	return {...now, cursor, top: card === undefined ? state.top : {card, row: state.top.row}, expansions};
}

/** While keeping to the newest entries, the last page and the newest entry (the same state when already there). */
function toNewest(state: PagerState, context: PagerContext): PagerState {
	const {source} = context;
	const count = source.count();
	if (count === 0 || !state.stick) {
		return state;
	}

	const top = lastPage(source, context.height, entryRows(state, context.layout, source));
	const cursor = count - 1;
	return top.card === state.top.card && top.row === state.top.row && cursor === state.cursor ? state : {...state, top, cursor};
}
