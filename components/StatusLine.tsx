import React from 'react';
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {formatDuration, formatElapsed, formatUsage} from '../src/layout/text/format.js';
import {displayWidth, truncateToWidth} from '../src/layout/text/text-width.js';
import {outcomeTally} from '../src/presentation/card-outcome.js';
import type {TurnProgress} from '../src/session/fold/turn-progress.js';
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

/** Columns a retry's reason may take, so that "Esc to cancel" after it stays on a normal terminal. */
const RETRY_REASON_COLUMNS = 48;

/**
A silence of the model this long is said (`waiting for the model · no data for 12s`): a normal first
token comes within a few seconds, and from here on a person wonders whether anything is happening
(the stream is cancelled and retried at the stall timeout, 45 s by default).
*/
export const WAITING_NOTICE_MS = 10_000;

/**
A model turn's parts of the status row: a retry's countdown (`retrying in 3s (attempt 2 of 5): …`)
while its wait lasts, or the model's silence once it is long (`waiting for the model · no data for
25s`), then the turn's elapsed time, its tokens so far and the latency to the first token.
*/
export function turnParts(turn: TurnProgress, now: number): {readonly retry: string | undefined; readonly waiting: string | undefined; readonly progress: string[]} {
	const {retry, usage} = turn;
	let retryText: string | undefined;
	if (retry !== undefined && now < retry.startsAt) {
		const attempt = retry.attempt === undefined ? '' : ` (attempt ${retry.attempt}${retry.maxAttempts === undefined ? '' : ` of ${retry.maxAttempts}`})`;
		const reason = retry.reason === undefined ? '' : `: ${truncateToWidth(sanitizeInline(retry.reason), RETRY_REASON_COLUMNS)}`;
		// Whole seconds, rounded up: `retrying in 3s`, and a provider's long wait as `retrying in 4m 59s`.
		retryText = `retrying in ${formatElapsed(Math.ceil((retry.startsAt - now) / 1000) * 1000)}${attempt}${reason}`;
	}

	const silence = turn.lastDataAt === undefined || retryText !== undefined ? 0 : now - turn.lastDataAt;
	const waiting = silence >= WAITING_NOTICE_MS ? `waiting for the model · no data for ${Math.floor(silence / 1000)}s` : undefined;

	const progress = [`working ${formatElapsed(now - turn.startTime)}`];
	if (usage !== undefined) {
		progress.push(formatUsage(usage));
	}

	if (turn.firstTokenMs !== undefined) {
		progress.push(`first token ${formatDuration(turn.firstTokenMs)}`);
	}

	return {retry: retryText, waiting, progress};
}

/** The tally the status line shows: the outcomes that occurred, worded as every view words them. */
export function statusTally(snapshot: LiveSnapshot): string {
	const tally = outcomeTally(snapshot.counts);
	return tally === '' ? 'no calls yet' : tally;
}

/** The status row's text, already fitted to `width`. */
export function statusText({cwd, sessionId, snapshot, width, hint, now}: Props): string {
	if (snapshot.problem !== undefined) {
		return truncateToWidth(sanitizeInline(snapshot.problem), width);
	}

	if (hint !== undefined) {
		return truncateToWidth(sanitizeInline(hint), width);
	}

	const turn = snapshot.turn === undefined ? undefined : turnParts(snapshot.turn, now ?? snapshot.turn.startTime);
	const parts = [
		statusTally(snapshot),
		...(turn?.retry === undefined ? [] : [turn.retry]),
		// A running call is not a wait for the model.
		...(turn?.waiting === undefined || snapshot.running.length > 0 ? [] : [turn.waiting]),
		// What stops it comes right after the counts (and a retry's wait), so a narrow terminal keeps it.
		...(snapshot.running.length > 0 || turn !== undefined ? ['Esc to cancel'] : []),
		...(turn?.progress ?? []),
		...(snapshot.model === undefined ? [] : [sanitizeInline(snapshot.model)]),
		...(snapshot.jobsRunning > 0 ? [`${snapshot.jobsRunning} job${snapshot.jobsRunning === 1 ? '' : 's'}`] : []),
		...(snapshot.queued > 0 ? [snapshot.queueHeld === true ? `${snapshot.queued} queued, held: Enter runs · Ctrl+C drops` : `${snapshot.queued} queued`] : []),
		...(snapshot.agent === undefined ? [] : [sanitizeInline(snapshot.agent)]),
		sanitizeInline(cwd),
		sanitizeInline(sessionId),
	];
	return truncateToWidth(parts.join(' · '), width);
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

/** One recessed row: counts by status, jobs, where, which session; a problem in red, a hint instead of the counts. */
export function StatusLine(props: Props) {
	const text = statusText(props);
	if (props.snapshot.problem !== undefined) {
		return <Text color="red" wrap="truncate-end">{text}</Text>;
	}

	return props.hint === undefined ? <Text dimColor wrap="truncate-end">{text}</Text> : <Text wrap="truncate-end">{text}</Text>;
}
