/**
@module The `web_fetch` tool definition (contract.md §E2.9).

Non-2xx statuses are successes: the page a server sends with a 404 is still what the model asked
to see, and the card shows the status (red from 400). Only transport failures, refused schemes or
content types, a sixth redirect and the deadline are errors.
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import {resolveWebFetchOptions, runWebFetch, type WebFetchOptions} from './run-web-fetch.js';
import {presentWebFetchCall, presentWebFetchResult, renderWebFetch, webFetchMeta} from './web-fetch-output.js';

const description = 'Fetch an http(s) URL as text (HTML as Markdown); other types (images, PDFs) are refused, long pages truncated.';

/** The `web_fetch` tool with these caps (see `WebFetchOptions` for the defaults). */
export function webFetchTool(options: WebFetchOptions = {}): ToolDefinition {
	const resolved = resolveWebFetchOptions(options);
	return defineTool({
		name: 'web_fetch',
		description,
		parameters: {
			url: {type: 'string', required: true},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					url: {type: 'string', required: true},
					statusCode: {type: 'integer', required: true},
					body: {
						type: 'object',
						required: true,
						additionalProperties: false,
						properties: {
							kind: {type: 'string', enum: ['html', 'text'], required: true},
							content: {type: 'string', required: true},
						},
					},
					truncated: {type: 'boolean', required: true},
				},
			},
			render: (_args, value) => renderWebFetch(value, resolved.maxOutputChars),
			presentationMeta: (_args, value) => webFetchMeta(value, resolved.maxOutputChars),
		},
		isConcurrencySafe: () => true,
		execute: async (args, exec) => runWebFetch(args.url, resolved, exec.signal),
		presentCall: args => presentWebFetchCall(args),
		presentResult: (args, result) => presentWebFetchResult(args, result),
	});
}
