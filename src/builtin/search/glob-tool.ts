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
		description: `Find files (not directories) whose paths match a glob: the first ${caps.maxResults}, newest first. Skips what grep skips; hidden entries only if the pattern names one (.github/**).`,
		parameters: {
			pattern: {type: 'string', required: true, description: 'Without a slash, it matches names at any depth (*.ts).'},
			path: {type: 'string'},
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
