/**
Frame snapshots of every transcript entry kind other than cards (cards have their own inventory):
the person's message, the model's answer (Markdown, reasoning folded and expanded, interrupted),
turn ends, notices and todo lists, with the hard inputs (CJK, a long code block, a table wider
than the terminal, hostile escapes), each at 40/80/120 columns with colour on and off.
File names: `<kind>-<case>[--<expansion>]--w<width>--<color|plain>.frame`.
*/
import {readdirSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {layoutEntry} from '../../../src/layout/entries/layout-entry.js';
import type {Expansion} from '../../../src/layout/text/layout-options.js';
import {lineText, spansWidth} from '../../../src/layout/text/spans.js';
import type {TranscriptEntry} from '../../../src/presentation/entry.js';
import {serializeFrame} from '../../../src/testing/serialize-frame.js';
import {options} from '../helpers.js';
import {WIDTHS} from '../snapshot-cases.js';

const directory = fileURLToPath(new URL('../../../snapshots/entries/', import.meta.url));
const base = {seq: 1, time: 1_790_000_000_000, revision: 0};
const longCode = Array.from({length: 40}, (_, index) => `  const value${index} = compute(${index}); // step ${index}`).join('\n');
const wideTable = '| tool | calls | failures | median | p95 | notes |\n|---|---|---|---|---|---|\n| bash | 1 204 | 17 | 120 ms | 2.3 s | long-running builds dominate the tail |\n| read | 3 310 | 0 | 2 ms | 9 ms | cached |';

type EntryCase = {readonly name: string; readonly entry: TranscriptEntry; readonly expansion?: Expansion; readonly contains: string};

const cases: EntryCase[] = [
	{name: 'user-short', entry: {entry: 'user', ...base, source: 'user', text: 'Turn DEBUG off and check the tests.'}, contains: 'Turn DEBUG off'},
	{name: 'user-multiline-cjk', entry: {entry: 'user', ...base, source: 'user', text: '请检查这个文件的编码问题，并告诉我为什么测试在 CI 上失败。\n\nThen fix it:\n- keep the API\n- add a test'}, contains: '编码'},
	{name: 'user-steering', entry: {entry: 'user', ...base, source: 'steering', text: 'actually, skip the docs'}, contains: 'skip the docs'},
	{name: 'user-image', entry: {entry: 'user', ...base, source: 'user', text: 'Why is the button cut off?', images: [{attachmentId: '0123456789abcdef.png', mediaType: 'image/png', bytes: 312_345, width: 1280, height: 800, name: 'Screen Shot 2026-12-06 at 09.12.44.png'}, {attachmentId: 'fedcba9876543210.jpg', mediaType: 'image/jpeg', bytes: 48_000, width: 640, height: 480, name: 'evil\u001B]0;pwned\u0007.jpg'}]}, contains: 'image · PNG · 312.3 KB · 1280×800'},
	{name: 'user-image-only', entry: {entry: 'user', ...base, source: 'user', text: '', images: [{attachmentId: '0123456789abcdef.webp', mediaType: 'image/webp', bytes: 2_400_000, width: 3024, height: 1964}]}, contains: '› image · WebP · 2.4 MB · 3024×1964'},
	{name: 'user-hostile', entry: {entry: 'user', ...base, source: 'user', text: 'look\u001B]0;pwned\u0007 here\u001B[2J \u202Eevil\u200B'}, contains: 'look'},
	{name: 'assistant-markdown', entry: {entry: 'assistant', ...base, turn: 1, step: 2, text: '## Result\n\nDEBUG is **off**; one test still fails in `src/config.test.ts`:\n\n```ts\nexpect(config.level).toBe(\'warn\')\n```\n\n1. update the test\n2. rerun `npm test`', reasoning: 'The edit worked.\nThe failing test expects the old level.', interrupted: false, streaming: false, preparing: []}, contains: 'DEBUG is'},
	{name: 'assistant-markdown', entry: {entry: 'assistant', ...base, turn: 1, step: 2, text: 'DEBUG is off.', reasoning: 'The edit worked.\nThe failing test expects the old level.', interrupted: false, streaming: false, preparing: []}, expansion: 'full', contains: 'The failing test'},
	{name: 'assistant-long-code', entry: {entry: 'assistant', ...base, text: `Here is the loop:\n\n\`\`\`ts\n${longCode}\n\`\`\``, reasoning: '', interrupted: false, streaming: false, preparing: []}, contains: 'Here is the loop'},
	{name: 'assistant-wide-table', entry: {entry: 'assistant', ...base, text: `Summary:\n\n${wideTable}`, reasoning: '', interrupted: false, streaming: false, preparing: []}, contains: 'bash'},
	{name: 'assistant-streaming', entry: {entry: 'assistant', ...base, turn: 1, step: 1, text: '## Plan\n\nI will **list** the files with `ls` and then read the ones that look like config, starting with', reasoning: 'The user wants a listing.\nStart with ls.', interrupted: false, streaming: true, preparing: ['bash']}, contains: 'preparing bash…'},
	{name: 'assistant-streaming-reasoning', entry: {entry: 'assistant', ...base, turn: 1, step: 1, text: '', reasoning: 'The user wants a listing of the workspace; ls is enough, then the config files.', interrupted: false, streaming: true, preparing: []}, expansion: 'full', contains: 'The user wants'},
	{name: 'assistant-streaming-preparing', entry: {entry: 'assistant', ...base, turn: 1, step: 2, text: '', reasoning: '', interrupted: false, streaming: true, preparing: ['read', 'a_tool_with_a_rather_long_name_from_a_plugin']}, contains: 'preparing read…'},
	{name: 'assistant-streaming-long', entry: {entry: 'assistant', ...base, turn: 1, step: 1, text: Array.from({length: 40}, (_, index) => `Line ${index} of a long answer still arriving.`).join('\n\n'), reasoning: '', interrupted: false, streaming: true, preparing: []}, contains: 'earlier lines'},
	{name: 'assistant-interrupted', entry: {entry: 'assistant', ...base, text: 'I will start by reading', reasoning: '', interrupted: true, streaming: false, preparing: []}, contains: '(interrupted)'},
	{name: 'turn-completed', entry: {entry: 'turn', ...base, turn: 1, outcome: {text: 'completed', failed: false}, durationMs: 12_340, usage: {inputTokens: 12_044, outputTokens: 380}}, contains: 'completed'},
	{name: 'turn-error', entry: {entry: 'turn', ...base, turn: 2, outcome: {text: 'error: rate limited by the provider (429)', failed: true}, durationMs: 800}, contains: 'error: rate limited'},
	// A reason longer than the rule (Anthropic's refusal explanation, fixture anthropic-refusal) is written whole above it.
	{name: 'turn-refused', entry: {entry: 'turn', ...base, turn: 3, outcome: {text: 'blocked: the model refused: This request triggered restrictions on violative cyber content and was blocked under Anthropic\'s Usage Policy.', failed: true}, durationMs: 1_900, usage: {inputTokens: 18, outputTokens: 5}}, contains: 'Usage Policy.'},
	// A model error with its HTTP status and what to do next (fixture body: OpenAI's context_length_exceeded, chathub-dev/chathub#126).
	{name: 'turn-error-advice', entry: {entry: 'turn', ...base, turn: 4, outcome: {text: 'error (HTTP 400): This model\'s maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages. (context_length_exceeded)', failed: true, advice: 'Start a new session, or switch to a model with a larger context window: this conversation no longer fits the model\'s.'}, durationMs: 300}, contains: 'Start a new session'},
	{name: 'notice-plugin', entry: {entry: 'notice', ...base, source: '@acme/system-prompt', summary: 'Current runtime context.', detail: 'Current runtime context.\n\nFile policy: workspace-write.\nApproval prompts are disabled.'}, contains: '@acme/system-prompt'},
	{name: 'notice-plugin', entry: {entry: 'notice', ...base, source: '@acme/system-prompt', summary: 'Current runtime context.', detail: 'Current runtime context.\n\nFile policy: workspace-write.\nApproval prompts are disabled.'}, expansion: 'full', contains: 'File policy'},
	{name: 'notice-hook', entry: {entry: 'notice', ...base, source: 'hook/result', summary: 'hook PreToolUse: block (exit 2) — bash is disabled by policy in this session'}, contains: 'hook PreToolUse'},
	// A compaction: tokens before → after, what was pruned and summarised (seq ranges), the summary and the evidence expanded; escapes in every field.
	{name: 'compaction-auto', entry: {entry: 'compaction', ...base, trigger: 'auto', tokensBefore: 13_112, tokensAfter: 4_980, pruned: {count: 6, tokens: 7_725, range: {start: 52, end: 107}}, summarised: {count: 41, tokens: 6_100, range: {start: 3, end: 118}}, summary: '## Goal\nTurn DEBUG off and keep the tests green.\n## Next steps\nRun \u001B[31mnpm test\u001B[0m again.', evidence: ['Files read: src/config.ts, src/config.test.ts', 'Files changed: src/config.ts (+1 −1)', 'Commands run: `npm test` (exit 1)', 'Failing tests seen: src/config.test.ts > reads level'], focus: 'the failing test', revision: 0}, contains: 'compacted the context (automatic)'},
	{name: 'compaction-auto', entry: {entry: 'compaction', ...base, trigger: 'auto', tokensBefore: 13_112, tokensAfter: 4_980, pruned: {count: 6, tokens: 7_725, range: {start: 52, end: 107}}, summarised: {count: 41, tokens: 6_100, range: {start: 3, end: 118}}, summary: '## Goal\nTurn DEBUG off and keep the tests green.\n## Next steps\nRun \u001B[31mnpm test\u001B[0m again.', evidence: ['Files read: src/config.ts, src/config.test.ts', 'Files changed: src/config.ts (+1 −1)', 'Commands run: `npm test` (exit 1)', 'Failing tests seen: src/config.test.ts > reads level'], focus: 'the failing test', revision: 0}, expansion: 'full', contains: 'Failing tests seen'},
	{name: 'compaction-failed', entry: {entry: 'compaction', ...base, trigger: 'overflow', evidence: [], error: 'the compaction did not shrink the context (9000 → 9100 tokens)', revision: 0}, contains: 'compaction failed'},
	{name: 'todo-list', entry: {entry: 'todo', ...base, items: [{content: 'Turn DEBUG off', status: 'completed'}, {content: 'Fix the failing test in src/config.test.ts, which still expects the old level', status: 'in_progress'}, {content: 'Run the whole suite', status: 'pending'}]}, contains: 'todo · 1 of 3 done'},
];

const expected = new Set<string>();

describe.each(cases)('entry snapshot $name $expansion', ({name, entry, expansion, contains}) => {
	for (const width of WIDTHS) {
		for (const color of [true, false]) {
			const file = `${name}${expansion === undefined ? '' : `--${expansion}`}--w${width}--${color ? 'color' : 'plain'}.frame`;
			expected.add(file);
			it(`draws ${file}`, async () => {
				const lines = layoutEntry(entry, options(width, {color, ...(expansion === undefined ? {} : {expansion})}));
				expect(lines.every(line => spansWidth(line.spans) <= width)).toBe(true);
				const plain = lines.map(line => lineText(line)).join('');
				expect(plain).toContain(width === 40 && name.startsWith('turn') ? contains.slice(0, 8) : contains);
				// no raw control character may reach a row
				expect(plain).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u200B\u202E]/);
				await expect(serializeFrame(lines, `# entry snapshot ${file}`)).toMatchFileSnapshot(`${directory}${file}`);
			});
		}
	}
});

describe('entry snapshot inventory', () => {
	it('holds exactly one committed frame per case, with no orphans', () => {
		const present = readdirSync(directory).filter(file => file.endsWith('.frame')).sort();
		expect({missing: [...expected].filter(file => !present.includes(file)), orphans: present.filter(file => !expected.has(file))}).toEqual({missing: [], orphans: []});
	});
});
