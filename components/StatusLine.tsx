import React from 'react';
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/sanitize.js';
import {truncateToWidth} from '../src/layout/text-width.js';
import {outcomeTally} from '../src/presentation/card-outcome.js';
import type {LiveSnapshot} from './session-model.js';

type Props = {
	readonly cwd: string;
	readonly sessionId: string;
	readonly snapshot: LiveSnapshot;
	readonly width: number;
	/** A transient hint (e.g. "press Ctrl+C again to exit"). */
	readonly hint?: string;
};

/** The tally the status line shows: the outcomes that occurred, worded as every view words them. */
export function statusTally(snapshot: LiveSnapshot): string {
	const tally = outcomeTally(snapshot.counts);
	return tally === '' ? 'no calls yet' : tally;
}

/** The status row's text, already fitted to `width`. */
export function statusText({cwd, sessionId, snapshot, width, hint}: Props): string {
	if (snapshot.problem !== undefined) {
		return truncateToWidth(sanitizeInline(snapshot.problem), width);
	}

	if (hint !== undefined) {
		return truncateToWidth(sanitizeInline(hint), width);
	}

	const parts = [
		statusTally(snapshot),
		...(snapshot.model === undefined ? [] : [sanitizeInline(snapshot.model)]),
		...(snapshot.jobsRunning > 0 ? [`${snapshot.jobsRunning} job${snapshot.jobsRunning === 1 ? '' : 's'}`] : []),
		...(snapshot.queued > 0 ? [`${snapshot.queued} queued`] : []),
		sanitizeInline(cwd),
		sanitizeInline(sessionId),
	];
	return truncateToWidth(parts.join(' · '), width);
}

/** One recessed row: counts by status, jobs, where, which session; a problem in red, a hint instead of the counts. */
export function StatusLine(props: Props) {
	const text = statusText(props);
	if (props.snapshot.problem !== undefined) {
		return <Text color="red" wrap="truncate-end">{text}</Text>;
	}

	return props.hint === undefined ? <Text dimColor wrap="truncate-end">{text}</Text> : <Text wrap="truncate-end">{text}</Text>;
}
