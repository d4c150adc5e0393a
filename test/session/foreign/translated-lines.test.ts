import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ForeignLogLines} from '../../../src/session/foreign/foreign-log-lines.js';
import type {TranslatedLine} from '../../../src/session/foreign/contract-lines.js';

const fixtures = join(import.meta.dirname, '../../fixtures/foreign-sessions');
const files = (dir: string): string[] => readdirSync(dir).flatMap(name => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)])).filter(path => /\.jsonl?$/.test(path));

/** Every line a file translates into, as the log reader gets them. */
function translated(path: string): TranslatedLine[] {
	const lines = readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
	const reader = lines[0]!.trim() === '{' ? ForeignLogLines.document() : ForeignLogLines.detect(lines[0]!);
	if (reader === undefined) {
		return []; // Not a session (Claude Code's subagent metadata beside its transcript).
	}

	return [...lines.flatMap(line => reader.line(line)), ...reader.end()];
}

describe('the contract lines a foreign reader makes', () => {
	it('hand the decoder values that are exactly their text parsed, for every fixture the agents wrote', () => {
		const all = files(fixtures);
		expect(all.length).toBeGreaterThan(6);
		let valued = 0;
		for (const path of all) {
			for (const line of translated(path)) {
				if (line.value !== undefined) {
					// The text is written from the value when read: the same JSON.
					valued++;
					// Strict: an undefined field, NaN or a shared prototype in the value would differ from the text's parse.
					expect(line.value, path).toStrictEqual(JSON.parse(line.text));
				}
			}
		}

		expect(valued).toBeGreaterThan(150);
	});
});
