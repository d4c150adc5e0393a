/**
@module The person's message with what its `@` references attached (`src/host/prompt-references.ts`
makes it), and the `user/message` payload both producers — the agent loop and the ACP mapping —
record of it: the person's text as the first block, each attachment as a text block marked
`reference: INDEX` (the model reads it; a view shows the reference's row instead), and the facts of
every reference in `references` (decisions/references.md).
*/
import type {PromptReference} from '../../presentation/prompt-reference.js';
import type {ImageAttachment} from '../../tools/content.js';
import type {MessageBlock} from './events.js';

/** What one reference attached: its text for the model, and where it came from for an ACP agent. */
export type PromptAttachment = {
	/** Index into `UserPrompt.references`. */
	readonly reference: number;
	/** The text the model reads (a read's envelope, a folder's listing, a resource's text). */
	readonly text: string;
	/** Where it is: `file:///abs/path`, or a resource's own URI. */
	readonly uri: string;
	/** The attached text's media type, when known (an ACP embedded resource says it). */
	readonly mimeType?: string;
	/** What an ACP agent that takes only links is told of it (`lines 40-80`). */
	readonly description?: string;
};

/** The person's message and what its references attached. */
export type UserPrompt = {
	/** The text as typed. */
	readonly text: string;
	readonly references: readonly PromptReference[];
	readonly attachments: readonly PromptAttachment[];
};

/** A plain message, without references. */
export function plainPrompt(text: string): UserPrompt {
	return {text, references: [], attachments: []};
}

/**
The `content` and `references` of the person's `user/message` for `prompt` and its attached `images`
(image blocks after the words, referring to the session's side files; a message of images alone has
no empty text block).
*/
export function userMessageFields(prompt: UserPrompt, images: readonly ImageAttachment[] = []): {readonly content: MessageBlock[]; readonly references?: readonly PromptReference[]} {
	const content: MessageBlock[] = prompt.text === '' && prompt.attachments.length === 0 && images.length > 0 ? [] : [{type: 'text', text: prompt.text}];
	for (const attachment of prompt.attachments) {
		content.push({type: 'text', text: attachment.text, reference: attachment.reference});
	}

	for (const attachment of images) {
		content.push({type: 'image', attachment});
	}

	return prompt.references.length === 0 ? {content} : {content, references: prompt.references};
}
