/**
Images in an ACP agent's session (issue 31): the live session's pasted image goes to the scripted
agent as an ACP `image` block when its `promptCapabilities.image` is true; an agent without it
is not sent the prompt, and one line says so. The log holds the reference (the side file beside
it), and a replay shows the same row.
*/
import {writeFile} from 'node:fs/promises';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {lineText} from '../../src/layout/text/spans.js';
import {acpLiveSession} from '../../src/live/acp-driver.js';
import {pngImage} from '../fixtures/images.js';
import {until} from '../live/live-session-harness.js';
import {replayLog, startHarness} from './acp-harness.js';

const png = pngImage(30, 20);

describe('an image in an ACP agent\'s prompt', () => {
	it('goes as an image block to an agent that takes images; the log keeps a reference; replay shows the row', async () => {
		const harness = await startHarness({flags: ['--image']});
		try {
			const live = acpLiveSession(harness, harness.workspace);
			await writeFile(path.join(harness.workspace, 'shot.png'), png);
			expect(live.pasteImage(path.join(harness.workspace, 'shot.png'))).toBe(true);
			await until(() => live.getSnapshot().attachments !== undefined);
			live.submit('look at');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			const answer = harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : []).at(-1);
			expect(answer).toBe(`Saw look at and image/png ${png.length} bytes (a PNG).`);
			const user = harness.events.find(event => event.type === 'user/message');
			expect(user?.data.content).toEqual([{type: 'text', text: 'look at'}, {type: 'image', attachment: {attachmentId: expect.stringMatching(/^[\da-f]{16}\.png$/), mediaType: 'image/png', bytes: png.length, width: 30, height: 20, name: 'shot.png'}}]);
			await live.close();
			const replay = await replayLog(harness.logPath, harness.workspace);
			const replayed = replay.fold.entries.find(entry => entry.entry === 'user');
			expect(replayed?.entry === 'user' && replayed.images?.map(image => image.name)).toEqual(['shot.png']);
		} finally {
			await harness.dispose();
		}
	});

	it('an agent that takes no images is not sent the prompt: one line says so, and nothing is recorded', async () => {
		const harness = await startHarness();
		try {
			const live = acpLiveSession(harness, harness.workspace);
			const written: ScrollbackEntry[] = [];
			live.onScrollback(entry => written.push(entry));
			const said = (): string => written.flatMap(entry => entry.kind === 'lines' ? entry.lines.map(line => lineText(line)) : []).join('\n');
			await writeFile(path.join(harness.workspace, 'shot.png'), png);
			expect(live.pasteImage(`file://${path.join(harness.workspace, 'shot.png')}`)).toBe(true);
			await until(() => live.getSnapshot().attachments !== undefined);
			live.submit('look at');
			await until(() => said().includes('takes no images'));
			expect(said()).toContain('fake-agent takes no images (its promptCapabilities.image is not true): the message was not sent');
			expect(harness.events.filter(event => event.type === 'user/message')).toEqual([]);
			await live.close();
		} finally {
			await harness.dispose();
		}
	});
});
