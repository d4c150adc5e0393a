import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import type {IndexedEntrySource} from '../../../src/transcript/indexed-entry-source.js';
import {main} from '../../../src/cli/main.js';
import {openPagerSource} from '../../../src/cli/pager/pager-source.js';
import {formatDiagnostic} from '../../../src/session/reader/log-errors.js';
import {fixture, useTempDir} from '../../session/helpers.js';
import {fakeIo} from '../cli-io-fake.js';

let dir: string;
useTempDir(created => {
	dir = created;
});

/** basic.jsonl with damage of several kinds between its lines (a hostile one included). */
function damagedLog(): string {
	const lines = readFileSync(fixture('basic.jsonl'), 'utf8').split('\n').slice(0, -1);
	lines.splice(3, 0, '{"type":"turn/start","seq":', '[1,2,3]');
	lines.splice(8, 0, '{"type":"no/such\\u001b]0;x\\u0007","seq":6,"time":1,"data":{}}');
	lines.push('{"type":"turn/start","seq":40,"time":1790000000100,"data":{"turn":2}}');
	const path = join(dir, 'session.jsonl');
	writeFileSync(path, `${lines.join('\n')}\n`);
	return path;
}

/** What `replay --print` names on stderr, one `FILE:LINE: reason` per damaged line or note (without its count lines). */
async function printModeNames(path: string): Promise<string[]> {
	const io = fakeIo();
	expect(await main(['replay', path, '--print'], io)).toBe(0);
	const lines = io.err().split('\n').filter(line => line !== '');
	const counts = lines.filter(line => line.startsWith('cardterm: '));
	expect(counts[0]).toMatch(/^cardterm: \d+ damaged lines skipped in /);
	return lines.filter(line => !line.startsWith('cardterm: '));
}

describe('the pager sources name damaged lines as print mode does', () => {
	it('a saved file (card index), stdin and watch mode keep every FILE:LINE: reason', async () => {
		const path = damagedLog();
		const expected = await printModeNames(path);
		expect(expected.length).toBeGreaterThanOrEqual(4);
		const shown = (cards: {damage(): {readonly total: number; readonly kept: readonly Parameters<typeof formatDiagnostic>[0][]}}) => cards.damage().kept.map(diagnostic => formatDiagnostic(diagnostic));

		const controller = new AbortController();
		const saved = await openPagerSource(path, {follow: false, signal: controller.signal});
		await (saved.cards as IndexedEntrySource).ready;
		expect(shown(saved.cards)).toEqual(expected);
		expect(saved.cards.damage().total).toBe(expected.length);
		saved.close();

		const stdin = await openPagerSource('-', {follow: false, signal: controller.signal, stdin: Readable.from([readFileSync(path)])});
		await stdin.consuming;
		// The stream has no file name: the same lines under stdin's name.
		expect(shown(stdin.cards)).toEqual(expected.map(line => line.replace(path, '<stdin>')));

		const watched = await openPagerSource(path, {follow: true, signal: controller.signal});
		for (let waited = 0; watched.cards.damage().total < expected.length && waited < 8000; waited += 10) {
			await new Promise(resolve => {
				setTimeout(resolve, 10);
			});
		}

		expect(shown(watched.cards)).toEqual(expected);
		controller.abort();
		await watched.consuming;
	});
});
