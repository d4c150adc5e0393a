// The fake model server of the peer bench (loopback only, bounded lifetime). It speaks OpenAI Chat
// Completions, the OpenAI Responses API, the Gemini API and Anthropic's Messages API (the last two checked as
// strictly as the real API, by the test fakes' validators), answers each request with the next step of
// the scripted session its conversation is at (script-step.mjs), and answers side requests (titles,
// loop checks, routers) with a schema-shaped value so no client stalls in retries.
//   node bench/peers/fake-model-server.mjs [--port 0] [--lifetime-s 3600] [--log FILE] [--model NAME] [--dump-side FOLDER]
// Prints `{"port": N}` once listening. Exits when its lifetime is over or its stdin closes (the harness
// holds it), so a crashed harness leaves no server behind. Each request's arrival and response end
// (ms on the wall clock, sub-ms precision) go to the log as one JSON line, so the harness can subtract
// the server's own time from a session's; so do its size, its fixed part and the bytes Anthropic's
// prompt cache would serve (request-size.mjs), for the tokens a session sends.
import {createWriteStream, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {createServer} from 'node:http';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {anthropicMemory, validateAnthropic} from '../../test/fixtures/wire/anthropic-messages.mjs';
import {geminiMemory, validateGemini} from '../../test/fixtures/wire/gemini.mjs';
import {anthropicPromptCache, estimatedTokens, fixedBytes} from './request-size.mjs';
import {schemaShaped} from './schema-shaped.mjs';
import {findPrompt, findStreamPrompt, nextStep, pickShellTool, shellArguments, shellCommand, streamPieces} from './script-step.mjs';
import {readAnthropic, writeAnthropic} from './wire/anthropic.mjs';
import {readChat, writeChat} from './wire/chat-completions.mjs';
import {readGemini, writeGemini} from './wire/gemini.mjs';
import {readResponses, writeResponses} from './wire/responses.mjs';

/** Wall-clock ms with sub-ms precision; comparable across processes on one machine. */
export const wallMs = () => performance.timeOrigin + performance.now();

const sideTitle = 'Bench session';

/** The reply for a parsed request: the next scripted step, or a side answer. */
export function replyFor(request, counter) {
	const id = `call_${counter}`;
	if (request.side) {
		return {reply: {kind: 'text', id, text: request.jsonSchema === undefined ? sideTitle : JSON.stringify(schemaShaped(request.jsonSchema))}, kind: 'side'};
	}

	const userTexts = [];
	const positions = [];
	request.turns.forEach((turn, at) => {
		if (turn.role === 'user') {
			userTexts.push(turn.text);
			positions.push(at);
		}
	});
	const chunks = findStreamPrompt(userTexts);
	if (chunks !== undefined) {
		// Gemini's wire streams each piece as its own chunk; the other wires send the text whole.
		const pieces = streamPieces(chunks);
		return {reply: {kind: 'text', id, text: pieces.join(''), pieces}, kind: 'answer', chunks};
	}

	const prompt = findPrompt(userTexts);
	if (prompt === undefined) {
		return {reply: {kind: 'text', id, text: 'ok'}, kind: 'other'};
	}

	const results = request.turns.slice(positions[prompt.index] + 1).filter(turn => turn.role === 'result').length;
	const step = nextStep(prompt.calls, results, prompt.batch);
	if (step.kind === 'answer') {
		return {reply: {kind: 'text', id, text: step.text}, kind: 'answer', calls: prompt.calls, step: results};
	}

	const tool = pickShellTool(request.tools);
	if (tool === undefined) {
		return {reply: {kind: 'text', id, text: `No shell tool was offered (tools: ${request.tools.map(t => t.name).join(', ')}).`}, kind: 'no-shell-tool', calls: prompt.calls};
	}

	if (step.count > 1) {
		const calls = Array.from({length: step.count}, (_, offset) => ({id: `${id}_${offset}`, name: tool.name, args: shellArguments(tool, shellCommand(step.index + offset), schemaShaped)}));
		return {reply: {kind: 'calls', id, calls}, kind: 'call', calls: prompt.calls, step: step.index, count: step.count, tool: tool.name};
	}

	return {reply: {kind: 'call', id, name: tool.name, args: shellArguments(tool, shellCommand(step.index), schemaShaped)}, kind: 'call', calls: prompt.calls, step: step.index, tool: tool.name};
}

const json = (response, status, body) => {
	response.writeHead(status, {'content-type': 'application/json'});
	response.end(JSON.stringify(body));
};

/** Starts the server on 127.0.0.1; resolves `{port, close}`. `onRequest(entry)` gets each request's log entry. */
export function startFakeModelServer({port = 0, model = 'fake-model', onRequest = () => {}, dumpFolder} = {}) {
	let counter = 0;
	const anthropic = {memory: anthropicMemory(), cache: anthropicPromptCache()};
	const gemini = geminiMemory();
	const server = createServer((request, response) => {
		const arrival = wallMs();
		const chunks = [];
		request.on('data', chunk => chunks.push(chunk));
		request.on('end', () => {
			const url = new URL(request.url ?? '/', 'http://127.0.0.1');
			const entry = {arrival, method: request.method, path: url.pathname};
			response.on('finish', () => {
				entry.end = wallMs();
				onRequest(entry);
			});
			if (request.method === 'GET') {
				entry.api = 'models';
				json(response, 200, url.pathname.includes('v1beta') ? {models: [{name: `models/${model}`, displayName: model, supportedGenerationMethods: ['generateContent']}]} : {object: 'list', data: [{id: model, object: 'model', owned_by: 'bench'}]});
				return;
			}

			let body;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
			} catch {
				entry.api = 'bad-json';
				json(response, 400, {error: {message: 'request body is not JSON'}});
				return;
			}

			const bytes = Buffer.concat(chunks).length;
			const usage = {input: estimatedTokens(bytes), output: 16};
			counter++;
			if (url.pathname.endsWith('/messages/count_tokens')) {
				entry.api = 'anthropic';
				entry.kind = 'side';
				json(response, 200, {input_tokens: usage.input});
				return;
			}

			if (url.pathname.endsWith(':countTokens')) {
				entry.api = 'gemini';
				entry.kind = 'side';
				json(response, 200, {totalTokens: usage.input});
				return;
			}

			let read;
			let write;
			if (url.pathname.endsWith('/chat/completions')) {
				entry.api = 'chat';
				read = readChat(body);
				write = writeChat;
			} else if (url.pathname.endsWith('/responses')) {
				entry.api = 'responses';
				read = readResponses(body);
				write = writeResponses;
			} else if (url.pathname.endsWith('/v1/messages')) {
				entry.api = 'anthropic';
				const refusal = validateAnthropic(body, anthropic.memory, request.headers);
				if (refusal !== undefined) {
					entry.kind = 'refused';
					entry.hint = refusal.body.error.message.slice(0, 600);
					json(response, refusal.status, refusal.body);
					return;
				}

				read = readAnthropic(body);
				const cachedBytes = anthropic.cache.read(body, bytes);
				entry.cachedBytes = cachedBytes;
				usage.cacheRead = estimatedTokens(cachedBytes);
				usage.input = Math.max(0, usage.input - usage.cacheRead);
				write = (target, reply, options) => writeAnthropic(target, reply, {...options, thinking: read.thinking, memory: anthropic.memory});
			} else if (/:(stream)?generateContent$/i.test(url.pathname)) {
				entry.api = 'gemini';
				const refusal = validateGemini(body, gemini, url.pathname.split('/').at(-1).split(':')[0]);
				if (refusal !== undefined) {
					entry.kind = 'refused';
					entry.hint = refusal.body.error.message.slice(0, 600);
					json(response, refusal.status, refusal.body);
					return;
				}

				read = readGemini(body, {streaming: /:streamGenerateContent$/i.test(url.pathname)});
				write = writeGemini;
			} else {
				entry.api = 'unknown';
				json(response, 404, {error: {message: `the fake model server does not serve ${url.pathname}`}});
				return;
			}

			const {reply, ...step} = replyFor(read, counter);
			Object.assign(entry, step, {bytes, fixedBytes: fixedBytes(entry.api, body)});
			if (step.kind !== 'call' && step.kind !== 'answer') {
				// What the side request was for, so a client stalling on one can be told apart in the log.
				entry.hint = JSON.stringify(body).slice(0, 600);
				if (dumpFolder !== undefined) {
					writeFileSync(join(dumpFolder, `side-${counter}.json`), JSON.stringify(body, null, 1));
				}
			}

			write(response, reply, {model: body.model ?? model, stream: read.stream, includeUsage: read.includeUsage, usage});
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.keepAliveTimeout = 60_000;
			resolve({
				port: server.address().port,
				close: () => new Promise(done => {
					server.closeAllConnections();
					server.close(() => done());
				}),
			});
		});
	});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const {values} = parseArgs({options: {port: {type: 'string', default: '0'}, 'lifetime-s': {type: 'string', default: '3600'}, log: {type: 'string'}, model: {type: 'string', default: 'fake-model'}, 'dump-side': {type: 'string'}}});
	const log = values.log === undefined ? undefined : createWriteStream(values.log, {flags: 'a'});
	const server = await startFakeModelServer({port: Number(values.port), model: values.model, dumpFolder: values['dump-side'], onRequest: entry => log?.write(`${JSON.stringify(entry)}\n`)});
	const stop = async () => {
		await server.close();
		log?.end();
		process.exit(0);
	};

	setTimeout(stop, Number(values['lifetime-s']) * 1000).unref();
	// The harness holds stdin open; its end (the harness exited or crashed) ends the server.
	if (!process.stdin.isTTY) {
		process.stdin.on('end', stop);
		process.stdin.on('close', stop);
		process.stdin.resume();
	}

	process.stdout.write(`${JSON.stringify({port: server.port})}\n`);
}
