/**
Card fixtures for layout tests and snapshots, built directly as the fold would build them: a call
view, then either nothing (running / interrupted) or a result with its result view. The clock and
the session cwd are fixed so frames are functions of their inputs.
*/
import type {Card, CardApproval, CardProgress, CardResult} from '../../src/presentation/card.js';
import {approvalStanding, cardOutcome, outcomeStatus, type OutcomeFacts} from '../../src/presentation/card-outcome.js';
import type {ContentBlock} from '../../src/tools/content.js';
import type {ToolCallView, ToolResultView} from '../../src/tools/views.js';

/** The call time of every fixture. */
export const CALL_TIME = 1_790_000_000_000;

/** The session workspace of every fixture. */
export const SESSION_CWD = '/home/u/proj';

/** What a fixture card is made of. */
export type CardSpec = {
	readonly name: string;
	readonly args?: unknown;
	readonly callView: ToolCallView;
	/** Settled: the result content, whether it failed, its class, and the presenter's view. */
	readonly result?: {
		readonly content: readonly ContentBlock[];
		readonly isError?: boolean;
		readonly error?: {readonly name: string; readonly code: string};
		/** The persisted meta; a web fetch view's default is the meta web_fetch persists (`{url, statusCode, truncated}`). */
		readonly meta?: unknown;
		readonly view?: ToolResultView | null;
	};
	/** Milliseconds from call to result (settled cards). Default 1 234. */
	readonly durationMs?: number;
	/** Close the card without a result. */
	readonly interrupted?: boolean;
	readonly progress?: CardProgress;
	readonly approval?: CardApproval;
	readonly callId?: string;
	readonly revision?: number;
};

/** Text content. */
export function text(value: string): ContentBlock[] {
	return [{type: 'text', text: value}];
}

/** A card as the fold would produce it from `spec`. */
export function makeCard(spec: CardSpec): Card {
	const args = spec.args ?? {};
	const base = {
		callId: spec.callId ?? `call-${spec.name}`,
		name: spec.name,
		argsRaw: JSON.stringify(args),
		args,
		seq: 1,
		callTime: CALL_TIME,
		callView: spec.callView,
		children: [],
		revision: spec.revision ?? 0,
	};
	const approval = spec.approval === undefined ? {} : {approval: approvalStanding(spec.approval.state === 'decided' ? spec.approval.outcome : undefined)};
	if (spec.result === undefined) {
		const outcome = cardOutcome({result: null, closed: spec.interrupted === true, ...approval});
		const status = outcomeStatus(outcome);
		return {
			...base,
			status,
			outcome,
			resultTime: null,
			resultView: null,
			result: null,
			...(spec.progress === undefined || status !== 'running' ? {} : {progress: spec.progress}),
			...(spec.approval === undefined ? {} : {approval: spec.approval}),
		};
	}

	const resultView = spec.result.view ?? null;
	const meta = spec.result.meta ?? (resultView?.card === 'web' && resultView.kind === 'fetch' ? {url: resultView.url, statusCode: resultView.statusCode, truncated: resultView.truncated} : undefined);
	const result: CardResult = {
		content: spec.result.content,
		isError: spec.result.isError ?? false,
		...(spec.result.error === undefined ? {} : {error: spec.result.error}),
		...(meta === undefined ? {} : {meta}),
	};
	const facts: OutcomeFacts = {result, closed: false, ...approval};
	const outcome = cardOutcome(facts);
	// The fold reads a failure from the result's text and meta, never the view: a fixture must say it in both.
	const viewFailed = (resultView?.card === 'terminal' && ((resultView.exitCode ?? 0) !== 0 || resultView.signal !== undefined))
		|| (resultView?.card === 'web' && resultView.kind === 'fetch' && resultView.statusCode >= 400);
	if (viewFailed !== (outcome === 'failed') && !result.isError) {
		throw new TypeError(`fixture ${spec.name}: the view's exit or HTTP status and the result's exit marker or meta disagree`);
	}

	return {
		...base,
		status: outcomeStatus(outcome),
		outcome,
		resultTime: CALL_TIME + (spec.durationMs ?? 1234),
		resultView,
		result,
		...(spec.approval === undefined ? {} : {approval: spec.approval}),
	};
}

/** The five card states. */
export const STATES = ['running', 'ok', 'error', 'cancelled', 'interrupted'] as const;

/** One of the five card states. */
export type State = (typeof STATES)[number];

/** What a card kind looks like in each state: the call, and its success and failure results. */
export type KindSpec = {
	readonly name: string;
	readonly args: unknown;
	readonly callView: ToolCallView;
	readonly progress?: CardProgress;
	readonly ok: {readonly content: readonly ContentBlock[]; readonly view: ToolResultView | null};
	readonly error: {readonly content: readonly ContentBlock[]; readonly code: string; readonly view?: ToolResultView | null};
};

/** `kind` in `state`. Cancelled is an `ABORTED` result; interrupted a call closed without one. */
export function inState(kind: KindSpec, state: State): Card {
	const common = {name: kind.name, args: kind.args, callView: kind.callView};
	switch (state) {
		case 'running': {
			return makeCard({...common, ...(kind.progress === undefined ? {} : {progress: kind.progress})});
		}

		case 'ok': {
			return makeCard({...common, result: {content: kind.ok.content, view: kind.ok.view}});
		}

		case 'error': {
			return makeCard({...common, result: {content: kind.error.content, isError: true, error: {name: 'ToolError', code: kind.error.code}, view: kind.error.view ?? null}});
		}

		case 'cancelled': {
			return makeCard({...common, durationMs: 8200, result: {content: text('Error: tool call aborted'), isError: true, error: {name: 'AbortError', code: 'ABORTED'}}});
		}

		case 'interrupted': {
			return makeCard({...common, interrupted: true});
		}
	}
}

/** `lines` lines of `prefix N`. */
export function numberedLines(count: number, prefix = 'line'): string {
	return Array.from({length: count}, (_, index) => `${prefix} ${index + 1}`).join('\n');
}

/** Every card kind with a call, a success and a failure, as the first-party tools produce them. */
export const KINDS = {
	generic: {
		name: 'todo_write',
		args: {todos: [{content: 'Turn DEBUG off', status: 'completed'}, {content: 'Fix failing test', status: 'in_progress'}]},
		callView: {card: 'generic', title: 'Update todo list', kind: 'other', rawInput: [{content: 'Turn DEBUG off', status: 'completed'}, {content: 'Fix failing test', status: 'in_progress'}]},
		ok: {content: text('Updated todo list: 0 pending, 1 in progress, 1 completed.'), view: null},
		error: {content: text('Error: only one todo may be in progress\nfound 2: "Turn DEBUG off", "Fix failing test"'), code: 'TODO_INVALID'},
	},
	terminal: {
		name: 'bash',
		args: {command: 'npm test', description: 'Run the test suite', workdir: 'packages/core'},
		callView: {card: 'terminal', title: 'npm test', description: 'Run the test suite', cwd: 'packages/core'},
		progress: {text: ' RUN  v4.1.12 /home/u/proj/packages/core\n\x1b[32m✓\x1b[39m src/a.test.ts (3 tests) 12ms\n', truncated: false},
		ok: {
			content: text('\n RUN  v4.1.12\n\n \x1b[32m✓\x1b[39m src/a.test.ts (3 tests) 12ms\n\n Test Files  \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m (1)\n      Tests  \x1b[1m\x1b[32m3 passed\x1b[39m\x1b[22m (3)'),
			view: {card: 'terminal', output: '\n RUN  v4.1.12\n\n \x1b[32m✓\x1b[39m src/a.test.ts (3 tests) 12ms\n\n Test Files  \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m (1)\n      Tests  \x1b[1m\x1b[32m3 passed\x1b[39m\x1b[22m (3)', exitCode: 0},
		},
		error: {
			content: text('```console\nError: spawn /bin/sh ENOENT\n```'),
			code: 'SPAWN_FAILED',
			view: {card: 'generic', content: text('```console\nError: spawn /bin/sh ENOENT\n```')},
		},
	},
	diff: {
		name: 'edit',
		args: {file_path: 'src/config.ts', old_string: 'DEBUG: true', new_string: 'DEBUG: false'},
		callView: {card: 'diff', title: 'Edit src/config.ts', diffs: [{path: 'src/config.ts', oldText: 'DEBUG: true', newText: 'DEBUG: false'}], locations: [{path: 'src/config.ts'}]},
		ok: {
			content: text('The file /home/u/proj/src/config.ts has been updated successfully.'),
			view: {card: 'diff', title: 'Edit src/config.ts', diffs: [{path: 'src/config.ts', oldText: 'export const config = {\n  DEBUG: true,\n  level: \'info\',\n}', newText: 'export const config = {\n  DEBUG: false,\n  level: \'info\',\n}'}]},
		},
		error: {content: text('Error: old_string was not found in "/home/u/proj/src/config.ts"'), code: 'FS_EDIT_NOT_FOUND'},
	},
	search: {
		name: 'grep',
		args: {pattern: 'DEBUG', include: '*.ts'},
		callView: {card: 'generic', title: 'Grep DEBUG (*.ts)', kind: 'search', rawInput: 'DEBUG'},
		ok: {
			content: text('Found 3 matches\n\nsrc/config.ts\nLine 2:   DEBUG: false,\n\nsrc/log.ts\nLine 10: if (config.DEBUG) console.debug(msg)\nLine 14: export const DEBUG_PREFIX = \'[debug]\''),
			view: {card: 'search', shape: 'matches', files: [
				{path: 'src/config.ts', matches: [{lineNumber: 2, line: '  DEBUG: false,'}]},
				{path: 'src/log.ts', matches: [{lineNumber: 10, line: 'if (config.DEBUG) console.debug(msg)'}, {lineNumber: 14, line: 'export const DEBUG_PREFIX = \'[debug]\''}]},
			], truncated: false, total: 3},
		},
		error: {content: text('Error: regex parse error:\n    DEBUG(\n         ^\nerror: unclosed group'), code: 'SEARCH_INVALID_PATTERN'},
	},
	web: {
		name: 'web_search',
		args: {queries: ['vitest environment option']},
		callView: {card: 'generic', title: 'vitest environment option', kind: 'search', rawInput: 'vitest environment option'},
		ok: {
			content: text('Set test.environment in vitest.config.ts.\n\nSources:\n- [Configuring Vitest](https://vitest.dev/config/)'),
			view: {card: 'web', kind: 'search', title: 'vitest environment option', answer: 'Set `test.environment` in `vitest.config.ts`.', truncated: false, sources: [
				{url: 'https://vitest.dev/config/', title: 'Configuring Vitest', snippet: 'Options for vitest.config.ts', publishedAt: '2026-05-01'},
				{url: 'https://www.github.com/vitest-dev/vitest/discussions/1234', title: 'How to set jsdom per file?'},
				{url: 'https://stackoverflow.com/q/1'},
			]},
		},
		error: {content: text('Error: web search provider returned HTTP 429 (rate limited)'), code: 'WEB_PROVIDER_ERROR'},
	},
	read: {
		name: 'read',
		args: {file_path: 'src/config.ts'},
		callView: {card: 'generic', title: 'Read src/config.ts', kind: 'read', locations: [{path: 'src/config.ts', line: 1}]},
		ok: {
			content: text('<path>/home/u/proj/src/config.ts</path>\n<type>file</type>\n<content>\n1: export const config = {\n2:   DEBUG: true,\n3:   level: \'info\',\n4: }\n\n(End of file - total 4 lines)\n</content>'),
			view: {card: 'read', path: '/home/u/proj/src/config.ts', offset: 1, totalLines: 4, lang: 'ts', lines: [
				{number: 1, text: 'export const config = {'},
				{number: 2, text: '  DEBUG: true,'},
				{number: 3, text: '  level: \'info\','},
				{number: 4, text: '}'},
			]},
		},
		error: {content: text('Error: file not found: /home/u/proj/src/config.ts'), code: 'FS_NOT_FOUND'},
	},
} satisfies Record<string, KindSpec>;
