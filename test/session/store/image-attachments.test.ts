import {execFileSync} from 'node:child_process';
import {mkdir, mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {attachmentOf} from '../../../src/session/fold/image-blocks.js';
import {imageFacts} from '../../../src/session/store/image-facts.js';
import {attachImage, AttachmentStore, IMAGE_MAX_BYTES, isImageRefusal, pastedImagePath} from '../../../src/session/store/image-attachments.js';
import {gifHeader, jpegHeader, pngImage, webpHeader} from '../../fixtures/images.js';

describe('imageFacts: the type from the magic number, the size from the header', () => {
	it('reads PNG, GIF, JPEG (past APP0 and fill bytes) and the three WebP forms', () => {
		expect(imageFacts(pngImage(1280, 800))).toEqual({mediaType: 'image/png', width: 1280, height: 800});
		expect(imageFacts(gifHeader(320, 200))).toEqual({mediaType: 'image/gif', width: 320, height: 200});
		expect(imageFacts(jpegHeader(1920, 1080))).toEqual({mediaType: 'image/jpeg', width: 1920, height: 1080});
		expect(imageFacts(webpHeader('VP8 ', 640, 480))).toEqual({mediaType: 'image/webp', width: 640, height: 480});
		expect(imageFacts(webpHeader('VP8L', 16_384, 3))).toEqual({mediaType: 'image/webp', width: 16_384, height: 3});
		expect(imageFacts(webpHeader('VP8X', 5000, 7000))).toEqual({mediaType: 'image/webp', width: 5000, height: 7000});
	});

	it('is no image: text, a header cut short, a zero size, a JPEG whose segments run off the end', () => {
		expect(imageFacts(Buffer.from('just some text that is long enough to be read'))).toBeUndefined();
		expect(imageFacts(pngImage(10, 10).subarray(0, 20))).toBeUndefined();
		expect(imageFacts(gifHeader(0, 10))).toBeUndefined();
		expect(imageFacts(jpegHeader(10, 10).subarray(0, 25))).toBeUndefined();
		expect(imageFacts(Buffer.from([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00]))).toBeUndefined();
		expect(imageFacts(new Uint8Array(0))).toBeUndefined();
	});
});

describe('attachImage: checked, then saved beside the session by its digest', () => {
	let workspace: string;
	let store: AttachmentStore;
	beforeEach(async () => {
		workspace = await mkdtemp(join(tmpdir(), 'cardterm-attach-'));
		store = new AttachmentStore(join(workspace, 'session', 'attachments'));
	});
	afterEach(async () => {
		await rm(workspace, {recursive: true, force: true});
	});

	it('saves a PNG named .jpg as a PNG: the bytes decide; the same image twice is one file', async () => {
		const png = pngImage(1280, 800);
		await writeFile(join(workspace, 'shot.jpg'), png);
		const first = await attachImage('shot.jpg', workspace, store);
		const again = await attachImage(join(workspace, 'shot.jpg'), '/elsewhere', store);
		expect(first).toEqual({attachmentId: expect.stringMatching(/^[\da-f]{16}\.png$/), mediaType: 'image/png', bytes: png.length, width: 1280, height: 800, name: 'shot.jpg'});
		expect(again).toEqual(first);
		const files = await readdir(store.directory);
		expect(files).toEqual([(first as {attachmentId: string}).attachmentId]);
		expect(await readFile(join(store.directory, files[0]!))).toEqual(png);
		expect(attachmentOf({type: 'image', attachment: first})).toEqual(first);
		expect(new AttachmentStore(store.directory).bytes(first as never)).toEqual(png);
	});

	it('refuses with a line that names the file: too large, no image, missing, a folder', async () => {
		await writeFile(join(workspace, 'big.png'), Buffer.concat([pngImage(10, 10), Buffer.alloc(IMAGE_MAX_BYTES)]));
		await writeFile(join(workspace, 'notes.png'), 'not an image at all\n');
		await mkdir(join(workspace, 'dir.png'));
		const refusal = async (path: string): Promise<string> => {
			const result = await attachImage(path, workspace, store);
			expect(isImageRefusal(result)).toBe(true);
			return (result as {refusal: string}).refusal;
		};

		expect(await refusal('big.png')).toBe('big.png is 5.2 MB: images are attached up to 5 MiB (the providers\' limit)');
		expect(await refusal('notes.png')).toBe('notes.png is not a PNG, JPEG, GIF or WebP image (read from its bytes)');
		expect(await refusal('gone.png')).toBe('gone.png: no such file');
		expect(await refusal('dir.png')).toBe('dir.png is not a file');
		// A FIFO would block an open for ever.
		execFileSync('mkfifo', [join(workspace, 'pipe.png')]);
		expect(await refusal('pipe.png')).toBe('pipe.png is not a file');
		await expect(readdir(store.directory)).rejects.toThrow(/ENOENT/);
	});

	it('reads back nothing for an id a hostile log made up, or a file that is no longer the image', async () => {
		expect(attachmentOf({type: 'image', attachment: {attachmentId: '../../etc/passwd', mediaType: 'image/png', bytes: 1, width: 1, height: 1}})).toBeUndefined();
		expect(store.bytes({attachmentId: '../x.png', mediaType: 'image/png', bytes: 1, width: 1, height: 1})).toBeUndefined();
		await mkdir(store.directory, {recursive: true});
		await writeFile(join(store.directory, '0123456789abcdef.png'), gifHeader(4, 4));
		expect(store.bytes({attachmentId: '0123456789abcdef.png', mediaType: 'image/png', bytes: 13, width: 4, height: 4})).toBeUndefined();
		expect(store.bytes({attachmentId: 'fedcba9876543210.png', mediaType: 'image/png', bytes: 13, width: 4, height: 4})).toBeUndefined();
	});
});

describe('pastedImagePath: what a drag and drop pastes', () => {
	it('takes a plain, quoted, escaped or file:// path to an image, and nothing else', () => {
		expect(pastedImagePath('/home/me/shot.png')).toBe('/home/me/shot.png');
		expect(pastedImagePath(' \'/home/me/my shot.PNG\' ')).toBe('/home/me/my shot.PNG');
		expect(pastedImagePath('"/tmp/a b.jpeg"')).toBe('/tmp/a b.jpeg');
		expect(pastedImagePath('/tmp/a\\ b.webp')).toBe('/tmp/a b.webp');
		expect(pastedImagePath('file:///home/me/Screen%20Shot.gif')).toBe('/home/me/Screen Shot.gif');
		expect(pastedImagePath('file://otherhost/x.png')).toBeUndefined();
		expect(pastedImagePath('look at this.txt')).toBeUndefined();
		expect(pastedImagePath('/a.png\n/b.png')).toBeUndefined();
		expect(pastedImagePath('')).toBeUndefined();
	});
});
