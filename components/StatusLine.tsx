import React from 'react';
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/sanitize.js';
import {truncateToWidth} from '../src/layout/text-width.js';
import type {LiveSnapshot} from './session-model.js';

type Props = {
	readonly cwd: string;
	readonly sessionId: string;
	readonly snapshot: LiveSnapshot;
	readonly width: number;
	/** A transient hint (e.g. "press Ctrl+C again to exit"). */
	readonly hint?: string;
};

/** The tally the status line shows: only the statuses that occurred, failures including non-zero exits. */
export function statusTally(snapshot: LiveSnapshot): string {
	const {counts} = snapshot;
	const failedExits = snapshot.failedExits ?? 0;
	const parts = [
		[counts.running, '○', 'running'],
		[counts.ok - failedExits, '●', 'ok'],
		[counts.error + failedExits, '✗', 'failed'],
		[counts.cancelled, '⊘', 'cancelled'],
		[counts.interrupted, '◌', 'interrupted'],
	] as const;
	const shown = parts.filter(([count]) => count > 0).map(([count, glyph, word]) => `${glyph} ${count} ${word}`);
	return shown.length === 0 ? 'no calls yet' : shown.join('  ');
}

/** One recessed row: where, which session, counts by status, jobs; a problem in red, a hint instead of the counts. */
export function StatusLine({cwd, sessionId, snapshot, width, hint}: Props) {
	if (snapshot.problem !== undefined) {
		return <Text color="red" wrap="truncate-end">{truncateToWidth(sanitizeInline(snapshot.problem), width)}</Text>;
	}

	if (hint !== undefined) {
		return <Text wrap="truncate-end">{truncateToWidth(sanitizeInline(hint), width)}</Text>;
	}

	const parts = [
		statusTally(snapshot),
		...(snapshot.jobsRunning > 0 ? [`${snapshot.jobsRunning} job${snapshot.jobsRunning === 1 ? '' : 's'}`] : []),
		...(snapshot.queued > 0 ? [`${snapshot.queued} queued`] : []),
		sanitizeInline(cwd),
		sanitizeInline(sessionId),
	];
	return <Text dimColor wrap="truncate-end">{truncateToWidth(parts.join(' · '), width)}</Text>;
}
