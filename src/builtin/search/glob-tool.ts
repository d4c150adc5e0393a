/**
@module The `glob` tool definition (contract.md §E2.7).
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import type {WorkspaceGuard} from '../workspace/workspace-guard.js';
import {globPresentationMeta, parseGlobArgs, presentGlobCall, presentGlobResult, renderGlob, type SearchCaps} from './search-card.js';
import type {SearchRunOptions} from './search-run.js';

/** Build the `glob` tool over a workspace guard. */
export function globTool(guard: WorkspaceGuard, caps: SearchCaps, run: SearchRunOptions): ToolDefinition {
	return defineTool({
		name: 'glob',
		description: `Find files whose paths match a glob pattern. Returns files only (never directories), sorted newest-modified first (ties by path). Skips what grep skips: files matched by .gitignore (node_modules, build output…), hidden entries unless the pattern names one (".github/**"), and VCS metadata. Shows the first ${caps.maxResults} paths.`,
		parameters: {
			pattern: {
				type: 'string',
				required: true,
				description: 'The glob, e.g. "**/*.ts" or "src/**/*.test.js". A pattern without "/" matches file names at any depth, so "*.ts" searches the whole tree.',
			},
			path: {type: 'string', description: 'The directory to search (relative or absolute); default: the workspace.'},
		},
		timeoutMs: run.timeoutMs,
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					root: {type: 'string', required: true},
					paths: {type: 'array', required: true, items: {type: 'string'}},
				},
			},
			render: (_args, value) => renderGlob(value, caps),
			presentationMeta: (_args, value) => globPresentationMeta(value, caps),
		},
		isConcurrencySafe: () => true,
		async execute(args, exec) {
			// The engines load on the first search: building the tools (replay's presenters) does not load them.
			const {runGlob} = await import('./search-run.js');
			return runGlob(guard, parseGlobArgs(args), run, exec.signal);
		},
		presentCall: presentGlobCall,
		presentResult: presentGlobResult,
	});
}
