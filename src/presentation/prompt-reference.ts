/**
@module One `@` reference of the person's message as the log records it (`user/message`'s
`references`, decisions/references.md) and the message entry shows it: what the token named, and
what was attached of it — or why nothing was. The attached text itself is a content block of the
message (`reference: INDEX` marks it), so the model, a `--continue` and a replay read the same bytes.
*/
import {isJsonObject} from '../json/is-plain-record.js';

/**
What a reference named. `image` is the place for an attached image (its facts: type, size,
dimensions); its bytes go as an image block beside the text blocks.
*/
export type ReferenceKind = 'file' | 'folder' | 'resource' | 'image';

/** How much of it went to the model. */
export type AttachedAmount = {
	/** Lines of the file (or entries of a folder's listing) attached. */
	readonly lines: number;
	/** UTF-8 bytes of the attached text. */
	readonly bytes: number;
	/** Estimated tokens of the attached text. */
	readonly tokens: number;
	/** The line range asked for (`@a.ts:40-80`), as read. */
	readonly range?: {readonly start: number; readonly end: number};
	/** Why less than asked for was attached (a read's byte cap, a long listing). */
	readonly cut?: string;
};

export type PromptReference = {
	/** As typed, without the `@` (and without quotes): `src/app.ts:40-80`. */
	readonly token: string;
	/** What it named; absent when nothing was found. */
	readonly kind?: ReferenceKind;
	/** What was attached; absent when nothing was (`refused` says why). */
	readonly attached?: AttachedAmount;
	/** Why it was not attached: not found, outside the workspace, binary, … */
	readonly refused?: string;
	/** Sent as a link the agent reads itself (an ACP agent without `embeddedContext`), not as its text. */
	readonly linked?: boolean;
};

/** References one message keeps when read back (a log could hold any number). */
const MAX_READ_BACK = 100;
/** Characters a token or a reason keeps when read back. */
const MAX_TEXT = 500;

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const clipped = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

function kindOf(value: unknown): ReferenceKind | undefined {
	return value === 'file' || value === 'folder' || value === 'resource' || value === 'image' ? value : undefined;
}

function amountOf(value: unknown): AttachedAmount | undefined {
	if (!isJsonObject(value) || !isCount(value.lines) || !isCount(value.bytes) || !isCount(value.tokens)) {
		return undefined;
	}

	const {range, cut} = value;
	const hasRange = isJsonObject(range) && isCount(range.start) && isCount(range.end);
	return {
		lines: value.lines,
		bytes: value.bytes,
		tokens: value.tokens,
		...(hasRange ? {range: {start: range.start as number, end: range.end as number}} : {}),
		...(typeof cut === 'string' ? {cut: clipped(cut)} : {}),
	};
}

/** A message's `references` as read back from a log: the well-formed ones, bounded; anything else is left out. */
export function promptReferencesOf(value: unknown): PromptReference[] {
	if (!Array.isArray(value)) {
		return [];
	}

	const references: PromptReference[] = [];
	for (const item of value.slice(0, MAX_READ_BACK)) {
		if (!isJsonObject(item) || typeof item.token !== 'string') {
			continue;
		}

		const kind = kindOf(item.kind);
		const attached = amountOf(item.attached);
		const refused = typeof item.refused === 'string' ? clipped(item.refused) : undefined;
		if (attached === undefined && refused === undefined) {
			continue;
		}

		references.push({
			token: clipped(item.token),
			...(kind === undefined ? {} : {kind}),
			...(attached === undefined ? {} : {attached}),
			...(refused === undefined ? {} : {refused}),
			...(item.linked === true ? {linked: true} : {}),
		});
	}

	return references;
}

/** Whether a content block is a reference's attached text (not the person's own words). */
export function isReferenceBlock(block: unknown): boolean {
	return isJsonObject(block) && Number.isSafeInteger(block.reference);
}
