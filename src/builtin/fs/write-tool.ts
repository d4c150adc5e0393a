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
		description:
			'Write a UTF-8 text file, creating it (and missing parent directories) or replacing its whole content. The file is replaced atomically and keeps its permissions. Prefer edit for changes to part of an existing file.',
		parameters: {
			file_path: {type: 'string', required: true, description: 'The file to write (relative or absolute).'},
			content: {type: 'string', required: true, description: 'The complete new file content (may be empty).'},
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
