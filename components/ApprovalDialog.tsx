import React from 'react';
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/sanitize.js';
import {truncateToWidth} from '../src/layout/text-width.js';
import type {PendingApproval} from './session-model.js';

type Props = {
	readonly approval: PendingApproval;
	/** The marked choice (approval-keys.ts). */
	readonly selected: number;
	readonly width: number;
};

/** The last row: how to answer, and that typing stays at the prompt. */
const KEYS_ROW = '  ↑↓ choose · Enter answers · Esc cancels the call · typing stays in the prompt';

/** Rows the dialog takes, for the live region's budget: the question, one per choice, the keys. */
export function approvalRows(approval: PendingApproval): number {
	return approval.choices.length + 2;
}

/** The dialog's rows as plain text (for measuring the frame). */
export function approvalTexts(approval: PendingApproval, selected: number, width: number): string[] {
	return [
		truncateToWidth(questionText(approval), width),
		...approval.choices.map((choice, index) => truncateToWidth(choiceText(choice.label, index === selected), width)),
		truncateToWidth(KEYS_ROW, width),
	];
}

function questionText(approval: PendingApproval): string {
	const reason = approval.reason === undefined ? '' : ` — ${sanitizeInline(approval.reason)}`;
	return `? Allow ${sanitizeInline(approval.toolName)}${reason}`;
}

function choiceText(label: string, marked: boolean): string {
	return `${marked ? '❯' : ' '} ${sanitizeInline(label)}`;
}

/** Asks to allow a call: a list of answers, one marked; ↑/↓ move the mark and Enter confirms it. */
export function ApprovalDialog({approval, selected, width}: Props) {
	return (
		<>
			<Text color="yellow" wrap="truncate-end">{truncateToWidth(questionText(approval), width)}</Text>
			{approval.choices.map((choice, index) => {
				const marked = index === selected;
				// Keyed by position: an asker may offer two choices with the same words.
				// eslint-disable-next-line react/no-array-index-key
				return <Text key={index} bold={marked} color={marked ? 'cyan' : undefined} wrap="truncate-end">{truncateToWidth(choiceText(choice.label, marked), width)}</Text>;
			})}
			<Text dimColor wrap="truncate-end">{truncateToWidth(KEYS_ROW, width)}</Text>
		</>
	);
}
