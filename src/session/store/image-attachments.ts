/**
@module Images attached to the person's message. The bytes live in a side file beside the session's
log, as the shell's spill files do (`<session folder>/attachments/<id>`); the `user/message` event
holds only a reference (`{type: 'image', attachment: {attachmentId, mediaType, bytes, width,
height, name}}`, contract.md §T0's image block), so no log line carries megabytes of base64. The id is
the bytes' digest and the type's extension: the same image attached twice is stored once, and an id
read from a log can only name a file in that folder.

`attachImage` is the one way in: a pasted path, the clipboard's image saved to a file, and an `@x.png`
reference all go through it.
*/
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {open, stat, writeFile} from 'node:fs/promises';
import {basename, isAbsolute, join, resolve} from 'node:path';
import type {ImageAttachment} from '../../tools/content.js';
import {sizeText} from '../../presentation/size-text.js';
import {ATTACHMENT_ID} from '../fold/image-blocks.js';
import {imageExtension, imageFacts, type ImageFacts} from './image-facts.js';
import {makeDirectory} from './make-directory.js';
import {PRIVATE_FILE_MODE} from './private-mode.js';

/** The largest image attached: 5 MiB, Anthropic's limit per image (OpenAI and Gemini take more; the smallest limit holds for every model). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const MAX_TEXT = '5 MiB';

/** Why an image was not attached, as one line the person reads. */
export type ImageRefusal = {readonly refusal: string};

/** The folder of a session's attachments, beside its log. */
export function attachmentsDir(sessionFolder: string): string {
	return join(sessionFolder, 'attachments');
}

/** A session's attachments folder: saves an image's bytes once, and reads them back for a request (kept in memory once read). */
export class AttachmentStore {
	readonly directory: string;
	readonly #read = new Map<string, Uint8Array | undefined>();

	constructor(directory: string) {
		this.directory = directory;
	}

	/** Save `bytes` (an image of `facts`) and return its reference. */
	async save(bytes: Uint8Array, facts: ImageFacts, name?: string): Promise<ImageAttachment> {
		const attachmentId = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${imageExtension(facts.mediaType)}`;
		await makeDirectory(this.directory);
		try {
			await writeFile(join(this.directory, attachmentId), bytes, {flag: 'wx', mode: PRIVATE_FILE_MODE});
		} catch (error) {
			// The same image, attached before: its file is there.
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error;
			}
		}

		this.#read.set(attachmentId, bytes);
		return {attachmentId, mediaType: facts.mediaType, bytes: bytes.length, width: facts.width, height: facts.height, ...(name === undefined || name === '' ? {} : {name})};
	}

	/** The bytes of `attachment`, or `undefined` when its file is gone, unreadable, or no longer the image the log names. */
	bytes(attachment: ImageAttachment): Uint8Array | undefined {
		if (!ATTACHMENT_ID.test(attachment.attachmentId)) {
			return undefined;
		}

		if (!this.#read.has(attachment.attachmentId)) {
			let bytes: Uint8Array | undefined;
			try {
				const read = readFileSync(join(this.directory, attachment.attachmentId));
				bytes = read.length <= IMAGE_MAX_BYTES && imageFacts(read)?.mediaType === attachment.mediaType ? read : undefined;
			} catch {
				bytes = undefined;
			}

			this.#read.set(attachment.attachmentId, bytes);
		}

		return this.#read.get(attachment.attachmentId);
	}
}

/**
Attach the image at `path` (relative to `workspace`): checked by its bytes (PNG, JPEG, GIF or WebP)
and its size (at most `IMAGE_MAX_BYTES`), saved in `store`. A refusal says what and where.
*/
export async function attachImage(path: string, workspace: string, store: AttachmentStore): Promise<ImageAttachment | ImageRefusal> {
	const full = isAbsolute(path) ? path : resolve(workspace, path);
	let bytes: Buffer;
	try {
		// Checked before the open: opening a FIFO (or a device) would wait for a writer for ever.
		if (!(await stat(full)).isFile()) {
			return {refusal: `${path} is not a file`};
		}

		const handle = await open(full, 'r');
		try {
			const stat = await handle.stat();
			if (!stat.isFile()) {
				return {refusal: `${path} is not a file`};
			}

			if (stat.size > IMAGE_MAX_BYTES) {
				return {refusal: `${path} is ${sizeText(stat.size)}: images are attached up to ${MAX_TEXT} (the providers' limit)`};
			}

			// Read up to one byte past the cap: a file that grew since the stat is refused, not cut.
			const buffer = Buffer.alloc(IMAGE_MAX_BYTES + 1);
			const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0);
			if (bytesRead > IMAGE_MAX_BYTES) {
				return {refusal: `${path} grew past ${MAX_TEXT} while it was read: images are attached up to that size (the providers' limit)`};
			}

			bytes = buffer.subarray(0, bytesRead);
		} finally {
			await handle.close();
		}
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return {refusal: code === 'ENOENT' ? `${path}: no such file` : `${path} cannot be read (${code ?? (error as Error).message})`};
	}

	return attachImageBytes(bytes, basename(full), store, path);
}

/** Attach an image's `bytes` (the clipboard's, or a file's read by `attachImage`), named `name`; `what` names it in a refusal. */
export async function attachImageBytes(bytes: Uint8Array, name: string, store: AttachmentStore, what = name): Promise<ImageAttachment | ImageRefusal> {
	if (bytes.length > IMAGE_MAX_BYTES) {
		return {refusal: `${what} is ${sizeText(bytes.length)}: images are attached up to ${MAX_TEXT} (the providers' limit)`};
	}

	const facts = imageFacts(bytes);
	if (facts === undefined) {
		return {refusal: `${what} is not a PNG, JPEG, GIF or WebP image (read from its bytes)`};
	}

	try {
		return await store.save(bytes, facts, name);
	} catch (error) {
		return {refusal: `${what} could not be saved with the session (${(error as Error).message})`};
	}
}

/** Whether `value` is a refusal rather than an attachment. */
export function isImageRefusal(value: ImageAttachment | ImageRefusal): value is ImageRefusal {
	return 'refusal' in value;
}

/**
The path a pasted text names, when it is one path that ends in an image's extension: what a file
manager's drag and drop pastes (`/home/me/shot.png`, quoted `'…'` or `"…"`, a `file://` URL,
spaces escaped with `\`). The bytes decide later whether it is an image; the extension only keeps
a pasted line of prose from being taken for a path.
*/
export function pastedImagePath(text: string): string | undefined {
	let path = text.trim();
	if (path === '' || path.includes('\n') || path.length > 4096) {
		return undefined;
	}

	const quoted = /^(['"])(.*)\1$/s.exec(path);
	if (quoted !== null) {
		path = quoted[2]!;
	} else if (path.startsWith('file://')) {
		try {
			const url = new URL(path);
			path = url.host === '' || url.host === 'localhost' ? decodeURIComponent(url.pathname) : '';
		} catch {
			return undefined;
		}
	} else {
		path = path.replaceAll(/\\(.)/g, '$1');
	}

	return /\.(png|jpe?g|gif|webp)$/i.test(path) ? path : undefined;
}
