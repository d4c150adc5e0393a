import {describe, expect, it} from 'vitest';
import {parseArgs, positiveInt, UsageError} from '../../../src/cli/environment/parse-args.js';

const specs = [{name: 'json'}, {name: 'width', value: true}, {name: 'plugin', value: true, repeat: true}];

describe('parseArgs', () => {
	it('separates positionals from declared flags', () => {
		const parsed = parseArgs(['log.jsonl', '--json', '--width', '80', '--plugin=a.mjs', '--plugin', 'b.mjs'], specs, 'replay');
		expect(parsed.positionals).toEqual(['log.jsonl']);
		expect(parsed.flags.get('json')).toBe(true);
		expect(positiveInt(parsed, 'width', 'replay')).toBe(80);
		expect(parsed.repeated.get('plugin')).toEqual(['a.mjs', 'b.mjs']);
	});

	it('names an unknown flag in a usage error', () => {
		expect(() => parseArgs(['--colour'], specs, 'replay')).toThrow(new UsageError('replay: unknown flag --colour (see cardterm replay --help)'));
	});

	it('rejects a missing flag value and a bad width', () => {
		expect(() => parseArgs(['--width'], specs, 'replay')).toThrow('replay: flag --width needs a value');
		expect(() => positiveInt(parseArgs(['--width', '0'], specs, 'replay'), 'width', 'replay')).toThrow('replay: --width must be a positive integer, got 0');
	});

	it('treats a lone dash as stdin and everything after -- as positionals', () => {
		expect(parseArgs(['-', '--', '--json'], specs, 'replay').positionals).toEqual(['-', '--json']);
	});
});
