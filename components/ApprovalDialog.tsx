import React from 'react';
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {truncateToWidth} from '../src/layout/text/text-width.js';
import type {PendingApproval} from './session-model.js';

type Props = {
	readonly approval: PendingApproval;
	readonly width: number;
};

/** Rows the dialog takes, for the live region's budget. */
export const APPROVAL_DIALOG_ROWS = 3;

/** The dialog's rows as plain text (for measuring the frame). */
export function approvalTexts(approval: PendingApproval, width: number): string[] {
	const reason = approval.reason === undefined ? '' : ` — ${sanitizeInline(approval.reason)}`;
	const tool = sanitizeInline(approval.toolName);
	return [
		truncateToWidth(`? Allow ${tool}${reason}`, width),
		truncateToWidth(approval.choices === undefined ? `  a allow once   s allow ${tool} for this session   d deny` : `  ${approval.choices.map(choice => `${choice.key} ${sanitizeInline(choice.label)}`).join('   ')}`, width),
		truncateToWidth('  Esc or Ctrl+C cancels the call', width),
	];
}

/** Asks to allow a call: once, for this tool for the rest of the session, or deny; or with the asker's own choices. */
export function ApprovalDialog({approval, width}: Props) {
	const reason = approval.reason === undefined ? '' : ` — ${sanitizeInline(approval.reason)}`;
	const tool = sanitizeInline(approval.toolName);
	return (
		<>
			<Text color="yellow" wrap="truncate-end">{truncateToWidth(`? Allow ${tool}${reason}`, width)}</Text>
			{approval.choices === undefined ? (
				<Text wrap="truncate-end">
					{'  '}<Text bold>a</Text>{' allow once   '}<Text bold>s</Text>{truncateToWidth(` allow ${tool} for this session   `, Math.max(0, width - 17))}<Text bold>d</Text>{' deny'}
				</Text>
			) : (
				<Text wrap="truncate-end">
					{'  '}{approval.choices.map((choice, index) => (
						<React.Fragment key={choice.key}>{index === 0 ? '' : '   '}<Text bold>{choice.key}</Text>{` ${sanitizeInline(choice.label)}`}</React.Fragment>
					))}
				</Text>
			)}
			<Text dimColor wrap="truncate-end">{truncateToWidth('  Esc or Ctrl+C cancels the call', width)}</Text>
		</>
	);
}
