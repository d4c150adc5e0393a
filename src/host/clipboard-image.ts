/**
@module The image on the system clipboard, for Ctrl+V at the prompt. A terminal pastes text only, so
the image is read with the platform's own tool: `wl-paste` on Wayland (wl-clipboard), `xclip` on X11,
`osascript` on macOS (the clipboard as PNG, printed as hex). Which tool exists is probed once, off
the keystroke path (`clipboardReader` looks the program up on PATH; no process is started), and a
read is bounded in time and size. Where no tool exists, one line says what to install.
*/
import {execFile} from 'node:child_process';
import {access, constants} from 'node:fs/promises';
import {delimiter, join} from 'node:path';
import {IMAGE_MAX_BYTES} from '../session/store/image-attachments.js';

/** How this machine reads the clipboard's image: the program and its arguments, and how its output becomes bytes. */
export type ClipboardReader = {readonly program: string; readonly args: readonly string[]; readonly output: 'bytes' | 'applescript-hex'};

/** The clipboard's image, or why there is none (one line). */
export type ClipboardImage = {readonly bytes: Uint8Array} | {readonly none: string};

/** How long a read may take: a clipboard owner that does not answer must not hang the prompt. */
export const CLIPBOARD_TIMEOUT_MS = 3000;

/** What each platform reads with; the first whose session is on and whose program is on PATH is used. */
function candidates(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): ReadonlyArray<ClipboardReader & {readonly when: boolean}> {
	return [
		{when: platform === 'darwin', program: 'osascript', args: ['-e', 'the clipboard as «class PNGf»'], output: 'applescript-hex'},
		{when: platform !== 'darwin' && Boolean(env.WAYLAND_DISPLAY), program: 'wl-paste', args: ['--no-newline', '--type', 'image/png'], output: 'bytes'},
		{when: platform !== 'darwin' && Boolean(env.DISPLAY), program: 'xclip', args: ['-selection', 'clipboard', '-target', 'image/png', '-out'], output: 'bytes'},
	];
}

/** What to say where no reader exists. */
export function noReaderLine(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
	if (platform === 'darwin') {
		return 'Ctrl+V: osascript was not found, so the clipboard\'s image cannot be read; paste the image file\'s path instead';
	}

	if (env.WAYLAND_DISPLAY || env.DISPLAY) {
		return `Ctrl+V: the clipboard's image cannot be read without ${env.WAYLAND_DISPLAY ? 'wl-paste (wl-clipboard)' : 'xclip'}; install it, or paste the image file's path instead`;
	}

	return 'Ctrl+V: no display to read a clipboard image from here (no Wayland or X11 session); paste the image file\'s path instead';
}

/** The reader this machine has (a program on PATH for the session's display), or `undefined`. Starts no process. */
export async function clipboardReader(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<ClipboardReader | undefined> {
	const directories = (env.PATH ?? '').split(delimiter).filter(directory => directory !== '');
	for (const {when, ...reader} of candidates(env, platform)) {
		if (!when) {
			continue;
		}

		for (const directory of directories) {
			// eslint-disable-next-line no-await-in-loop -- the first program found wins
			if (await access(join(directory, reader.program), constants.X_OK).then(() => true, () => false)) {
				return {...reader, program: join(directory, reader.program)};
			}
		}
	}

	return undefined;
}

/** Read the clipboard's image with `reader`: its bytes, or one line saying why there are none. */
export async function readClipboardImage(reader: ClipboardReader, env: NodeJS.ProcessEnv, timeoutMs = CLIPBOARD_TIMEOUT_MS): Promise<ClipboardImage> {
	// Hex doubles the size; past the cap the read is cut and refused.
	const maxBuffer = (IMAGE_MAX_BYTES * (reader.output === 'applescript-hex' ? 2 : 1)) + 64;
	return new Promise(resolve => {
		execFile(reader.program, reader.args, {env, timeout: timeoutMs, maxBuffer, encoding: 'buffer', windowsHide: true}, (error, stdout) => {
			if (error !== null) {
				const {code, killed} = error as NodeJS.ErrnoException & {killed?: boolean};
				if (killed === true) {
					resolve({none: `Ctrl+V: ${reader.program} did not answer in ${timeoutMs / 1000} s`});
				} else if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
					resolve({none: `Ctrl+V: the clipboard's image is over ${IMAGE_MAX_BYTES / 1024 / 1024} MiB (the providers' limit)`});
				} else {
					resolve({none: 'Ctrl+V: the clipboard holds no image (copy one, or paste the image file\'s path)'});
				}

				return;
			}

			const bytes = reader.output === 'bytes' ? stdout : appleScriptData(stdout.toString('utf8'));
			resolve(bytes === undefined || bytes.length === 0 ? {none: 'Ctrl+V: the clipboard holds no image (copy one, or paste the image file\'s path)'} : {bytes});
		});
	});
}

/** osascript prints a data value as `«data PNGf89504E47…»`: its hex digits as bytes. */
function appleScriptData(text: string): Uint8Array | undefined {
	const match = /«data [A-Za-z\d ]{4}([\dA-Fa-f]*)»/.exec(text);
	return match === null || match[1]!.length % 2 !== 0 ? undefined : Buffer.from(match[1]!, 'hex');
}
