/**
Images at the prompt (issue 31), through the real app on a fake terminal: a dropped file's path
(bracketed paste, quoted as file managers paste it) and Ctrl+V become an attachment row above the
prompt, Backspace on an empty prompt takes the last off, and Enter sends the words with the images —
the fake model's request holds the image part, the transcript the image's row.
*/
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {pngImage} from '../fixtures/images.js';

const {startInteractive} = await import('./harness/interactive-screen.js');
const {keys} = await import('./harness/fake-terminal.js');

const paste = (text: string): string => `\u001B[200~${text}\u001B[201~`;
const png = pngImage(64, 40);

describe('attaching an image at the prompt', () => {
	it('a pasted image path becomes a row, not text; Enter sends it with the words as an image part', async () => {
		const screen = await startInteractive('image-paste', {columns: 100, rows: 24, agent: {script: [{text: 'A grey rectangle.'}]}});
		try {
			await writeFile(join(screen.cwd, 'my shot.png'), png);
			await screen.press(paste(`'${join(screen.cwd, 'my shot.png')}'`));
			await screen.tty.waitForText(`[1] image · PNG · ${png.length} B · 64×40 · my shot.png`);
			expect(screen.tty.text()).not.toContain('> \'');
			await screen.press('what is this?');
			await screen.press(keys.enter);
			await screen.tty.waitForText('A grey rectangle.');
			expect(screen.server!.requests[0]!.body.messages.at(-1)).toEqual({role: 'user', content: [{type: 'text', text: 'what is this?'}, {type: 'image_url', image_url: {url: `data:image/png;base64,${png.toString('base64')}`}}]});
			expect(screen.tty.text()).toMatch(/^› what is this\?\n {2}image · PNG · \d+ B · 64×40 · my shot\.png$/mu);
			// Sent: nothing waits above the prompt any more.
			expect(screen.controller.getSnapshot().attachments).toBeUndefined();
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('a pasted path that is no image is refused in one line; other pasted text is typed', async () => {
		const screen = await startInteractive('image-paste-refused', {columns: 100, rows: 24});
		try {
			await writeFile(join(screen.cwd, 'notes.png'), 'not pixels\n');
			await screen.press(paste(join(screen.cwd, 'notes.png')));
			await screen.tty.waitForText('image not attached:');
			expect(screen.tty.text()).toContain('notes.png is not a PNG, JPEG, GIF or');
			await screen.press(paste('/no/such/dir/shot.png'));
			await screen.tty.waitForText('> /no/such/dir/shot.png');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('Ctrl+V attaches the clipboard\'s image, or says why none; Backspace on an empty prompt takes it off', async () => {
		let clipboard: {bytes: Uint8Array} | {none: string} = {none: 'Ctrl+V: the clipboard holds no image (copy one, or paste the image file\'s path)'};
		const screen = await startInteractive('image-clipboard', {columns: 100, rows: 24, clipboardImage: async () => clipboard});
		try {
			await screen.press('\u0016');
			await screen.tty.waitForText('Ctrl+V: the clipboard holds no image');
			clipboard = {bytes: png};
			await screen.press('\u0016');
			await screen.tty.waitForText('[1] image · PNG · ');
			expect(screen.tty.text()).toContain('64×40 · clipboard');
			expect(screen.controller.getSnapshot().attachments).toHaveLength(1);
			await screen.press(keys.backspace);
			expect(screen.controller.getSnapshot().attachments).toBeUndefined();
		} finally {
			await screen.close();
		}
	}, 60_000);
});
