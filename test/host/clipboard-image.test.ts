/**
Ctrl+V's clipboard image, read with the platform's tool (issue 31): fake `wl-paste`, `xclip` and
`osascript` programs on PATH print a PNG as the real ones do (raw bytes; AppleScript's `«data PNGf…»`
hex), so no real clipboard is needed. The probe starts no process; a read is bounded in time.
*/
import {chmod, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {clipboardReader, noReaderLine, readClipboardImage} from '../../src/host/clipboard-image.js';
import {pngImage} from '../fixtures/images.js';

let bin: string;
/** The fake programs first; the system's for the shell's own commands (cat, sleep, printf). */
let path: string;
const png = pngImage(8, 6);
beforeEach(async () => {
	bin = await mkdtemp(join(tmpdir(), 'cardterm-clip-'));
	await writeFile(join(bin, 'shot.png'), png);
	path = `${bin}:/usr/bin:/bin`;
});
afterEach(async () => {
	await rm(bin, {recursive: true, force: true});
});

async function program(name: string, script: string): Promise<void> {
	await writeFile(join(bin, name), `#!/bin/sh\n${script}\n`);
	await chmod(join(bin, name), 0o755);
}

describe('the clipboard\'s image', () => {
	it('Wayland: wl-paste asked for image/png; its bytes are the image', async () => {
		await program('wl-paste', `[ "$*" = "--no-newline --type image/png" ] || exit 3\ncat "${join(bin, 'shot.png')}"`);
		const env = {PATH: path, WAYLAND_DISPLAY: 'wayland-0'};
		const reader = await clipboardReader(env, 'linux');
		expect(reader).toEqual({program: join(bin, 'wl-paste'), args: ['--no-newline', '--type', 'image/png'], output: 'bytes'});
		expect(await readClipboardImage(reader!, env)).toEqual({bytes: png});
	});

	it('X11: xclip; a clipboard without an image (the tool fails) says so in one line', async () => {
		await program('xclip', 'echo "Error: target image/png not available" >&2; exit 1');
		const env = {PATH: path, DISPLAY: ':0'};
		const reader = await clipboardReader(env, 'linux');
		expect(reader?.program).toBe(join(bin, 'xclip'));
		expect(await readClipboardImage(reader!, env)).toEqual({none: 'Ctrl+V: the clipboard holds no image (copy one, or paste the image file\'s path)'});
	});

	it('macOS: osascript prints the PNG as «data PNGf…» hex', async () => {
		await program('osascript', `printf '«data PNGf${png.toString('hex').toUpperCase()}»\\n'`);
		const reader = await clipboardReader({PATH: path}, 'darwin');
		expect(await readClipboardImage(reader!, {PATH: path})).toEqual({bytes: png});
	});

	it('a tool that hangs is stopped at the timeout and named', async () => {
		await program('wl-paste', 'exec sleep 30');
		const env = {PATH: path, WAYLAND_DISPLAY: 'wayland-0'};
		const reader = await clipboardReader(env, 'linux');
		expect(await readClipboardImage(reader!, env, 200)).toEqual({none: `Ctrl+V: ${join(bin, 'wl-paste')} did not answer in 0.2 s`});
	});

	it('no tool for the session\'s display, or no display: none, and the line says what to install', async () => {
		expect(await clipboardReader({PATH: bin, WAYLAND_DISPLAY: 'wayland-0'}, 'linux')).toBeUndefined();
		expect(noReaderLine({WAYLAND_DISPLAY: 'wayland-0'}, 'linux')).toBe('Ctrl+V: the clipboard\'s image cannot be read without wl-paste (wl-clipboard); install it, or paste the image file\'s path instead');
		expect(noReaderLine({DISPLAY: ':0'}, 'linux')).toContain('without xclip');
		expect(await clipboardReader({PATH: bin}, 'linux')).toBeUndefined();
		expect(noReaderLine({}, 'linux')).toContain('no display to read a clipboard image from here');
	});
});
