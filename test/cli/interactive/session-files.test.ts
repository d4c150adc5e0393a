/** What an interactive session leaves on disk (issue 13 items 11, 12), without a screen; test/app/e2e-session-files.test.ts drives the real binary. */
import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {openInteractiveSession} from '../../../src/cli/interactive/open-interactive-session.js';
import {historyPath} from '../../../src/cli/environment/session-paths.js';
import {defaultSessionsRoot} from '../../../src/session/store/session-store.js';

const folder = mkdtempSync(join(tmpdir(), 'cardterm-session-files-'));
afterAll(() => rmSync(folder, {recursive: true, force: true}));

describe('an interactive session on disk', () => {
	it('removes its log and folder when nothing happened in it', async () => {
		const root = join(folder, 'empty');
		const {controller, discardIfEmpty} = await openInteractiveSession({root, cwd: folder, id: 'nothing'});
		expect(existsSync(join(root, 'nothing', 'session.jsonl'))).toBe(true);
		await controller.close();
		expect(await discardIfEmpty()).toBe(true);
		expect(existsSync(join(root, 'nothing'))).toBe(false);
	});

	it('keeps a session in which a command ran', async () => {
		const root = join(folder, 'used');
		const {controller, discardIfEmpty, logOutcome} = await openInteractiveSession({root, cwd: folder, id: 'something'});
		const settled = new Promise<void>(resolve => {
			controller.onScrollback(entry => {
				if (entry.kind === 'entry' && entry.entry.entry === 'card') {
					resolve();
				}
			});
		});
		controller.submit('!echo hi');
		await settled;
		await controller.close();
		expect(await discardIfEmpty()).toBe(false);
		expect(logOutcome()).toMatchObject({kind: 'saved', path: join(root, 'something', 'session.jsonl')});
		expect(existsSync(join(root, 'something', 'session.jsonl'))).toBe(true);
	});
});

describe('the prompt history', () => {
	it('lives inside a named sessions folder, and beside the default one', () => {
		expect(historyPath('/x/sess', '/home/u/proj')).toMatch(/^\/x\/sess\/\.history\/[0-9a-f]{16}\.txt$/);
		expect(historyPath(defaultSessionsRoot(), '/home/u/proj')).toMatch(new RegExp(`^${join(defaultSessionsRoot(), '..', 'history').replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[0-9a-f]{16}\\.txt$`));
	});
});
