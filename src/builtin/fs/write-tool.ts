/**
@module The `write` tool definition: create or replace a file atomically (contract.md §E2.4).
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import type {WorkspaceGuard} from '../workspace/workspace-guard.js';
import {writeWorkspaceFile, type MutateCaps} from './mutate-file.js';
import {parseWriteArgs, presentWriteCall, presentWriteResult, renderWrite, writePresentationMeta} from './write-card.js';

/** Build the `write` tool over a workspace guard. */
export function writeTool(guard: WorkspaceGuard, caps: MutateCaps): ToolDefinition {
	return defineTool({
		name: 'write',
		description: 'Create or overwrite a UTF-8 text file (parent directories too; permissions kept). Prefer edit for partial changes.',
		parameters: {
			file_path: {type: 'string', required: true},
			content: {type: 'string', required: true},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					path: {type: 'string', required: true},
					operation: {type: 'string', enum: ['create', 'update'], required: true},
					before: {oneOf: [{type: 'string'}, {type: 'null'}], required: true},
					after: {type: 'string', required: true},
				},
			},
			render: (_args, value) => renderWrite(value),
			presentationMeta: (args, value) => writePresentationMeta(args, value),
		},
		isConcurrencySafe: () => false,
		async execute(args, exec) {
			return writeWorkspaceFile(guard, parseWriteArgs(args), caps, exec.signal);
		},
		presentCall: presentWriteCall,
		presentResult: presentWriteResult,
	});
}
