import {describe, expect, it} from 'vitest';
import {acpToolName, cardKind, presentAcpCall, presentAcpResult, type AcpCallArguments} from '../../src/acp/acp-presenter.js';
import {mergeToolCall, newToolCall} from '../../src/acp/tool-call-state.js';

const args = (fields: Partial<AcpCallArguments>): AcpCallArguments => ({title: 'T', kind: 'other', content: [], locations: [], ...fields});
const ok = (call: AcpCallArguments, final: Partial<AcpCallArguments> & {status?: string; rawOutput?: unknown}, extra: Record<string, unknown> = {}) =>
	presentAcpResult(call, {content: [], isError: false, meta: {acp: {...call, status: 'completed', ...final}, ...extra}});

describe('the ACP card presenter', () => {
	it('reads a new file\'s diff with oldText absent, null or "" as a whole-file diff', () => {
		for (const oldText of [undefined, null, '']) {
			const state = newToolCall('x', {title: 'Write a', kind: 'edit', content: [{type: 'diff', path: 'a', newText: 'new\n', ...(oldText === undefined ? {} : {oldText})}]});
			expect(presentAcpCall(args({title: state.title, kind: state.kind, content: state.content}))).toEqual({card: 'diff', title: 'Write a', diffs: [{path: 'a', oldText: null, newText: 'new\n'}]});
		}
	});

	it('draws an execute call as a terminal titled by its command; Codex\'s rawOutput is its output', () => {
		const call = args({title: 'Run tests', kind: 'execute', rawInput: {command: ['npm', 'test']}});
		expect(presentAcpCall(call)).toEqual({card: 'terminal', title: 'npm test', description: 'Run tests'});
		expect(ok(call, {rawOutput: {formatted_output: 'PASS\n', exit_code: 1}})).toEqual({card: 'terminal', output: 'PASS\n', exitCode: 1});
		expect(ok(call, {}, {terminal: {output: 'x', signal: 'SIGKILL'}})).toEqual({card: 'terminal', output: 'x', signal: 'SIGKILL'});
		// No output anywhere (Gemini): the raw result, generic.
		expect(ok(call, {})).toEqual({card: 'generic'});
	});

	it('keeps the icon kinds cardterm has and calls the others `other`; a retitled call keeps its new title', () => {
		expect(presentAcpCall(args({kind: 'think', rawInput: {thought: 'hm'}}))).toEqual({card: 'generic', title: 'T', kind: 'other', rawInput: {thought: 'hm'}});
		expect(cardKind('fetch')).toBe('fetch');
		expect(acpToolName('switch_mode')).toBe('acp_switch_mode');
		expect(acpToolName('Bad Kind!')).toBe('acp_other');
		expect(ok(args({kind: 'read'}), {title: 'Read a.ts (1-20)', content: [{type: 'text', text: 'body'}]})).toEqual({card: 'generic', title: 'Read a.ts (1-20)', content: [{type: 'text', text: 'body'}]});
	});

	it('a failed call is generic (the agent\'s text as raw content), also when it carried a diff', () => {
		const call = args({kind: 'edit', content: [{type: 'diff', path: 'a', oldText: 'x', newText: 'y'}]});
		expect(presentAcpResult(call, {content: [{type: 'text', text: 'denied'}], isError: true, meta: {acp: {...call, status: 'failed'}}})).toEqual({card: 'generic'});
	});

	it('declines arguments and meta that are not an ACP call\'s', () => {
		expect(presentAcpCall({title: 1})).toBeUndefined();
		expect(presentAcpResult(args({}), {content: [], isError: false, meta: {diffs: []}})).toBeUndefined();
	});

	it('merges updates: a list replaces the list, an absent or null field stays, _meta accumulates', () => {
		const first = newToolCall('x', {title: 'A', kind: 'read', locations: [{path: '/a', line: 3}], _meta: {one: 1}});
		const next = mergeToolCall(first, {title: null, kind: undefined, locations: [{path: '/b', line: 0}], _meta: {two: 2}, rawInput: {p: 1}});
		expect(next).toEqual({toolCallId: 'x', title: 'A', kind: 'read', status: 'pending', content: [], locations: [{path: '/b'}], rawInput: {p: 1}, meta: {one: 1, two: 2}});
	});
});
