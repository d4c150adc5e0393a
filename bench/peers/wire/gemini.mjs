// The Gemini API (`…/models/NAME:streamGenerateContent?alt=sse`, `:generateContent`, `:countTokens`),
// which Gemini CLI sends to `GOOGLE_GEMINI_BASE_URL`.
import {geminiAnswerChunks} from '../../../test/fixtures/wire/gemini.mjs';

/** The conversation of a request body: person's texts and function responses in order, the declared functions, whether it is a side request. */
export function readGemini(body, {streaming}) {
	const turns = [];
	for (const content of body.contents ?? []) {
		const texts = [];
		for (const part of content.parts ?? []) {
			if (part.functionResponse !== undefined) {
				turns.push({role: 'result'});
			} else if (typeof part.text === 'string' && content.role !== 'model') {
				texts.push(part.text);
			}
		}

		if (texts.length > 0) {
			turns.push({role: 'user', text: texts.join('\n')});
		}
	}

	const tools = (body.tools ?? []).flatMap(tool => tool.functionDeclarations ?? []).map(declaration => ({name: declaration.name, parameters: declaration.parametersJsonSchema ?? declaration.parameters}));
	const config = body.generationConfig ?? {};
	const wantsJson = config.responseMimeType === 'application/json';
	const jsonSchema = wantsJson ? (config.responseJsonSchema ?? config.responseSchema ?? {}) : undefined;
	return {turns, tools, side: !streaming || tools.length === 0 || wantsJson, jsonSchema, stream: streaming};
}

/**
Writes `reply` as one Gemini candidate: an SSE event when streaming, else a JSON body. A text reply
with `pieces` streams each piece as its own chunk (the test fakes' framing), as the API streams a long answer.
*/
export function writeGemini(response, reply, {model, stream, usage}) {
	if (stream && reply.pieces !== undefined) {
		response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
		for (const chunk of geminiAnswerChunks({text: reply.pieces, usage}, model)) {
			response.write(chunk);
		}

		response.end();
		return;
	}

	const part = reply.kind === 'call' ? {functionCall: {name: reply.name, args: reply.args}} : {text: reply.text};
	const body = {
		candidates: [{content: {role: 'model', parts: [part]}, finishReason: 'STOP', index: 0}],
		usageMetadata: {promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output},
		modelVersion: model,
		responseId: `gem-${reply.id ?? Date.now()}`,
	};
	if (!stream) {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify(body));
		return;
	}

	response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
	response.end(`data: ${JSON.stringify(body)}\r\n\r\n`);
}
