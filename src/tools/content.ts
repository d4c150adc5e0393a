/**
@module Content blocks: what a tool result says to the model, and what is persisted in the log.
The union is merge-extensible on the wire: a reader renders an unknown `type` as a placeholder.
*/

/** Plain text. */
export type TextBlock = {readonly type: 'text'; readonly text: string};

/** Model reasoning text (never produced by tools, but may appear in logs). */
export type ReasoningBlock = {readonly type: 'reasoning'; readonly text: string};

/** A reference to a stored attachment; the bytes are not inline. */
export type ImageAttachment = {
	readonly attachmentId: string;
	readonly mediaType: string;
	readonly bytes: number;
	readonly width: number;
	readonly height: number;
	readonly name?: string;
};

/** An image, by attachment reference. */
export type ImageBlock = {readonly type: 'image'; readonly attachment: ImageAttachment};

/** A block a tool may return. */
export type ContentBlock = TextBlock | ReasoningBlock | ImageBlock;

/** A user message carried beside a tool result (`additionalContexts`, deferred contexts). */
export type UserMessage = {
	readonly id: string;
	readonly role: 'user';
	readonly content: readonly ContentBlock[];
	readonly source: {readonly kind: string; readonly plugin?: string; readonly [key: string]: unknown};
};

/** The one-text-block content most tools return. */
export function textContent(text: string): ContentBlock[] {
	return [{type: 'text', text}];
}
