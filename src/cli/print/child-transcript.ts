/**
@module A subagent's child session inlined under its card in print mode (`replay --print --expand
all`): the child's whole transcript, each row indented behind a dim `│` gutter, its own subagents'
children inlined in turn (a few levels deep, never a session twice). A card whose child is not
beside the log gets one dim row saying so.
*/
import {childSessionRow} from '../../layout/cards/child-session-row.js';
import {layoutEntry} from '../../layout/entries/layout-entry.js';
import type {LayoutOptions} from '../../layout/text/layout-options.js';
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {span} from '../../layout/text/spans.js';
import type {StyledLine} from '../../layout/text/styled-line.js';
import type {Card} from '../../presentation/card.js';
import type {PresenterLookup} from '../../presentation/presenters.js';
import {childOfCard, type ChildSession, findChildSessions, isSubagentCard} from '../../session/store/child-sessions.js';
import type {SessionHeader} from '../../session/events/events.js';
import {SessionFold} from '../../session/fold/fold.js';
import {openSessionLog} from '../../session/reader/read-session-log.js';

/** Levels of children inlined under a card, at most (each level costs four columns). */
const MAX_DEPTH = 4;

/** Columns of the gutter in front of a child's rows. */
const GUTTER_COLUMNS = 4;

type Inline = {readonly children: readonly ChildSession[]; readonly presenters: (header: SessionHeader) => PresenterLookup; readonly depth: number; readonly seen: ReadonlySet<string>};

/**
The rows that follow a subagent card in print mode: its child inlined when `options.expansion` is
`full`, else one row naming it, or one row saying it is missing. Empty for other cards.
*/
export async function childRowsOf(card: Card, options: LayoutOptions, inline: Inline): Promise<StyledLine[]> {
	if (!isSubagentCard(card)) {
		return [];
	}

	const child = childOfCard(card, inline.children);
	if (child === undefined) {
		return [childSessionRow({found: false}, options.theme, options.width)];
	}

	const row = childSessionRow({found: true, id: child.id}, options.theme, options.width);
	if (options.expansion !== 'full' || inline.depth >= MAX_DEPTH || inline.seen.has(child.id) || options.width <= GUTTER_COLUMNS + 8) {
		return [row];
	}

	const gutter = span('  │ ', options.theme.muted);
	const rows = [row];
	for (const line of await childTranscript(child, {...options, width: options.width - GUTTER_COLUMNS}, inline)) {
		rows.push({...line, spans: [gutter, ...line.spans]});
	}

	return rows;
}

/** The child's entries as rows, with their own subagents' children. An unreadable child is one row saying why. */
async function childTranscript(child: ChildSession, options: LayoutOptions, inline: Inline): Promise<StyledLine[]> {
	const rows: StyledLine[] = [];
	try {
		const log = await openSessionLog(child.path);
		const fold = new SessionFold(inline.presenters(log.header));
		for await (const event of log.events) {
			fold.apply(event);
		}

		const nested: Inline = {
			children: await findChildSessions(child.path, log.header),
			presenters: inline.presenters,
			depth: inline.depth + 1,
			seen: new Set([...inline.seen, child.id]),
		};
		for (const entry of [...fold.entries, ...fold.tail]) {
			for (const line of layoutEntry(entry, options)) {
				rows.push(line);
			}

			if (entry.entry === 'card') {
				// eslint-disable-next-line no-await-in-loop -- a child's children, in transcript order
				for (const line of await childRowsOf(entry.card, options, nested)) {
					rows.push(line);
				}
			}
		}
	} catch (error) {
		rows.push({spans: [span(sanitizeInline(`cannot read child session ${child.id}: ${error instanceof Error ? error.message : String(error)}`), options.theme.muted)]});
	}

	return rows;
}

/** What `childRowsOf` needs for the top-level log at `logPath`. */
export async function inlineChildren(logPath: string, header: SessionHeader, presenters: (header: SessionHeader) => PresenterLookup): Promise<Inline> {
	return {children: await findChildSessions(logPath, header), presenters, depth: 0, seen: new Set([header.id])};
}
