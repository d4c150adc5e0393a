import {homedir} from 'node:os';
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {formatDuration, formatElapsed, formatUsage} from '../src/layout/text/format.js';
import {displayWidth, truncateToWidth} from '../src/layout/text/text-width.js';
import {outcomeTally} from '../src/presentation/card-outcome.js';
import type {RetryWait, TurnProgress} from '../src/session/fold/turn-progress.js';
import {fitFacts, type Fact} from './fit-facts.js';
import type {LiveSnapshot} from './session-model.js';

type Props = {
	readonly cwd: string;
	readonly sessionId: string;
	readonly snapshot: LiveSnapshot;
	readonly width: number;
	/** A transient hint (e.g. "press Ctrl+C again to exit"). */
	readonly hint?: string;
	/** The clock, for a running turn's elapsed time and a retry's countdown (default: the turn's start). */
	readonly now?: number;
};

/** Columns a retry's reason may take on the status row (the notice in the scrollback has it whole). */
const RETRY_REASON_COLUMNS = 48;

/**
A silence of the model this long is said (`waiting for the model · no data for 12s`): a normal first
token comes within a few seconds, and from here on a person wonders whether anything is happening
(the stream is cancelled and retried at the stall timeout, 45 s by default).
*/
const WAITING_NOTICE_MS = 10_000;

/**
A model turn's parts of the status row: a retry's countdown (`retrying in 3s (attempt 2 of 5): …`)
while its wait lasts, or the model's silence once it is long (`waiting for the model · no data for
25s`), then the turn's elapsed time, its tokens so far and the latency to the first token.
*/
function turnParts(turn: TurnProgress, now: number): {readonly retry?: readonly [countdown: string, attempt: string, reason: string]; readonly waiting?: string; readonly elapsed: string; readonly usage?: string; readonly latency?: string} {
	const {retry, usage} = turn;
	const waiting = retry !== undefined && now < retry.startsAt;
	const silence = turn.lastDataAt === undefined || waiting ? 0 : now - turn.lastDataAt;
	return {
		...(waiting ? {retry: retryForms(retry, now)} : {}),
		...(silence >= WAITING_NOTICE_MS ? {waiting: `waiting for the model · no data for ${Math.floor(silence / 1000)}s`} : {}),
		elapsed: `working ${formatElapsed(now - turn.startTime)}`,
		...(usage === undefined ? {} : {usage: formatUsage(usage)}),
		...(turn.firstTokenMs === undefined ? {} : {latency: `first token ${formatDuration(turn.firstTokenMs)}`}),
	};
}

/** A retry's wait, in three forms: its countdown, with the attempt, with the reason. */
function retryForms(retry: RetryWait, now: number): [countdown: string, attempt: string, reason: string] {
	// Whole seconds, rounded up: `retrying in 3s`, and a provider's long wait as `retrying in 4m 59s`.
	const countdown = `retrying in ${formatElapsed(Math.ceil((retry.startsAt - now) / 1000) * 1000)}`;
	const attempt = retry.attempt === undefined ? countdown : `${countdown} (attempt ${retry.attempt}${retry.maxAttempts === undefined ? '' : ` of ${retry.maxAttempts}`})`;
	return [countdown, attempt, retry.reason === undefined ? attempt : `${attempt}: ${truncateToWidth(sanitizeInline(retry.reason), RETRY_REASON_COLUMNS)}`];
}

/** The tally the status line shows: the outcomes that occurred, worded as every view words them (empty before the first call). */
export function statusTally(snapshot: Pick<LiveSnapshot, 'counts'>): string {
	return outcomeTally(snapshot.counts);
}

/**
Ranks of the status row's facts and their longer forms (lower is kept longer as the terminal narrows):
what is happening now and how to stop it, who answers and where, then detail. A retry's attempt
(or the whole "waiting for the model"), the model's whole label (its provider and server), a
retry's reason and the whole directory come after the short forms of the facts before them (the
retry's notice above has its reason).
*/
const RANK = {now: 1, cancel: 2, elapsed: 3, who: 4, nowDetail: 5, place: 6, wholeWho: 7, reason: 8, confinement: 8.5, wholePlace: 9, jobs: 10, tally: 11, context: 12, usage: 13, latency: 14, session: 15} as const;

/**
The status row's facts in the order they read: what is happening now (a retry's countdown, a long
silence), how to stop it and for how long it has run, who answers (the model, an ACP agent's mode),
where (the directory), jobs, the tally, tokens, latency and the session's id. `fitFacts` keeps them
by rank as the width shrinks.
*/
export function statusFacts({cwd, sessionId, snapshot, now, home = homedir()}: Omit<Props, 'width' | 'hint'> & {readonly home?: string}): Fact[] {
	const turn = snapshot.turn === undefined ? undefined : turnParts(snapshot.turn, now ?? snapshot.turn.startTime);
	const one = (text: string, rank: number): Fact => [{text, rank}];
	const facts: Fact[] = [];
	if (turn?.retry !== undefined) {
		const [countdown, attempt, reason] = turn.retry;
		facts.push([{text: countdown, rank: RANK.now}, {text: attempt, rank: RANK.nowDetail}, {text: reason, rank: RANK.reason}]);
	}

	// A running call is not a wait for the model.
	if (turn?.waiting !== undefined && snapshot.running.length === 0) {
		facts.push([{text: turn.waiting.replace(/^waiting for the model · /u, ''), rank: RANK.now}, {text: turn.waiting, rank: RANK.nowDetail}]);
	}

	if (snapshot.running.length > 0 || turn !== undefined) {
		facts.push(one('Esc to cancel', RANK.cancel));
	}

	if (turn !== undefined) {
		facts.push(one(turn.elapsed, RANK.elapsed));
	}

	// The mode is always shown: it says what the agent may do without asking.
	if (snapshot.mode !== undefined) {
		facts.push(one(`mode ${sanitizeInline(snapshot.mode)}`, RANK.now));
	}

	for (const who of [snapshot.model, snapshot.agent]) {
		if (who !== undefined) {
			facts.push(whoForms(sanitizeInline(who)));
		}
	}

	if (snapshot.context !== undefined) {
		facts.push(one(sanitizeInline(snapshot.context), RANK.context));
	}

	facts.push(placeForms(sanitizeInline(cwd), home));
	if (snapshot.confinement !== undefined) {
		facts.push(one(sanitizeInline(snapshot.confinement), RANK.confinement));
	}

	if (snapshot.jobsRunning > 0) {
		facts.push(one(`${snapshot.jobsRunning} job${snapshot.jobsRunning === 1 ? '' : 's'}`, RANK.jobs));
	}

	const tally = statusTally(snapshot);
	if (tally !== '') {
		facts.push(one(tally, RANK.tally));
	}

	if (turn?.usage !== undefined) {
		facts.push(one(turn.usage, RANK.usage));
	}

	if (turn?.latency !== undefined) {
		facts.push(one(turn.latency, RANK.latency));
	}

	facts.push(one(sanitizeInline(sessionId), RANK.session));
	return facts;
}

/** The status row's text, already fitted to `width`. */
export function statusText({hint, width, ...props}: Props & {readonly home?: string}): string {
	if (props.snapshot.problem !== undefined) {
		return truncateToWidth(sanitizeInline(props.snapshot.problem), width);
	}

	if (hint !== undefined) {
		return truncateToWidth(sanitizeInline(hint), width);
	}

	return fitFacts(statusFacts(props), width);
}

/** Who answers: a model's label (`provider:model via host`) at its shortest is the model's name. */
function whoForms(label: string): Fact {
	const name = /^[^\s:]+:(\S+)(?: via \S+)?$/u.exec(label)?.[1];
	return name === undefined ? [{text: label, rank: RANK.who}] : [{text: name, rank: RANK.who}, {text: label, rank: RANK.wholeWho}];
}

/** The session's directory: under the home folder as `~/…`; at its shortest, its last name (`…/api`). */
function placeForms(cwd: string, home: string): Fact {
	const whole = home !== '' && home !== '/' && (cwd === home || cwd.startsWith(`${home}/`)) ? `~${cwd.slice(home.length)}` : cwd;
	const last = whole.replace(/\/+$/u, '').split('/').at(-1) ?? '';
	const short = `…/${last}`;
	return last === '' || displayWidth(short) >= displayWidth(whole) ? [{text: whole, rank: RANK.place}] : [{text: short, rank: RANK.place}, {text: whole, rank: RANK.wholePlace}];
}

/**
Completion candidates for the status row: as many whole words as fit in `width` columns, then
`… N more` when some do not (the bare `/` list at 40 columns, say).
*/
export function candidateHint(words: readonly string[], width: number): string {
	let shown = '';
	for (const [index, word] of words.entries()) {
		const next = shown === '' ? word : `${shown}  ${word}`;
		const rest = words.length - index - 1;
		const tail = rest === 0 ? '' : `  … ${rest} more`;
		if (displayWidth(next + tail) > width) {
			const left = words.length - index;
			return shown === '' ? truncateToWidth(`${word}  … ${left - 1} more`, width) : `${shown}  … ${left} more`;
		}

		shown = next;
	}

	return shown;
}

/** One recessed row: the session's facts, most important first (`statusFacts`); a problem in red, a hint instead of the facts. */
export function StatusLine(props: Props) {
	const text = statusText(props);
	if (props.snapshot.problem !== undefined) {
		return <Text color="red" wrap="truncate-end">{text}</Text>;
	}

	return props.hint === undefined ? <Text dimColor wrap="truncate-end">{text}</Text> : <Text wrap="truncate-end">{text}</Text>;
}
