/**
@module `layoutEntry`: any transcript entry as styled rows, through one exhaustive switch (a new
entry kind fails to compile here until it has a layout). Cards go to `layoutCard` and its cache;
the other kinds are cached per entry object × width × expansion × theme.
*/
import {assertNever} from '../../presentation/assert-never.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import {layoutAssistantEntry} from './assistant-entry.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {layoutCard} from '../cards/layout-card.js';
import {layoutCompactionEntry} from './compaction-entry.js';
import {layoutNoticeEntry} from './notice-entry.js';
import type {StyledLine} from '../text/styled-line.js';
import {layoutTodoEntry} from './todo-entry.js';
import {layoutTurnEntry} from './turn-entry.js';
import {layoutUserEntry} from './user-entry.js';

const cache = new WeakMap<object, Map<string, readonly StyledLine[]>>();

/** Rows of any entry at `options` (frozen, shared between calls with equal inputs). */
export function layoutEntry(entry: TranscriptEntry, options: LayoutOptions): StyledLine[] {
	if (entry.entry === 'card') {
		return layoutCard(entry.card, options);
	}

	if (options.width <= 0) {
		return [];
	}

	if (options.cache === false) {
		return Object.freeze(layoutMessage(entry, options)) as StyledLine[];
	}

	// `liveRows` changes only a streaming answer's rows.
	const live = entry.entry === 'assistant' && entry.streaming ? options.liveRows ?? '' : '';
	const key = `${options.width}\u0000${options.expansion ?? ''}\u0000${options.theme.name}\u0000${live}`;
	let byOptions = cache.get(entry);
	const hit = byOptions?.get(key);
	if (hit !== undefined) {
		return hit as StyledLine[];
	}

	const lines = Object.freeze(layoutMessage(entry, options));
	if (byOptions === undefined) {
		byOptions = new Map();
		cache.set(entry, byOptions);
	}

	byOptions.set(key, lines);
	return lines as StyledLine[];
}

function layoutMessage(entry: Exclude<TranscriptEntry, {entry: 'card'}>, options: LayoutOptions): StyledLine[] {
	switch (entry.entry) {
		case 'user': {
			return layoutUserEntry(entry, options);
		}

		case 'assistant': {
			return layoutAssistantEntry(entry, options);
		}

		case 'turn': {
			return layoutTurnEntry(entry, options);
		}

		case 'notice': {
			return layoutNoticeEntry(entry, options);
		}

		case 'todo': {
			return layoutTodoEntry(entry, options);
		}

		case 'compaction': {
			return layoutCompactionEntry(entry, options);
		}

		default: {
			return assertNever(entry, 'layoutEntry');
		}
	}
}
