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

/** One recessed row: where, which session, counts by status, jobs; a problem in red. */
export function StatusLine({cwd, sessionId, snapshot, width, hint}: Props) {
	const {counts} = snapshot;
	const parts = [
		sanitizeInline(cwd),
		sanitizeInline(sessionId),
		`● ${counts.ok}  ✗ ${counts.error}  ⊘ ${counts.cancelled}  ◌ ${counts.interrupted}${counts.running > 0 ? `  ○ ${counts.running}` : ''}`,
		...(snapshot.jobsRunning > 0 ? [`jobs ${snapshot.jobsRunning}`] : []),
		...(snapshot.queued > 0 ? [`queued ${snapshot.queued}`] : []),
	];
	const text = truncateToWidth(parts.join(' · '), width);
	if (snapshot.problem !== undefined || hint !== undefined) {
		const extra = sanitizeInline(snapshot.problem ?? hint ?? '');
		return (
			<Text wrap="truncate-end">
				<Text color={snapshot.problem === undefined ? undefined : 'red'}>{truncateToWidth(extra, width)}</Text>
			</Text>
		);
	}

	return <Text dimColor wrap="truncate-end">{text}</Text>;
}
