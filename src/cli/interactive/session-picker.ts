/**
@module `cardterm --resume` without an id, in a terminal: this directory's saved sessions, newest
first, to pick the one to go on with (as Claude Code's and Codex's resume pickers do). Each row
says when, what (its title or first prompt), how much (turns, cards) and its id; ↑/↓ (or k/j) move,
Enter resumes the highlighted session, Esc or Ctrl+C quits without starting. `/` filters the list as
one types (title, first prompt or id, any case; Backspace takes a character back, Esc clears it);
`cardterm sessions --search` searches the sessions' content. Drawn above the first
frame as the endpoint question is (`question-keys.ts`: keys typed before it are not answers).
*/
import {controlSequence, joinOutput, textOutput, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {truncateToWidth} from '../../layout/text/text-width.js';
import type {SessionSummary} from '../../session/store/session-store.js';
import type {CliIo} from '../environment/cli-io.js';
import {minuteOf, sessionCounts} from '../commands/sessions-command.js';
import {arrowAt, readAnswer, type QuestionInput} from './question-keys.js';

/** The highlighted row (of the sessions the filter keeps), the answer once given, and the filter (`/`) being typed or kept. */
export type PickerState = {readonly index: number; readonly answer?: 'pick' | 'quit'; readonly query?: string; readonly typing?: boolean};

/** Rows of sessions on screen at once; the window follows the highlighted one. */
export const PICKER_ROWS = 10;

const HINT = '↑/↓ choose · Enter resume · / filter · Esc quit';

/** The sessions a filter keeps: its text in the title, the first prompt or the id, in any case. */
export function matchingSessions(sessions: readonly SessionSummary[], query: string): readonly SessionSummary[] {
	const needle = query.toLowerCase();
	return needle === '' ? sessions : sessions.filter(session => `${session.title ?? ''}\n${session.prompt ?? ''}\n${session.id}`.toLowerCase().includes(needle));
}

/**
The state after `keys` arrived (one read's worth); `count` says how many sessions a filter keeps
(a number: no filter is typed). Keys after an answer are not read.
*/
export function pickerKeys(state: PickerState, keys: string, count: number | ((query: string) => number)): PickerState {
	const countOf = typeof count === 'number' ? (): number => count : count;
	let {index} = state;
	let query = state.query ?? '';
	let typing = state.typing === true;
	const now = (answer?: 'pick' | 'quit'): PickerState => ({index, ...(answer === undefined ? {} : {answer}), ...(query === '' && !typing ? {} : {query}), ...(typing ? {typing} : {})});
	let at = 0;
	while (at < keys.length) {
		const arrow = arrowAt(keys, at);
		if (arrow !== undefined) {
			index = arrow === 'A' ? Math.max(0, index - 1) : Math.max(0, Math.min(countOf(query) - 1, index + 1));
			at += 3;
			continue;
		}

		const key = String.fromCodePoint(keys.codePointAt(at)!);
		at += key.length;
		if (typing && key !== '\u001B' && key !== '\r' && key !== '\n' && key !== '\u0003' && key !== '\u0004') {
			// The filter takes what is typed; Backspace takes a character back.
			query = key === '\u007F' || key === '\b' ? [...query].slice(0, -1).join('') : (key >= ' ' ? query + key : query);
			index = 0;
			continue;
		}

		if (key === '/' && !typing) {
			typing = true;
			query = '';
			index = 0;
		} else if (typing && key === '\u001B' && !/^[[O][\d;?]*[\u0040-\u007E]/u.test(keys.slice(at))) {
			// Esc while filtering clears the filter (a second Esc quits).
			typing = false;
			query = '';
			index = 0;
		} else if ((key === '\r' || key === '\n') && countOf(query) === 0) {
			// Nothing to resume under this filter.
		} else if (key === 'k' || key === 'j') {
			index = key === 'k' ? Math.max(0, index - 1) : Math.max(0, Math.min(countOf(query) - 1, index + 1));
		} else if (key === '\r' || key === '\n') {
			typing = false;
			return now('pick');
		} else if (key === '\u0003' || key === '\u0004') {
			return now('quit');
		} else if (key === '\u001B') {
			// Esc, unless it starts a sequence (a key we do not use, or a terminal's reply read in the same
			// chunk as an Esc before it): such a sequence is skipped whole.
			const sequence = /^[[O][\d;?]*[\u0040-\u007E]/u.exec(keys.slice(at));
			if (sequence === null) {
				return now('quit');
			}

			at += sequence[0].length;
		}
	}

	return now();
}

/** One session as a row: time, what it was about, its counts and its id, cut to `columns`. */
export function pickerRow(session: SessionSummary, columns: number): string {
	const when = minuteOf(session.createdAt);
	const what = truncateToWidth(sanitizeInline(session.title ?? session.prompt ?? '(no prompt)'), 50);
	return truncateToWidth(`${when}  ${what}  ${sessionCounts(session)}  ${sanitizeInline(session.id)}`, Math.max(10, columns - 3));
}

/**
Asks which of `sessions` (of `cwd`, newest first; at least one) to resume; resolves with it, or
undefined when the person quit (or `signal`, a termination signal, aborted).
*/
export async function pickSession(io: Pick<CliIo, 'write' | 'columns'>, stdin: QuestionInput, sessions: readonly SessionSummary[], cwd: string, signal?: AbortSignal): Promise<SessionSummary | undefined> {
	const columns = Math.max(20, io.columns ?? 80);
	let state: PickerState = {index: 0};
	const visible = (): readonly SessionSummary[] => matchingSessions(sessions, state.query ?? '');
	let drawn = shownRows(sessions.length);
	const draw = async (): Promise<void> => io.write(joinOutput([textOutput(`\nResume a session of ${sanitizeInline(cwd)} (${sessions.length === 1 ? '1 session' : `${sessions.length} sessions`}):\n`), rows(visible(), state, columns)]));
	const answered = await readAnswer(stdin, draw, keys => {
		const before = state;
		state = pickerKeys(state, keys, query => matchingSessions(sessions, query).length);
		if (state.index !== before.index || state.answer !== undefined || state.query !== before.query || state.typing !== before.typing) {
			const shown = visible();
			void io.write(joinOutput([controlSequence(`\u001B[${drawn}A\r\u001B[J`), rows(shown, state, columns)]));
			drawn = shownRows(shown.length);
		}

		return state.answer !== undefined;
	}, signal);
	return answered && state.answer === 'pick' ? visible()[state.index] : undefined;
}

/** The rows that take the list's place: the window of sessions and the hint (each exactly one row); a given answer alone. */
function rows(sessions: readonly SessionSummary[], state: PickerState, columns: number): TerminalOutput {
	if (state.answer !== undefined) {
		const said = state.answer === 'pick' ? `resuming ${sanitizeInline(sessions[state.index]!.id)}` : 'quit';
		return joinOutput([controlSequence('\u001B[1m'), textOutput(`› ${said}`), controlSequence('\u001B[0m\n')]);
	}

	const first = Math.min(Math.max(0, state.index - Math.floor(PICKER_ROWS / 2)), Math.max(0, sessions.length - PICKER_ROWS));
	const shown = sessions.slice(first, first + PICKER_ROWS);
	const filter = state.query === undefined ? HINT : `/${sanitizeInline(state.query)}${state.typing === true ? '▏' : ''} · ${sessions.length === 1 ? '1 session' : `${sessions.length} sessions`} · Esc ${state.typing === true ? 'clears' : 'quits'}`;
	return joinOutput([
		...(shown.length === 0 ? [textOutput('  no session matches\n')] : shown.map((session, offset) => {
			const row = pickerRow(session, columns);
			return first + offset === state.index ? joinOutput([controlSequence('\u001B[1m'), textOutput(`› ${row}`), controlSequence('\u001B[0m\n')]) : textOutput(`  ${row}\n`);
		})),
		controlSequence('\u001B[2m'), textOutput(truncateToWidth(filter, columns - 1)), controlSequence('\u001B[0m\n'),
	]);
}

/** Rows the list takes on screen: the window (or its "no session matches" row) and the hint. */
function shownRows(count: number): number {
	return Math.max(1, Math.min(count, PICKER_ROWS)) + 1;
}
