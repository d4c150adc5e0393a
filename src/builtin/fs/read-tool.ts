/**
@module The `read` tool definition: a UTF-8 text file as a numbered window (contract.md §E2.3).
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import type {WorkspaceGuard} from '../workspace/workspace-guard.js';
import type {ObservationLedger} from './observation-ledger.js';
import {parseReadArgs, presentReadCall, presentReadResult, readPresentationMeta, renderRead} from './read-card.js';
import {readFileWindow} from './read-file.js';

/** Caps of the `read` tool. */
export type ReadToolCaps = {
	/** Default and largest `limit` (lines). */
	readonly readLimit: number;
	/** Characters kept per line. */
	readonly maxLineLength: number;
	/** Bytes of selected lines. */
	readonly maxBytes: number;
	/** The opt-in read-before-edit policy's ledger, which reads feed. */
	readonly ledger?: ObservationLedger;
};

/** Build the `read` tool over a workspace guard. */
export function readTool(guard: WorkspaceGuard, caps: ReadToolCaps): ToolDefinition {
	return defineTool({
		name: 'read',
		description: 'Read a UTF-8 text file as numbered lines.',
		parameters: {
			file_path: {type: 'string', required: true},
			offset: {type: 'number', description: '1-based first line.'},
			limit: {type: 'number', description: `Default and max ${caps.readLimit} lines.`},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					path: {type: 'string', required: true},
					offset: {type: 'integer', required: true},
					lines: {
						type: 'array',
						required: true,
						items: {
							type: 'object',
							additionalProperties: false,
							properties: {number: {type: 'integer', required: true}, text: {type: 'string', required: true}},
						},
					},
					totalLines: {type: 'integer', required: true},
				},
			},
			render: (args, value) => renderRead(args, value, caps.readLimit),
			presentationMeta: (_args, value) => readPresentationMeta(value),
		},
		isConcurrencySafe: () => true,
		async execute(args, exec) {
			const input = parseReadArgs(args, caps.readLimit);
			const value = await readFileWindow(guard, input, {maxLineLength: caps.maxLineLength, maxBytes: caps.maxBytes}, exec.signal, caps.ledger);
			return {...value, lines: [...value.lines]};
		},
		presentCall: presentReadCall,
		presentResult: presentReadResult,
	});
}
