import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {fsTools} from '../../src/builtin/fs.js';
import {searchTools} from '../../src/builtin/search.js';
import type {ToolDefinition} from '../../src/tools/types.js';
import type {ToolResult} from '../../src/tools/views.js';

/** Real session logs of another producer (read-only, outside the repository). */
const corpus = fileURLToPath(new URL('../../../shared/corpus/dsh-sessions/', import.meta.url));
const tools = new Map<string, ToolDefinition>(
	[...fsTools({workspace: '/nonexistent-workspace'}), ...searchTools({workspace: '/nonexistent-workspace'})].map((tool) => [tool.name, tool]),
);

type Pair = {file: string; name: string; args: unknown; result: ToolResult};

/** Every tool/call + tool/result pair of our tools, paired by call id as a replay would. */
function pairs(): Pair[] {
	const found: Pair[] = [];
	for (const file of readdirSync(corpus).filter((name) => name.endsWith('.jsonl'))) {
		const calls = new Map<string, {name: string; args: unknown}>();
		for (const line of readFileSync(path.join(corpus, file), 'utf8').split('\n')) {
			let event: {type?: string; data?: any};
			try {
				event = JSON.parse(line);
			} catch {
				continue;
			}

			if (event.type === 'tool/call' && tools.has(event.data?.name)) {
				const raw = event.data.arguments as string;
				calls.set(event.data.callId, {name: event.data.name, args: raw === '' ? {} : JSON.parse(raw)});
			} else if (event.type === 'tool/result' && (typeof event.data?.surfaceOp !== 'object' || event.data.surfaceOp === null)) {
				const block = event.data.message?.content?.[0];
				const call = calls.get(event.data.message?.source?.callId);
				if (call !== undefined && block !== undefined) {
					const result: ToolResult = {content: block.content, isError: block.isError === true, ...(event.data.meta === undefined ? {} : {meta: event.data.meta})};
					found.push({file, name: call.name, args: call.args, result});
				}
			}
		}
	}

	return found;
}

describe.runIf(existsSync(corpus))('our presenters over the dsh session corpus', () => {
	const all = existsSync(corpus) ? pairs() : [];

	it('finds pairs of read, write, edit and glob calls to check', () => {
		expect(new Set(all.map((pair) => pair.name))).toEqual(new Set(['read', 'write', 'edit', 'glob']));
	});

	it('gives every logged call a pending view', () => {
		const missing = all.filter((pair) => tools.get(pair.name)!.presentCall!(pair.args) === undefined);
		expect(missing.map((pair) => `${pair.file}: ${pair.name} ${JSON.stringify(pair.args)}`)).toEqual([]);
	});

	it('gives every success with meta (and every write success) a completed view of the right card', () => {
		const expectedCard: Record<string, string> = {read: 'read', write: 'diff', edit: 'diff', grep: 'search', glob: 'search'};
		const wrong = all
			.filter((pair) => !pair.result.isError && (pair.result.meta !== undefined || pair.name === 'write'))
			.filter((pair) => tools.get(pair.name)!.presentResult!(pair.args, pair.result)?.card !== expectedCard[pair.name]);
		expect(wrong.map((pair) => `${pair.file}: ${pair.name}`)).toEqual([]);
	});

	it('declines every logged failure', () => {
		const failures = all.filter((pair) => pair.result.isError);
		expect(failures.length).toBeGreaterThan(0);
		expect(failures.filter((pair) => tools.get(pair.name)!.presentResult!(pair.args, pair.result) !== undefined)).toEqual([]);
	});
});

describe.runIf(!existsSync(corpus))('the dsh session corpus', () => {
	it('is absent, so the corpus presenter checks were not run', () => {
		console.log(`corpus folder ${corpus} does not exist: the presenter replay checks were not run`);
		expect(existsSync(corpus)).toBe(false);
	});
});
