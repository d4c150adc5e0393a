/**
@module The `grep` tool definition (contract.md §E2.6).
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import type {WorkspaceGuard} from '../workspace/workspace-guard.js';
import {grepPresentationMeta, parseGrepArgs, presentGrepCall, presentGrepResult, renderGrep, type SearchCaps} from './search-card.js';
import type {SearchRunOptions} from './search-run.js';

/** Build the `grep` tool over a workspace guard. */
export function grepTool(guard: WorkspaceGuard, caps: SearchCaps, run: SearchRunOptions): ToolDefinition {
	return defineTool({
		name: 'grep',
		description: `Search file contents with a ripgrep regex: the first ${caps.maxMatches} matching lines, numbered, by path then line. Skips .gitignored files, VCS metadata and hidden entries unless include names them.`,
		parameters: {
			pattern: {type: 'string', required: true},
			path: {type: 'string', description: 'File or directory.'},
			include: {type: 'string', description: 'One glob, e.g. *.{js,jsx}; no list or negation.'},
		},
		timeoutMs: run.timeoutMs,
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					matches: {
						type: 'array',
						required: true,
						items: {
							type: 'object',
							additionalProperties: false,
							properties: {
								path: {type: 'string', required: true},
								lineNumber: {type: 'integer', required: true},
								line: {type: 'string', required: true},
							},
						},
					},
				},
			},
			render: (_args, value) => renderGrep(value, caps),
			presentationMeta: (_args, value) => grepPresentationMeta(value, caps),
		},
		isConcurrencySafe: () => true,
		async execute(args, exec) {
			// The engines load on the first search: building the tools (replay's presenters) does not load them.
			const {runGrep} = await import('./search-run.js');
			return runGrep(guard, parseGrepArgs(args), run, exec.signal);
		},
		presentCall: presentGrepCall,
		presentResult: presentGrepResult,
	});
}
