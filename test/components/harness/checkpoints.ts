/**
@module The closed inventory of screen snapshots: every file in snapshots/screens/ is declared here
and taken by a test, so an orphan or a silently skipped screen fails the suite.
*/
import {readdir} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import {expect} from 'vitest';

/** The folder the screen snapshots live in. */
export const SCREENS_DIR = fileURLToPath(new URL('../../../snapshots/screens/', import.meta.url));

const observed = new Set<string>();

/** Compare a frame with its committed snapshot (`vitest -u` writes it; CI refuses a missing one). */
export async function checkpoint(name: string, frame: string): Promise<void> {
	observed.add(name);
	await expect(frame).toMatchFileSnapshot(`${SCREENS_DIR}${name}.frame`);
}

/** The declared checkpoints that were taken, and the snapshot files on disk. */
export async function inventory(): Promise<{observed: string[]; files: string[]}> {
	const files = (await readdir(SCREENS_DIR).catch(() => [])).filter(file => file.endsWith('.frame')).map(file => file.slice(0, -'.frame'.length));
	return {observed: [...observed].sort(), files: files.sort()};
}
