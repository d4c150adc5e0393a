/**
@module The `edit` tool definition: a literal replacement in an existing file (contract.md §E2.5).
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import type {WorkspaceGuard} from '../workspace/workspace-guard.js';
import {editPresentationMeta, parseEditArgs, presentEditCall, presentEditResult, renderEdit} from './edit-card.js';
import {editWorkspaceFile, type MutateCaps} from './mutate-file.js';

/** Build the `edit` tool over a workspace guard. */
export function editTool(guard: WorkspaceGuard, caps: MutateCaps): ToolDefinition {
	return defineTool({
		name: 'edit',
		description: 'Replace literal text in an existing UTF-8 file. old_string must occur exactly once (add context to make it unique) unless replace_all.',
		parameters: {
			file_path: {type: 'string', required: true},
			old_string: {type: 'string', required: true},
			new_string: {type: 'string', required: true},
			replace_all: {type: 'boolean'},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					path: {type: 'string', required: true},
					before: {type: 'string', required: true},
					after: {type: 'string', required: true},
				},
			},
			render: (args, value) => renderEdit(args, value),
			presentationMeta: (args, value) => editPresentationMeta(args, value),
		},
		isConcurrencySafe: () => false,
		async execute(args, exec) {
			return editWorkspaceFile(guard, parseEditArgs(args), caps, exec.signal);
		},
		presentCall: presentEditCall,
		presentResult: presentEditResult,
	});
}
