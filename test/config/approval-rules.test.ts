import {describe, expect, it} from 'vitest';
import {askReason} from '../../src/config/approval-rules.js';

const rules = [{tool: 'bash'}, {tool: ['write', 'edit'], outside: 'src/'}];

describe('askReason', () => {
	it('asks before every call of a tool named without a directory', () => {
		expect(askReason(rules, 'bash', {command: 'ls'}, '/p')).toBe('the config asks before bash');
	});

	it('asks before a write outside the named directory only', () => {
		expect(askReason(rules, 'write', {file_path: 'src/a.ts'}, '/p')).toBeUndefined();
		expect(askReason(rules, 'write', {file_path: 'README.md'}, '/p')).toBe('the config asks before write outside src/');
		expect(askReason(rules, 'edit', {file_path: '/p/src/../x.ts'}, '/p')).toBe('the config asks before edit outside src/');
	});

	it('leaves other tools alone', () => {
		expect(askReason(rules, 'read', {file_path: '/etc/passwd'}, '/p')).toBeUndefined();
	});
});
