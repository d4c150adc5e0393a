import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {openFrameTrace} from '../../src/acp/frame-trace.js';
import {startHarness, type Harness} from './acp-harness.js';

let harness: Harness | undefined;
let folder: string | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
	if (folder !== undefined) {
		await rm(folder, {recursive: true, force: true});
		folder = undefined;
	}
});

type TracedLine = {dir: string; ms: number; line: string};

describe('the frame trace (CARDTERM_ACP_TRACE)', () => {
	it('records every frame in and out, in order, malformed lines raw, and is closed with the session', async () => {
		folder = await mkdtemp(path.join(tmpdir(), 'cardterm-trace-'));
		const file = path.join(folder, 'trace.jsonl');
		harness = await startHarness({trace: openFrameTrace(file)});
		await harness.client.prompt('malformed');
		await harness.dispose();
		harness = undefined;
		const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').map(line => JSON.parse(line) as TracedLine);
		const methodOf = (line: TracedLine): string | undefined => {
			try {
				return (JSON.parse(line.line) as {method?: string}).method;
			} catch {
				return undefined;
			}
		};

		const outMethods = lines.filter(line => line.dir === 'out').map(line => methodOf(line)).filter(method => method !== undefined);
		expect(outMethods).toEqual(['initialize', 'session/new', 'session/prompt']);
		const incoming = lines.filter(line => line.dir === 'in').map(line => line.line);
		expect(incoming).toContain('this is not json');
		expect(incoming.some(line => line.includes('"session/update"') && line.includes('Still here.'))).toBe(true);
		// The prompt goes out before anything of its turn comes in.
		const prompt = lines.findIndex(line => line.dir === 'out' && methodOf(line) === 'session/prompt');
		const bad = lines.findIndex(line => line.line === 'this is not json');
		expect(prompt).toBeLessThan(bad);
		expect(lines.every(line => typeof line.ms === 'number')).toBe(true);
	});
});
