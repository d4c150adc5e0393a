/**
Regression: a tool call whose argument string nests 100 000 levels deep made `cardterm replay --json`
exit 1 with "Maximum call stack size exceeded" (JSON.stringify of the generic card's parsed input).
Arguments too deep to serialise again now count as unparsable, so the card shows the raw string.
*/
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {parseArguments} from '../../src/presentation/call-view.js';
import {DEEP_LEVELS, deepJson} from './log-mutations.js';
import {checkBoth} from './replay-check.js';

const dir = mkdtempSync(join(tmpdir(), 'cardterm-deep-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe('deeply nested call arguments', () => {
	it('are unparsable when too deep to serialise again, and parse at an ordinary depth', () => {
		expect(parseArguments(deepJson(DEEP_LEVELS, 'array'))).toEqual({ok: false});
		expect(parseArguments(deepJson(DEEP_LEVELS, 'object'))).toEqual({ok: false});
		expect(parseArguments(deepJson(1000, 'array')).ok).toBe(true);
		expect(parseArguments(JSON.stringify({text: '['.repeat(5000)}))).toEqual({ok: true, value: {text: '['.repeat(5000)}});
	});

	it('replays tool calls whose arguments nest 100 000 levels deep, in --json and --print', async () => {
		const header = JSON.stringify({type: 'session', version: 0, id: 's', createdAt: 1, cwd: '/w'});
		for (const [name, nesting] of [['nope', 'object'], ['read', 'array'], ['todo_write', 'object']] as const) {
			const args = name === 'read' ? `{"file_path":${deepJson(DEEP_LEVELS, nesting)}}` : deepJson(DEEP_LEVELS, nesting);
			const call = JSON.stringify({type: 'tool/call', seq: 0, time: 1, data: {callId: 'c1', name, arguments: args}});
			const result = JSON.stringify({type: 'tool/result', seq: 1, time: 2, data: {message: {role: 'user', source: {kind: 'tool', callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', content: [{type: 'text', text: 'ok'}], isError: false}]}}});
			// sequential for readable failures
			expect([name, await checkBoth(dir, Buffer.from(`${header}\n${call}\n${result}\n`), `${name} with deep arguments`)]).toEqual([name, 'replayed']);
		}
	});

});
