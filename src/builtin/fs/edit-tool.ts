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
		description:
			'Edit an existing UTF-8 text file by replacing literal text. By default old_string must occur exactly once; give more surrounding text to make it unique, or set replace_all to replace every occurrence.',
		parameters: {
			file_path: {type: 'string', required: true, description: 'The file to edit (relative or absolute).'},
			old_string: {type: 'string', required: true, description: 'The literal text to replace (not a regular expression).'},
			new_string: {type: 'string', required: true, description: 'The replacement text; must differ from old_string. Empty deletes the match.'},
			replace_all: {type: 'boolean', description: 'Replace every occurrence instead of exactly one. Defaults to false.'},
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
