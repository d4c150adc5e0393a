/**
Regression: a tool call whose argument string nests 100 000 levels deep made `cardterm replay --json`
exit 1 with "Maximum call stack size exceeded" (JSON.stringify of the generic card's parsed input).
Arguments past the bounds of `call-arguments.ts` (64 levels, 100 000 arrays and objects: issue 16's
5 000 levels broke the model library's request, and 16 M arrays in a string took 1.7 GB to replay)
count as unparsable, so the card shows the raw string.
*/
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {parseArguments} from '../../src/presentation/call-view.js';
import {ARGUMENT_MAX_CONTAINERS, ARGUMENT_MAX_DEPTH} from '../../src/tools/call-arguments.js';
import {DEEP_LEVELS, deepJson} from './log-mutations.js';
import {checkBoth} from './replay-check.js';

const dir = mkdtempSync(join(tmpdir(), 'cardterm-deep-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe('deeply nested call arguments', () => {
	it(`are unparsable past ${ARGUMENT_MAX_DEPTH} levels or ${ARGUMENT_MAX_CONTAINERS} arrays and objects, and parse within them`, () => {
		expect(parseArguments(deepJson(DEEP_LEVELS, 'array'))).toEqual({ok: false});
		expect(parseArguments(deepJson(DEEP_LEVELS, 'object'))).toEqual({ok: false});
		expect(parseArguments(deepJson(ARGUMENT_MAX_DEPTH + 1, 'array'))).toEqual({ok: false});
		expect(parseArguments(deepJson(ARGUMENT_MAX_DEPTH, 'array')).ok).toBe(true);
		expect(parseArguments(deepJson(ARGUMENT_MAX_DEPTH, 'object')).ok).toBe(true);
		expect(parseArguments(`[${'[],'.repeat(ARGUMENT_MAX_CONTAINERS)}1]`)).toEqual({ok: false});
		expect(parseArguments(`[${'[],'.repeat(ARGUMENT_MAX_CONTAINERS - 1)}1]`).ok).toBe(true);
		// Brackets inside strings are text, not nesting.
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
