// The OpenAI Responses API (`POST …/responses`), the only wire Codex accepts for a custom provider.

const resultTypes = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

const textOf = content => (typeof content === 'string' ? content : Array.isArray(content) ? content.map(part => part?.text ?? '').join('') : '');

/** The conversation of a request body: person's texts and tool results in order, the function tools offered, whether it is a side request. */
export function readResponses(body) {
	const turns = [];
	const input = typeof body.input === 'string' ? [{type: 'message', role: 'user', content: body.input}] : (body.input ?? []);
	for (const item of input) {
		if ((item.type === 'message' || item.type === undefined) && item.role === 'user') {
			turns.push({role: 'user', text: textOf(item.content)});
		} else if (resultTypes.has(item.type)) {
			turns.push({role: 'result'});
		}
	}

	const tools = (body.tools ?? []).filter(tool => tool.type === 'function').map(tool => ({name: tool.name, parameters: tool.parameters}));
	const format = body.text?.format;
	const jsonSchema = format?.type === 'json_schema' ? (format.schema ?? {}) : undefined;
	return {turns, tools, side: tools.length === 0 || jsonSchema !== undefined, jsonSchema, stream: body.stream === true};
}

/** Writes `reply` as a Responses stream (or one response object): created, the output item, completed with usage. */
export function writeResponses(response, reply, {model, stream, usage}) {
	const id = `resp_${reply.id ?? Date.now()}`;
	const item = reply.kind === 'call'
		? {type: 'function_call', id: `fc_${reply.id}`, call_id: reply.id, name: reply.name, arguments: JSON.stringify(reply.args), status: 'completed'}
		: {type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{type: 'output_text', text: reply.text, annotations: []}]};
	const usageObject = {input_tokens: usage.input, input_tokens_details: {cached_tokens: 0}, output_tokens: usage.output, output_tokens_details: {reasoning_tokens: 0}, total_tokens: usage.input + usage.output};
	const base = {id, object: 'response', created_at: Math.floor(Date.now() / 1000), model};
	if (!stream) {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({...base, status: 'completed', output: [item], usage: usageObject}));
		return;
	}

	response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
	let sequence = 0;
	let out = '';
	const event = (type, data) => {
		out += `event: ${type}\ndata: ${JSON.stringify({type, sequence_number: sequence++, ...data})}\n\n`;
	};

	event('response.created', {response: {...base, status: 'in_progress', output: []}});
	if (item.type === 'function_call') {
		event('response.output_item.added', {output_index: 0, item: {...item, arguments: '', status: 'in_progress'}});
		event('response.function_call_arguments.delta', {item_id: item.id, output_index: 0, delta: item.arguments});
		event('response.function_call_arguments.done', {item_id: item.id, output_index: 0, arguments: item.arguments});
	} else {
		event('response.output_item.added', {output_index: 0, item: {...item, status: 'in_progress', content: []}});
		event('response.content_part.added', {item_id: item.id, output_index: 0, content_index: 0, part: {type: 'output_text', text: '', annotations: []}});
		event('response.output_text.delta', {item_id: item.id, output_index: 0, content_index: 0, delta: reply.text});
		event('response.output_text.done', {item_id: item.id, output_index: 0, content_index: 0, text: reply.text});
		event('response.content_part.done', {item_id: item.id, output_index: 0, content_index: 0, part: item.content[0]});
	}

	event('response.output_item.done', {output_index: 0, item});
	event('response.completed', {response: {...base, status: 'completed', output: [item], usage: usageObject}});
	response.end(out);
}
