/**
The redaction of secret values from events (`secret-redactor.ts`): every string of every event, the
value as it is and as JSON escapes it, live output split anywhere, and nothing else touched.
*/
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {EventDraft} from '../../../src/session/events/event-log.js';
import {EventLog} from '../../../src/session/events/event-log.js';
import {SecretRedactor} from '../../../src/session/events/secret-redactor.js';
import {fuzzCases, fuzzSeed} from '../../reliability/hostile-text.js';

const KEY = 'sk-live-0123456789abcdef';
const redactor = (): SecretRedactor => new SecretRedactor([{name: 'OPENAI_API_KEY', value: KEY}, {name: 'ODD', value: 'pa"ss\\word\n123'}]);

const progress = (callId: string, text: string, stream = 'stdout'): EventDraft => ({type: 'cardterm/tool-progress', data: {callId, stream, text}, ignorable: true});

describe('redacting secret values', () => {
	it('replaces a value in every string of an event, named by its variable, and leaves the rest as it was (the same objects)', () => {
		const call: EventDraft = {type: 'tool/call', data: {turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: JSON.stringify({command: `curl -H "x: ${KEY}" ${KEY}`})}};
		const redacted = redactor().redactEvent(call);
		expect(redacted.data).toEqual({turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: JSON.stringify({command: 'curl -H "x: [REDACTED:OPENAI_API_KEY]" [REDACTED:OPENAI_API_KEY]'})});
		const result: EventDraft = {type: 'tool/result', data: {message: {source: {callId: 'c1'}, content: [{type: 'tool-result', toolCallId: 'c1', isError: true, content: [{type: 'text', text: `401 for ${KEY}`}, {type: 'text', text: 'fine'}]}]}, error: {name: 'E', code: 'X', message: `bad key ${KEY}`}}};
		const out = redactor().redactEvent(result) as typeof result;
		expect(JSON.stringify(out)).not.toContain(KEY);
		expect(out.data.message.content[0]!.content[1]).toBe(result.data.message.content[0]!.content[1]);
		const clean: EventDraft = {type: 'turn/start', data: {turn: 1}};
		expect(redactor().redactEvent(clean)).toBe(clean);
	});

	it('finds a value with quotes, backslashes and newlines as it is and inside JSON text', () => {
		const odd = 'pa"ss\\word\n123';
		const r = redactor();
		expect(r.redactText(`a ${odd} b`)).toBe('a [REDACTED:ODD] b');
		expect(r.redactText(JSON.stringify({v: odd}))).toBe('{"v":"[REDACTED:ODD]"}');
		expect(JSON.parse(r.redactText(JSON.stringify({v: `x${odd}y`}))) as unknown).toEqual({v: 'x[REDACTED:ODD]y'});
	});

	it('leaves values too short to be keys alone (they would cut through words)', () => {
		const r = new SecretRedactor([{name: 'SHORT', value: 'abc'}]);
		expect(r.active).toBe(false);
		expect(r.redactText('abc abcd')).toBe('abc abcd');
	});

	it('holds back the end of a live piece that could begin a value, per call and stream: however the output is cut, the pieces shown are the redacted output less a held end shorter than a key', () => {
		// Text made of the key's own characters, so near misses and overlaps (`sk-sk-live-0…`) are common.
		const near = fc.string({unit: fc.constantFrom(...'sk-live-0123xy'), maxLength: 40});
		fc.assert(fc.property(near, fc.boolean(), near, fc.array(fc.nat({max: 120}), {maxLength: 8}), (before, withKey, after, cuts) => {
			const r = redactor();
			const text = `${before}${withKey ? KEY : ''}${after}`;
			const points = [...new Set(cuts.map(cut => Math.min(cut, text.length)))].sort((a, b) => a - b);
			let shown = '';
			let other = '';
			let at = 0;
			for (const point of [...points, text.length]) {
				shown += (r.redactEvent(progress('c1', text.slice(at, point))).data as {text: string}).text;
				// Another call's stream, interleaved, is held apart.
				other += (r.redactEvent(progress('c2', 'sk-', 'stderr')).data as {text: string}).text;
				at = point;
			}

			const whole = redactor().redactText(text);
			expect(whole.startsWith(shown)).toBe(true);
			expect(whole.length - shown.length).toBeLessThan(KEY.length);
			expect(shown).not.toContain(KEY);
			expect(other).toBe('sk-'.repeat(points.length));
		}), {numRuns: fuzzCases(300), seed: fuzzSeed()});
	});

	it('gives back held text that did not begin a value with the next piece; a result forgets what its call held', () => {
		const r = redactor();
		expect((r.redactEvent(progress('c1', 'total: sk-')).data as {text: string}).text).toBe('total: ');
		expect((r.redactEvent(progress('c1', 'ip\n')).data as {text: string}).text).toBe('sk-ip\n');
		expect((r.redactEvent(progress('c1', 'then sk-live')).data as {text: string}).text).toBe('then ');
		r.redactEvent({type: 'tool/result', data: {message: {source: {callId: 'c1'}, content: []}}});
		expect((r.redactEvent(progress('c1', 'next')).data as {text: string}).text).toBe('next');
	});

	it('redacts a key of kilobytes (a PEM) split across pieces anywhere, lines and all', () => {
		const pem = `-----BEGIN PRIVATE KEY-----\n${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'.repeat(90)}\n-----END PRIVATE KEY-----`;
		const r = new SecretRedactor([{name: 'DEPLOY_KEY', value: pem}]);
		const text = `key:\n${pem}\nok\n`;
		for (const cut of [1, 30, 1500, text.length - 5]) {
			const first = (r.redactEvent(progress('c1', text.slice(0, cut))).data as {text: string}).text;
			const second = (r.redactEvent(progress('c1', text.slice(cut))).data as {text: string}).text;
			expect(first + second).toBe('key:\n[REDACTED:DEPLOY_KEY]\nok\n');
		}
	});

	it('runs in the event log before the writer and every listener, so the log and the screens see the same redacted event', () => {
		const r = redactor();
		const recorded: unknown[] = [];
		const heard: unknown[] = [];
		const log = new EventLog({redact: draft => r.redactEvent(draft), record: draft => {
			recorded.push(draft.data);
			return {...draft, seq: 0} as never;
		}});
		log.listen(event => heard.push(event.data));
		log.emit({type: 'user/message', data: {content: `my key is ${KEY}`}});
		expect(recorded).toEqual([{content: 'my key is [REDACTED:OPENAI_API_KEY]'}]);
		expect(heard).toEqual(recorded);
	});
});
