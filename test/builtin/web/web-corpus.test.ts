import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {webTools} from '../../../src/builtin/web.js';
import {codeModeTransport} from '../../../src/code-mode/run-code-tool.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {ToolDefinition} from '../../../src/tools/types.js';
import type {ContentBlock} from '../../../src/tools/content.js';

const corpus = join(import.meta.dirname, '../../../../shared/corpus/dsh-sessions');

type Pair = {file: string; name: string; args: unknown; content: ContentBlock[]; isError: boolean; meta?: unknown};

/** Every tool/call + tool/result pair of the corpus, paired by call id. */
function corpusPairs(): Pair[] {
	const pairs: Pair[] = [];
	for (const file of readdirSync(corpus).filter(name => name.endsWith('.jsonl'))) {
		const calls = new Map<string, {name: string; args: unknown}>();
		for (const line of readFileSync(join(corpus, file), 'utf8').split('\n')) {
			let event: {type?: string; data?: Record<string, any>};
			try {
				event = JSON.parse(line) as typeof event;
			} catch {
				continue;
			}

			if (event.type === 'tool/call' && event.data) {
				let args: unknown;
				try {
					args = event.data.arguments === '' ? {} : JSON.parse(event.data.arguments as string);
				} catch {
					continue;
				}

				calls.set(event.data.callId as string, {name: event.data.name as string, args});
			} else if (event.type === 'tool/result' && event.data) {
				const block = event.data.message?.content?.[0];
				const call = calls.get(event.data.message?.source?.callId as string);
				if (call !== undefined && block !== undefined) {
					pairs.push({file, ...call, content: block.content as ContentBlock[], isError: block.isError === true, ...('meta' in event.data ? {meta: event.data.meta} : {})});
				}
			}
		}
	}

	return pairs;
}

const hasCorpus = existsSync(corpus);

if (hasCorpus) {
	describe('web and run_code presenters over the dsh corpus', () => {
		const tools = new Map<string, ToolDefinition>([...webTools({env: {}}), codeModeTransport({executor: new ToolRegistry()})].map(tool => [tool.name, tool]));
		const pairs = corpusPairs().filter(pair => tools.has(pair.name));

		test('the corpus holds web_fetch and run_code calls', () => {
			expect([...new Set(pairs.map(pair => pair.name))].sort()).toEqual(['run_code', 'web_fetch']);
		});

		test('every call gets a call view and every successful web result with meta gets a result view', () => {
			const misses: string[] = [];
			for (const pair of pairs) {
				const tool = tools.get(pair.name)!;
				if (tool.presentCall?.(pair.args) === undefined) {
					misses.push(`${pair.file}: ${pair.name} call`);
				}

				if (pair.name !== 'run_code' && !pair.isError && pair.meta !== undefined && tool.presentResult?.(pair.args, pair) === undefined) {
					misses.push(`${pair.file}: ${pair.name} result`);
				}
			}

			expect(misses).toEqual([]);
		});

		test('the fetched menu page of the corpus presents as its spec card', () => {
			const fetch = pairs.find(pair => pair.name === 'web_fetch' && !pair.file.startsWith('old--'))!;
			expect(tools.get('web_fetch')!.presentResult?.(fetch.args, fetch)).toEqual({
				card: 'web',
				kind: 'fetch',
				title: 'http://127.0.0.1:43117/menu.html',
				url: 'http://127.0.0.1:43117/menu.html',
				statusCode: 200,
				truncated: false,
			});
		});
	});
} else {
	test('the dsh corpus is absent, so the corpus presenter test did not run', () => {
		console.warn(`corpus presenter test not run: no corpus at ${corpus}`);
		expect(hasCorpus).toBe(false);
	});
}
