import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {truncateToWidth, wrapProse} from '../src/layout/text/text-width.js';
import type {PendingApproval} from './session-model.js';

type Props = {
	readonly approval: PendingApproval;
	/** The marked choice (approval-keys.ts). */
	readonly selected: number;
	readonly width: number;
};

/** The last row: how to answer, what Esc does, and that typing stays at the prompt. */
function keysRow(approval: PendingApproval): string {
	return `  ↑↓ choose · Enter answers · Esc ${sanitizeInline(approval.escapes ?? 'cancels the call')} · typing stays in the prompt`;
}

/** Rows the question may take: every reason counts (which rules asked, where a link leads), but a hostile one cannot fill the screen. */
const MAX_QUESTION_ROWS = 4;

/** Rows the dialog takes, for the live region's budget: the question, one per choice, the keys. */
export function approvalRows(approval: PendingApproval, width: number): number {
	return questionRows(approval, width).length + approval.choices.length + 1;
}

/** The dialog's rows as plain text (for measuring the frame). */
export function approvalTexts(approval: PendingApproval, selected: number, width: number): string[] {
	return [
		...questionRows(approval, width),
		...approval.choices.map((choice, index) => truncateToWidth(choiceText(choice.label, index === selected, width), width)),
		truncateToWidth(keysRow(approval), width),
	];
}

/**
The leading part of an asker's text that can show in `rows` rows of `width` (a column takes at most
two UTF-16 units): a hostile megabyte is not sanitized and wrapped again on every frame.
*/
function shown(text: string, width: number, rows = 1): string {
	const most = 2 * rows * Math.max(1, width) + 2;
	return text.length > most ? `${text.slice(0, most)}…` : text;
}

/** The question, wrapped at words with its continuation indented, at most `MAX_QUESTION_ROWS` rows. */
function questionRows(approval: PendingApproval, width: number): string[] {
	const reason = approval.reason === undefined ? '' : ` — ${sanitizeInline(shown(approval.reason, width, MAX_QUESTION_ROWS))}`;
	const text = `? Allow ${sanitizeInline(shown(approval.toolName, width, MAX_QUESTION_ROWS))}${reason}`;
	// A row's breaking space is dropped: these rows are laid out, not soft wraps.
	const rows = wrapProse(text, Math.max(1, width - 2)).map((row, index) => index === 0 ? row.trimEnd() : `  ${row.trimEnd()}`);
	const kept = rows.slice(0, MAX_QUESTION_ROWS).map(row => truncateToWidth(row, width));
	if (rows.length > MAX_QUESTION_ROWS) {
		kept[MAX_QUESTION_ROWS - 1] = truncateToWidth(`${kept[MAX_QUESTION_ROWS - 1]!} …`, width);
	}

	return kept;
}

function choiceText(label: string, marked: boolean, width: number): string {
	return `${marked ? '❯' : ' '} ${sanitizeInline(shown(label, width))}`;
}

/** Asks to allow a call: a list of answers, one marked; ↑/↓ move the mark and Enter confirms it. */
export function ApprovalDialog({approval, selected, width}: Props) {
	return (
		<>
			{questionRows(approval, width).map((row, index) => (
				// Keyed by index: rows of one text
				<Text key={`q${index}`} color="yellow" wrap="truncate-end">{row}</Text>
			))}
			{approval.choices.map((choice, index) => {
				const marked = index === selected;
				// Keyed by position: an asker may offer two choices with the same words.
				return <Text key={index} bold={marked} color={marked ? 'cyan' : undefined} wrap="truncate-end">{truncateToWidth(choiceText(choice.label, marked, width), width)}</Text>;
			})}
			<Text dimColor wrap="truncate-end">{truncateToWidth(keysRow(approval), width)}</Text>
		</>
	);
}
