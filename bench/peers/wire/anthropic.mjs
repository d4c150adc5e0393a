// Anthropic's Messages API (`POST …/v1/messages`), as Claude Code sends it. The request checks and the
// event stream are the strict fake provider's (test/fixtures/wire/anthropic-messages.mjs): a request the
// real API refuses (no max_tokens, a tool_use without its tool_result, thinking dropped from a tool-use
// turn, an unknown field, no key) gets the API's refusal, never an answer.
import {anthropicAnswerEvents} from '../../../test/fixtures/wire/anthropic-messages.mjs';

const blocksOf = content => (typeof content === 'string' ? [{type: 'text', text: content}] : (Array.isArray(content) ? content : []));

/** Whether the request asks for thinking blocks (`enabled`, or the newer `adaptive`). */
const thinkingOn = body => body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';

/** The conversation of a request body: person's texts and tool results in order, the custom tools offered, whether it is a side request. */
export function readAnthropic(body) {
	const turns = [];
	for (const message of body.messages ?? []) {
		if (message.role !== 'user') {
			continue;
		}

		const blocks = blocksOf(message.content);
		for (const block of blocks) {
			if (block?.type === 'tool_result') {
				turns.push({role: 'result'});
			}
		}

		const text = blocks.filter(block => block?.type === 'text').map(block => block.text ?? '').join('\n');
		if (text !== '') {
			turns.push({role: 'user', text});
		}
	}

	// Server tools (web search, …) have a `type` and no input_schema: the script never calls them.
	const tools = (body.tools ?? []).filter(tool => tool?.input_schema !== undefined).map(tool => ({name: tool.name, parameters: tool.input_schema}));
	const format = body.output_config?.format ?? body.output_format;
	const jsonSchema = format?.type === 'json_schema' ? (format.schema ?? {}) : undefined;
	return {turns, tools, side: tools.length === 0 || jsonSchema !== undefined, jsonSchema, stream: body.stream === true, thinking: thinkingOn(body)};
}

/** The tool calls of a reply: one (`call`), several (`calls`, a batch), or none (`text`). */
const callsOf = reply => (reply.kind === 'call' ? [reply] : (reply.kind === 'calls' ? reply.calls : []));

/**
Writes `reply` as a Messages stream (or one message object): a thinking block first when the request
enabled thinking (the API then wants it back before each tool_use), then the text or the tool_use
blocks, the stop reason and the usage (`usage.cacheRead`: input tokens read from the prompt cache).
*/
export function writeAnthropic(response, reply, {model, stream, thinking, usage, memory}) {
	const toolCalls = callsOf(reply).map(call => ({id: `toolu_${call.id}`, name: call.name, args: JSON.stringify(call.args)}));
	const answer = {
		// Each message its own id: Claude Code merges streamed parts that share one into a single turn.
		id: `msg_${reply.id}`,
		...(thinking ? {reasoning: 'Next step.'} : {}),
		...(toolCalls.length === 0 ? {text: reply.text} : {toolCalls}),
		usage: {input: usage.input, output: usage.output, cacheRead: usage.cacheRead ?? 0},
	};
	const events = anthropicAnswerEvents(answer, model, memory);
	if (stream) {
		response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
		response.end(events.join(''));
		return;
	}

	// Not streamed: the same blocks as one message object.
	const data = events.map(frame => JSON.parse(frame.split('\ndata: ')[1]));
	const start = data.find(event => event.type === 'message_start').message;
	const content = [];
	for (const event of data) {
		if (event.type === 'content_block_start') {
			content[event.index] = {...event.content_block};
		} else if (event.type === 'content_block_delta') {
			const block = content[event.index];
			const {delta} = event;
			if (delta.type === 'text_delta') {
				block.text += delta.text;
			} else if (delta.type === 'thinking_delta') {
				block.thinking += delta.thinking;
			} else if (delta.type === 'signature_delta') {
				block.signature += delta.signature;
			} else if (delta.type === 'input_json_delta') {
				block.partial = (block.partial ?? '') + delta.partial_json;
			}
		}
	}

	for (const block of content) {
		if (block.type === 'tool_use') {
			block.input = JSON.parse(block.partial ?? '{}');
			delete block.partial;
		}
	}

	const end = data.find(event => event.type === 'message_delta');
	response.writeHead(200, {'content-type': 'application/json'});
	response.end(JSON.stringify({...start, content, stop_reason: end.delta.stop_reason, stop_sequence: null, usage: {...start.usage, output_tokens: end.usage.output_tokens}}));
}
