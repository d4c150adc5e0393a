import {mkdtemp} from 'node:fs/promises';
import {cardsOf} from '../../src/presentation/entry.js';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {openIndexedEntrySource} from '../../src/transcript/indexed-entry-source.js';
import {openSession} from '../../src/host/open-session.js';
import {liveSessionFor} from './live-session-harness.js';

describe('interactive session memory', () => {
	it('releases settled cards once written to the scrollback, and the pager reads them back from the log', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-release-'));
		const session = await openSession({cwd: workspace, logPath: join(workspace, 'session.jsonl'), releaseWritten: () => true});
		const written: string[] = [];
		const controller = liveSessionFor(session, {
			async pagerSource() {
				await session.flush();
				return openIndexedEntrySource(session.logPath!, {presenters: () => name => session.registry.get(name), tail: false});
			},
		});
		const settled = new Promise<void>(resolve => {
			controller.onScrollback(entry => {
				if (entry.kind === 'entry' && entry.entry.entry === 'card') {
					const {card} = entry.entry;
					written.push(card.resultView?.card === 'terminal' ? card.resultView.output ?? '' : '');
					resolve();
				}
			});
		});
		controller.submit('!printf "kept in the log"');
		await settled;
		expect(written).toEqual(['kept in the log']);
		expect(cardsOf(session.fold.entries)[0]).toMatchObject({status: 'ok', argsRaw: '', result: {content: []}, resultView: null});

		const source = await controller.pagerSource();
		await (source as {ready?: Promise<void>}).ready;
		expect(source.count()).toBe(1);
		expect(source.entry(0)).toMatchObject({entry: 'card', card: {status: 'ok', resultView: {card: 'terminal', output: 'kept in the log', exitCode: 0}}});
		await (source as {close?: () => Promise<void>}).close?.();
		await controller.close();
	});
});
