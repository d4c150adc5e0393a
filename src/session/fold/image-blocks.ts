/**
@module The image blocks of a message (contract.md §T0: an image by attachment reference), as a log
holds them: `{type: 'image', attachment: {attachmentId, mediaType, bytes, width, height, name?}}`.
The id names a side file in the session's `attachments/` folder (`store/image-attachments.ts`); it is
checked here once, so that an id read from a hostile log cannot name a file elsewhere.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {ImageAttachment} from '../../tools/content.js';

/** An attachment's id: 16 hex digits of the bytes' SHA-256 and the type's extension. */
export const ATTACHMENT_ID = /^[\da-f]{16}\.(png|jpg|gif|webp)$/;

/** The image reference a log's block holds, checked (a hostile log's id cannot leave the folder), or `undefined`. */
export function attachmentOf(block: unknown): ImageAttachment | undefined {
	const attachment = isJsonObject(block) && block.type === 'image' && isJsonObject(block.attachment) ? block.attachment : undefined;
	if (attachment === undefined) {
		return undefined;
	}

	const {attachmentId, mediaType, bytes, width, height, name} = attachment;
	const count = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
	if (typeof attachmentId !== 'string' || !ATTACHMENT_ID.test(attachmentId) || typeof mediaType !== 'string' || !count(bytes) || !count(width) || !count(height)) {
		return undefined;
	}

	return {attachmentId, mediaType, bytes, width, height, ...(typeof name === 'string' ? {name} : {})};
}

/** The checked image attachments of a message's content, in order. */
export function imageAttachments(content: unknown): ImageAttachment[] {
	const found: ImageAttachment[] = [];
	for (const block of Array.isArray(content) ? content : []) {
		const attachment = attachmentOf(block);
		if (attachment !== undefined) {
			found.push(attachment);
		}
	}

	return found;
}
