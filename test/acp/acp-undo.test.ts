/**
`/undo` and `/redo` of an ACP agent's writes: cardterm performs the agent's `fs/write_text_file`, so
it takes those writes back as a native session's — a file the agent created goes away, an edit whose
write went through the client is reverted — and the agent is told with the next prompt.
*/
import {execFileSync} from 'node:child_process';
import {access, readFile} from 'node:fs/promises';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {lineText} from '../../src/layout/text/spans.js';
import {acpLiveSession} from '../../src/live/acp-driver.js';
import {cardsOf} from '../../src/presentation/entry.js';
import {until} from '../live/live-session-harness.js';
import {replayLog, startHarness} from './acp-harness.js';

const exists = async (file: string): Promise<boolean> => access(file).then(() => true, () => false);

describe('/undo of an ACP agent\'s writes', () => {
	it('takes back a write through the client and a created file, turn by turn; tells the agent; live == replay', async () => {
		const harness = await startHarness();
		try {
			execFileSync('git', ['init', '--quiet'], {cwd: harness.workspace});
			const live = acpLiveSession(harness, harness.workspace, {shadowDir: path.join(harness.base, 'shadow')});
			const written: ScrollbackEntry[] = [];
			live.onScrollback(entry => written.push(entry));
			const said = (): string[] => written.flatMap(entry => entry.kind === 'lines' ? [entry.lines.map(line => lineText(line)).join('\n')] : []);
			const turns = (): number => harness.session.fold.entries.filter(entry => entry.entry === 'turn').length;
			const run = async (line: string): Promise<void> => {
				const before = turns();
				live.submit(line);
				await until(() => turns() > before);
			};

			const command = async (line: string): Promise<string> => {
				const before = said().length;
				live.submit(line);
				await until(() => said().length > before && live.getSnapshot().queue.length === 0);
				return said().slice(before).join('\n');
			};

			const config = path.join(harness.workspace, 'config.ts');
			const original = await readFile(config, 'utf8');
			await run('fs');
			await run('fs-edit');
			expect(await readFile(config, 'utf8')).toBe(original.replace('DEBUG = true', 'DEBUG = false'));
			expect(await exists(path.join(harness.workspace, 'out/new.txt'))).toBe(true);

			expect(await command('/undo')).toBe('undid the file changes of the last turn: config.ts');
			expect(await readFile(config, 'utf8')).toBe(original);
			expect(await command('/undo')).toBe('undid the file changes of the last turn: out/new.txt');
			expect(await exists(path.join(harness.workspace, 'out/new.txt'))).toBe(false);
			expect(await command('/redo')).toBe('redid the last undo: out/new.txt');
			expect(await readFile(path.join(harness.workspace, 'out/new.txt'), 'utf8')).toBe('fresh\n');

			// The agent hears of it with the next prompt (the fake agent echoes what it was sent).
			await run('hello');
			const answer = harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : []).at(-1) ?? '';
			expect(answer).toContain('A note from cardterm, not a message from the person');
			expect(answer).toContain('The person undid the file changes of the last turn. These files are now as they were before:\n- config.ts');
			expect(answer).toContain('The person redid what their last undo took back');
			expect(answer.endsWith('</system-reminder>\nhello')).toBe(true);

			const shown = (card: ReturnType<typeof cardsOf>[number]) => ({name: card.name, status: card.status, callView: card.callView, resultView: card.resultView});
			const liveCards = cardsOf(harness.session.fold.entries).map(card => shown(card));
			expect(liveCards.filter(card => card.name === 'cardterm_undo').map(card => card.resultView?.card === 'diff' ? card.resultView.title : undefined)).toEqual([
				'Undo acp write config.ts', 'Undo write out/new.txt', 'Redo write out/new.txt',
			]);
			await live.close();
			const replay = await replayLog(harness.logPath, harness.workspace);
			expect(replay.diagnostics).toEqual([]);
			expect(cardsOf(replay.fold.entries).map(card => shown(card))).toEqual(liveCards);
		} finally {
			await harness.dispose();
		}
	});
	it('takes back what a command in the agent\'s terminal changed, from the shadow snapshots', async () => {
		const harness = await startHarness();
		try {
			// The shadow snapshots a git work tree only.
			execFileSync('git', ['init', '--quiet'], {cwd: harness.workspace});
			const live = acpLiveSession(harness, harness.workspace, {shadowDir: path.join(harness.base, 'shadow')});
			const written: ScrollbackEntry[] = [];
			live.onScrollback(entry => written.push(entry));
			const said = (): string[] => written.flatMap(entry => entry.kind === 'lines' ? [entry.lines.map(line => lineText(line)).join('\n')] : []);
			const notes = path.join(harness.workspace, 'notes.md');
			const original = await readFile(notes, 'utf8');
			live.submit('term-write');
			await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
			expect(await readFile(notes, 'utf8')).toBe(`${original}changed\n`);
			const before = said().length;
			live.submit('/undo');
			await until(() => said().length > before && live.getSnapshot().queue.length === 0);
			expect(said().slice(before)).toEqual(['undid the file changes of the last turn: built.txt, notes.md']);
			expect(await readFile(notes, 'utf8')).toBe(original);
			expect(await exists(path.join(harness.workspace, 'built.txt'))).toBe(false);
			expect(cardsOf(harness.session.fold.entries).filter(card => card.name === 'cardterm_undo').map(card => card.resultView?.card === 'diff' ? card.resultView.title : undefined)).toEqual(['Undo command built.txt', 'Undo command notes.md']);
			await live.close();
		} finally {
			await harness.dispose();
		}
	});
});
