/**
`@` references reach an ACP agent (issue 31): through the ACP driver, as embedded `resource` blocks
when the agent's `promptCapabilities` say `embeddedContext`, else as `resource_link`s; the scripted
agent answers with the blocks it received. The log records what was sent, and reads back the same.
*/
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {acpDriver} from '../../src/live/acp-driver.js';
import type {UserEntry} from '../../src/presentation/entry.js';
import {replayLog, startHarness, type Harness} from './acp-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

/** Runs `text` through the ACP driver as the live session does; the agent's answer and the person's entry. */
async function send(text: string): Promise<{readonly blocks: unknown[]; readonly user: UserEntry}> {
	const driver = acpDriver({client: harness!.client, cwd: harness!.workspace, onEvent: listener => harness!.session.log.listen(listener), closeLog: async () => {}});
	await driver.run({kind: 'prompt', text}, new AbortController().signal);
	const entries = harness!.session.fold.entries;
	const answer = entries.findLast(entry => entry.entry === 'assistant');
	const user = entries.findLast(entry => entry.entry === 'user');
	return {blocks: JSON.parse(answer?.entry === 'assistant' ? answer.text : 'null') as unknown[], user: user as UserEntry};
}

describe('@ references to an ACP agent', () => {
	it('an agent that takes embedded context gets each file as a resource with its text', async () => {
		harness = await startHarness({flags: ['--embedded']});
		const {blocks, user} = await send('blocks @notes.md:2-2 and @gone.md');
		const uri = `file://${path.join(harness.workspace, 'notes.md')}`;
		expect(blocks).toEqual([{type: 'resource', resource: {uri, mimeType: 'text/plain', text: `<path>${path.join(harness.workspace, 'notes.md')}</path>\n<type>file</type>\n<content>\n2: - DEBUG is on\n\n(Showing lines 2-2 of 3. Use offset=3 to continue.)\n</content>`}}]);
		expect(user.text).toBe('blocks @notes.md:2-2 and @gone.md');
		expect(user.references).toEqual([
			{token: 'notes.md:2-2', kind: 'file', attached: expect.objectContaining({lines: 1, range: {start: 2, end: 2}}) as unknown},
			{token: 'gone.md', refused: 'not found'},
		]);
		await harness.close();
		const replay = await replayLog(harness.logPath, harness.workspace);
		expect(replay.fold.entries.find(entry => entry.entry === 'user')).toEqual(user);
	});

	it('an agent without embedded context gets resource links, and the row says so', async () => {
		harness = await startHarness();
		const {blocks, user} = await send('blocks @config.ts:1-1');
		expect(blocks).toEqual([{type: 'resource_link', uri: `file://${path.join(harness.workspace, 'config.ts')}`, name: 'config.ts:1-1', description: 'lines 1-1'}]);
		expect(user.references).toEqual([expect.objectContaining({token: 'config.ts:1-1', linked: true}) as unknown]);
	});
});
