// OpenAI Chat Completions (`POST …/chat/completions`), as pi, opencode and cardterm send it.

const textOf = content => (typeof content === 'string' ? content : Array.isArray(content) ? content.map(part => part?.text ?? '').join('') : '');

/** The conversation of a request body: person's texts and tool results in order, the tools offered, whether it is a side request. */
export function readChat(body) {
	const turns = [];
	for (const message of body.messages ?? []) {
		if (message.role === 'user') {
			turns.push({role: 'user', text: textOf(message.content)});
		} else if (message.role === 'tool') {
			turns.push({role: 'result'});
		}
	}

	const tools = (body.tools ?? []).filter(tool => tool.type === 'function' || tool.function).map(tool => ({name: tool.function.name, parameters: tool.function.parameters}));
	const format = body.response_format;
	const jsonSchema = format?.type === 'json_schema' ? (format.json_schema?.schema ?? {}) : (format?.type === 'json_object' ? {} : undefined);
	return {turns, tools, side: tools.length === 0 || jsonSchema !== undefined, jsonSchema, stream: body.stream === true, includeUsage: body.stream_options?.include_usage === true};
}

/** The tool calls of a reply: one (`call`), several (`calls`, a batch), or none (`text`). */
const callsOf = reply => (reply.kind === 'call' ? [reply] : (reply.kind === 'calls' ? reply.calls : []));

/** Writes `reply` ({kind: 'call', id, name, args}, {kind: 'calls', calls: [{id, name, args}, …]} or {kind: 'text', text}) as a completion, streamed as SSE chunks when asked. */
export function writeChat(response, reply, {model, stream, includeUsage, usage}) {
	const id = `chatcmpl-${reply.id ?? Date.now()}`;
	const created = Math.floor(Date.now() / 1000);
	const usageObject = {prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output};
	const calls = callsOf(reply).map(call => ({id: call.id, type: 'function', function: {name: call.name, arguments: JSON.stringify(call.args)}}));
	const finish = calls.length === 0 ? 'stop' : 'tool_calls';
	if (!stream) {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({id, object: 'chat.completion', created, model, choices: [{index: 0, message: {role: 'assistant', content: calls.length === 0 ? reply.text : null, ...(calls.length === 0 ? {} : {tool_calls: calls})}, finish_reason: finish}], usage: usageObject}));
		return;
	}

	response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
	const chunk = (delta, finishReason = null) => `data: ${JSON.stringify({id, object: 'chat.completion.chunk', created, model, choices: [{index: 0, delta, finish_reason: finishReason}]})}\n\n`;
	let out = '';
	if (calls.length === 0) {
		out += chunk({role: 'assistant', content: ''});
		out += chunk({content: reply.text});
	} else {
		for (const [index, call] of calls.entries()) {
			// The first call's opening chunk carries the role, as a single call's always did.
			out += chunk({...(index === 0 ? {role: 'assistant', content: null} : {}), tool_calls: [{index, id: call.id, type: 'function', function: {name: call.function.name, arguments: ''}}]});
			out += chunk({tool_calls: [{index, function: {arguments: call.function.arguments}}]});
		}
	}

	out += chunk({}, finish);
	if (includeUsage) {
		out += `data: ${JSON.stringify({id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageObject})}\n\n`;
	}

	response.end(`${out}data: [DONE]\n\n`);
}
