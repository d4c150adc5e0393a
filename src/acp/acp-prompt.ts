/**
@module The person's message as an ACP `session/prompt`'s content blocks: the text, then each
attachment of its `@` references as an embedded `resource` when the agent's `promptCapabilities`
say `embeddedContext`, else as a `resource_link` (every agent takes those) that the agent reads itself.
What is recorded says which: a linked reference's row says so, and its text is not in the log as
sent, since it was not.
*/
import type * as acp from '@agentclientprotocol/sdk';
import type {UserPrompt} from '../session/events/user-prompt.js';

/** The blocks to send after cardterm's notes, and the message as it was sent (for the log). */
export function acpPromptBlocks(prompt: UserPrompt, embeddedContext: boolean): {readonly blocks: acp.ContentBlock[]; readonly sent: UserPrompt} {
	const blocks: acp.ContentBlock[] = [{type: 'text', text: prompt.text}];
	if (embeddedContext) {
		for (const attachment of prompt.attachments) {
			blocks.push({type: 'resource', resource: {uri: attachment.uri, text: attachment.text, ...(attachment.mimeType === undefined ? {} : {mimeType: attachment.mimeType})}});
		}

		return {blocks, sent: prompt};
	}

	const linked = new Set<number>();
	for (const attachment of prompt.attachments) {
		const token = prompt.references[attachment.reference]?.token ?? attachment.uri;
		linked.add(attachment.reference);
		blocks.push({type: 'resource_link', uri: attachment.uri, name: token, ...(attachment.description === undefined ? {} : {description: attachment.description})});
	}

	const references = prompt.references.map((reference, index) => (linked.has(index) ? {...reference, linked: true} : reference));
	return {blocks, sent: {text: prompt.text, references, attachments: []}};
}
