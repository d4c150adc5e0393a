/**
Regression (promise 1): JSON output goes to the user's terminal too. JSON.stringify escapes only C0
controls, so `replay --json` and `sessions --json` wrote 8-bit C1 controls (U+009B CSI, U+009D
OSC), DEL, bidi overrides and line separators from the log raw. They are now written as `\uXXXX`
escapes: the JSON parses back to the same strings, and the terminal sees only ASCII escapes.
*/
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {stringifyForTerminal} from '../../src/layout/text/sanitize.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {scanTerminalOutput} from './escape-scanner.js';

const dir = mkdtempSync(join(tmpdir(), 'cardterm-json-'));
const hostile = 'a\u009B2J\u009D0;pwned\u009C\u007F\u202Eevil\u2066\u2028\u00ADz';

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

function logText(title: string): string {
	const header = {type: 'session', version: 0, id: 's1', createdAt: 1_790_000_000_000, cwd: dir, title};
	const call = {type: 'tool/call', seq: 0, time: 1_790_000_000_001, data: {callId: 'c1', name: 'nope', arguments: JSON.stringify({text: hostile})}};
	const result = {type: 'tool/result', seq: 1, time: 1_790_000_000_002, data: {message: {role: 'user', source: {kind: 'tool', callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', content: [{type: 'text', text: hostile}], isError: false}]}}};
	return [header, call, result].map(line => `${JSON.stringify(line)}\n`).join('');
}

describe('JSON written to a terminal', () => {
	it('escapes C1 controls, DEL, bidi controls and separators and still parses to the same value', () => {
		const value = {text: hostile, nested: [hostile]};
		const text = stringifyForTerminal(value);
		expect(text).toBe('{"text":"a\\u009b2J\\u009d0;pwned\\u009c\\u007f\\u202eevil\\u2066\\u2028\\u00adz","nested":["a\\u009b2J\\u009d0;pwned\\u009c\\u007f\\u202eevil\\u2066\\u2028\\u00adz"]}');
		expect(JSON.parse(text)).toEqual(value);
	});

	it('from replay --json holds no raw control or bidi character', async () => {
		const path = join(dir, 'hostile.jsonl');
		writeFileSync(path, logText('t'));
		const io = fakeIo({env: {}});
		expect(await main(['replay', path, '--json'], io)).toBe(0);
		expect(scanTerminalOutput(io.out(), {hyperlinks: false, inkCursor: false}).violations).toEqual([]);
		expect(/[\u0080-\u009F\u00AD\u2028\u202E\u2066]/.test(io.out())).toBe(false);
		expect((JSON.parse(io.out()) as {call: {rawInput: unknown}}).call.rawInput).toEqual({text: hostile});
	});

	it('from sessions --json holds no raw control or bidi character from a session title', async () => {
		const root = join(dir, 'sessions');
		mkdirSync(join(root, 's1'), {recursive: true});
		writeFileSync(join(root, 's1', 'session.jsonl'), logText(hostile));
		const io = fakeIo({env: {CARDTERM_SESSION_DIR: root}, cwd: dir});
		expect(await main(['sessions', '--json'], io)).toBe(0);
		expect(io.out()).toContain('\\u202eevil');
		expect(scanTerminalOutput(io.out(), {hyperlinks: false, inkCursor: false}).violations).toEqual([]);
		expect(/[\u0080-\u009F\u00AD\u2028\u202E\u2066]/.test(io.out())).toBe(false);
	});
});
