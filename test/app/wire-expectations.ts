/**
What a recorded provider stream says, read from the stream itself (not from cardterm or the SDK):
the answer's text and reasoning, the calls (name and arguments), the tools the provider ran itself,
and the token usage as the provider counts it. The wire-fixture matrix checks cardterm's log and its
`replay --json` against this.
*/

export type ExpectedStream = {
	readonly model: string;
	readonly text: string;
	readonly reasoning: string;
	readonly calls: ReadonlyArray<{readonly name: string; readonly args: unknown}>;
	readonly providerTools: readonly string[];
	readonly usage: {readonly inputTokens: number; readonly outputTokens: number};
	/** A stream the provider's own client refuses (a second message opened inside the first). */
	readonly broken?: string;
};

type Fields = Record<string, any>;

const jsonLines = (text: string): Fields[] => text.split('\n').filter(line => line.trim() !== '').map(line => JSON.parse(line.replace(/^data: /, '')) as Fields);

/** OpenAI Chat Completions chunks (`data:` framing or bare JSON lines). */
export function chatExpectation(text: string): ExpectedStream {
	const chunks = jsonLines(text.split('\n').filter(line => line.trim() !== '' && line.trim() !== 'data: [DONE]').join('\n'));
	let answer = '';
	let reasoning = '';
	const calls = new Map<number, {name: string; args: string}>();
	let usage = {inputTokens: 0, outputTokens: 0};
	let model = '';
	for (const chunk of chunks) {
		model ||= chunk.model ?? '';
		if (chunk.usage) {
			usage = {inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0};
		}

		const delta = chunk.choices?.[0]?.delta ?? {};
		if (Array.isArray(delta.content)) {
			for (const part of delta.content) {
				if (part.type === 'text') {
					answer += part.text;
				} else if (part.type === 'thinking') {
					reasoning += part.thinking.map((piece: Fields) => piece.text ?? '').join('');
				}
			}
		} else if (typeof delta.content === 'string') {
			answer += delta.content;
		}

		// A refusal is what the model said instead of an answer: the person reads it.
		answer += typeof delta.refusal === 'string' ? delta.refusal : '';

		reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
		for (const [position, call] of (delta.tool_calls ?? []).entries()) {
			const index: number = call.index ?? position;
			const known = calls.get(index) ?? {name: '', args: ''};
			known.name ||= call.function?.name ?? '';
			known.args += call.function?.arguments ?? '';
			calls.set(index, known);
		}
	}

	return {model, text: answer, reasoning, calls: [...calls.values()].map(call => ({name: call.name, args: JSON.parse(call.args || '{}')})), providerTools: [], usage};
}

/**
Anthropic Messages events. Text blocks next to each other are one text (the API splits a paragraph at
each citation); any other block between them (thinking, a server tool, a compaction summary) starts
a new paragraph.
*/
export function anthropicExpectation(text: string): ExpectedStream {
	const paragraphs: string[] = [];
	let lastBlock = '';
	let reasoning = '';
	const blocks = new Map<number, Fields>();
	const calls: Array<{name: string; args: unknown}> = [];
	const providerTools: string[] = [];
	let model = '';
	let openMessage: string | undefined;
	let broken: string | undefined;
	const start: Fields = {};
	const end: Fields = {};
	for (const event of jsonLines(text)) {
		if (broken !== undefined) {
			break;
		}

		switch (event.type) {
			case 'message_start': {
				if (openMessage !== undefined && openMessage !== event.message.id) {
					broken = `message_start for ${event.message.id} while ${openMessage} is open`;
					break;
				}

				openMessage = event.message.id;
				model = event.message.model;
				Object.assign(start, event.message.usage);
				break;
			}

			case 'content_block_start': {
				const type: string = event.content_block.type;
				blocks.set(event.index, {...event.content_block, json: ''});
				if ((type === 'text' || type === 'compaction') && (type !== 'text' || lastBlock !== 'text')) {
					paragraphs.push('');
				}

				lastBlock = type;
				break;
			}

			case 'content_block_delta': {
				const block = blocks.get(event.index)!;
				const delta = event.delta;
				if (delta.type === 'text_delta' || delta.type === 'compaction_delta') {
					paragraphs[paragraphs.length - 1] += delta.text ?? delta.content;
				} else if (delta.type === 'thinking_delta') {
					reasoning += delta.thinking;
				} else if (delta.type === 'input_json_delta') {
					block.json += delta.partial_json;
				}

				break;
			}

			case 'content_block_stop': {
				const block = blocks.get(event.index)!;
				const input = block.json === '' ? block.input ?? {} : JSON.parse(block.json);
				if (block.type === 'tool_use') {
					calls.push({name: block.name, args: input});
				} else if (block.type === 'server_tool_use') {
					providerTools.push(block.name);
				}

				break;
			}

			case 'message_delta': {
				Object.assign(end, event.usage);
				break;
			}

			default: {
				break;
			}
		}
	}

	// The last count of each kind wins (a message_delta may restate the input); cached input is input;
	// a compaction the API ran first is a model call of its own, billed beside the answer (its `iterations`).
	const compactions = (end.iterations ?? []).filter((iteration: Fields) => iteration.type === 'compaction');
	const count = (key: string): number => (end[key] ?? start[key] ?? 0) + compactions.reduce((sum: number, iteration: Fields) => sum + (iteration[key] ?? 0), 0);
	return {
		model, text: paragraphs.join('\n\n'), reasoning, calls, providerTools,
		usage: {inputTokens: count('input_tokens') + count('cache_creation_input_tokens') + count('cache_read_input_tokens'), outputTokens: count('output_tokens')},
		...(broken === undefined ? {} : {broken}),
	};
}

/** Gemini `streamGenerateContent` chunks, with calls whose arguments stream as `partialArgs` (JSON paths). */
export function geminiExpectation(text: string): ExpectedStream {
	let answer = '';
	let reasoning = '';
	const calls: Array<{name: string; args: Fields}> = [];
	let usage = {inputTokens: 0, outputTokens: 0};
	let model = '';
	for (const chunk of jsonLines(text)) {
		model ||= chunk.modelVersion ?? '';
		const meta = chunk.usageMetadata;
		if (meta?.promptTokenCount !== undefined) {
			usage = {inputTokens: meta.promptTokenCount, outputTokens: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0)};
		}

		for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
			if (typeof part.text === 'string') {
				if (part.thought === true) {
					reasoning += part.text;
				} else {
					answer += part.text;
				}
			}

			const call = part.functionCall;
			if (call === undefined) {
				continue;
			}

			if (typeof call.name === 'string') {
				calls.push({name: call.name, args: call.args ?? {}});
			}

			for (const partial of call.partialArgs ?? []) {
				setPath(calls.at(-1)!.args, partial.jsonPath, partial.stringValue ?? partial.numberValue ?? partial.boolValue ?? null);
			}
		}
	}

	return {model, text: answer, reasoning, calls, providerTools: [], usage};
}

/** Set (or, for a string, extend) the value at a JSON path like `$.todos[1].content`. */
function setPath(root: Fields, path: string, value: unknown): void {
	const keys = [...path.replace(/^\$\.?/, '').matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(match => match[2] === undefined ? match[1]! : Number(match[2]));
	let at: any = root;
	for (const [index, key] of keys.entries()) {
		if (index === keys.length - 1) {
			at[key] = typeof value === 'string' && typeof at[key] === 'string' ? at[key] + value : value;
		} else {
			at[key] ??= typeof keys[index + 1] === 'number' ? [] : {};
			at = at[key];
		}
	}
}
