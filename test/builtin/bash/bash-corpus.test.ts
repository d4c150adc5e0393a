/**
The bash, todo and job presenters over real logs of another producer: every call view is defined,
and every successful bash result that carries its required description gets a result view.
Runs when ../shared/corpus/dsh-sessions exists (relative to the repository), and says so when not.
*/
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {bashTool} from '../../../src/builtin/bash.js';
import {todoTool} from '../../../src/builtin/todo.js';
import {JobRuntime} from '../../../src/jobs/job-runtime.js';
import {jobTools} from '../../../src/jobs/job-tools.js';
import type {ToolDefinition} from '../../../src/tools/types.js';
import type {ContentBlock} from '../../../src/tools/content.js';

const corpus = fileURLToPath(new URL('../../../../shared/corpus/dsh-sessions/', import.meta.url));

type Pair = {file: string; name: string; args: unknown; result?: {content: ContentBlock[]; isError: boolean; meta?: unknown}};

function pairsOf(file: string): Pair[] {
	const pending = new Map<string, Pair[]>();
	const pairs: Pair[] = [];
	for (const line of readFileSync(join(corpus, file), 'utf8').split('\n')) {
		let event: {type?: string; data?: any};
		try {
			event = JSON.parse(line) as typeof event;
		} catch {
			continue;
		}

		if (event.type === 'tool/call') {
			const raw = event.data.arguments as string;
			const pair: Pair = {file, name: event.data.name as string, args: raw === '' ? {} : JSON.parse(raw)};
			pairs.push(pair);
			pending.set(event.data.callId as string, [...(pending.get(event.data.callId as string) ?? []), pair]);
		} else if (event.type === 'tool/result' && (event as {surfaceOp?: unknown}).surfaceOp === 'append') {
			const [block] = event.data.message.content as Array<{toolCallId: string; content: ContentBlock[]; isError?: boolean}>;
			const open = pending.get(block.toolCallId);
			const pair = open?.pop();
			if (pair !== undefined) {
				pair.result = {content: block.content, isError: block.isError === true, ...('meta' in event.data ? {meta: event.data.meta} : {})};
			}
		}
	}

	return pairs;
}

const ours = new Map<string, ToolDefinition>(
	[bashTool({workspace: '/w', jobs: new JobRuntime()}), todoTool(), ...jobTools(new JobRuntime())].map((tool) => [tool.name, tool]),
);

describe('presenters over the dsh corpus', () => {
	if (!existsSync(corpus)) {
		it('is skipped: the corpus folder does not exist', () => {
			console.log(`corpus not found at ${corpus}; presenter corpus test not run`);
			expect(existsSync(corpus)).toBe(false);
		});
		return;
	}

	const pairs = readdirSync(corpus)
		.filter((file) => file.endsWith('.jsonl'))
		.flatMap(pairsOf)
		.filter((pair) => ours.has(pair.name));

	it('finds calls of our tools', () => {
		expect(pairs.length).toBeGreaterThan(20);
	});

	it('gives every call a call view, and every successful described bash call a result view', () => {
		const missing: string[] = [];
		for (const pair of pairs) {
			const tool = ours.get(pair.name)!;
			if (tool.presentCall?.(pair.args) === undefined) {
				missing.push(`${pair.file}: ${pair.name} call ${JSON.stringify(pair.args)}`);
			}

			const described = typeof (pair.args as {description?: unknown}).description === 'string';
			if (pair.name === 'bash' && described && pair.result !== undefined && !pair.result.isError) {
				if (tool.presentResult?.(pair.args, pair.result) === undefined) {
					missing.push(`${pair.file}: bash result ${JSON.stringify(pair.result.content).slice(0, 200)}`);
				}
			}
		}

		expect(missing).toEqual([]);
	});
});
