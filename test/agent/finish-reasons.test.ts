/**
How the model stopped decides how the turn ends: refusals, content filters, safety and recitation
blocks, a malformed function call, the output limit, an empty or reasoning-only answer each end the
turn with a line that says what happened (before, each was a `completed` turn, most of them blank).
A tool call cut by the output limit is not run, and the model is told to write less at once.
*/
import {existsSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {describe, expect, it} from 'vitest';
import {agentHarness, anthropicAt, geminiAt, NO_FIXTURES, SHARED_FIXTURES, toolMessages, wireFixture} from './agent-harness.js';

const present = existsSync(SHARED_FIXTURES);

/** The turn entry's line, as every view words it. */
async function turnLine(h: Awaited<ReturnType<typeof agentHarness>>): Promise<{text: string; failed: boolean}> {
	const {live, replay} = await h.finish();
	expect(replay).toEqual(live);
	const turn = live.at(-1);
	expect(turn?.entry).toBe('turn');
	return turn?.entry === 'turn' ? turn.outcome : {text: '', failed: false};
}

describe.skipIf(!present)(`recorded streams that are not a normal completion${present ? '' : ` — skipped: ${NO_FIXTURES}`}`, () => {
	it('Anthropic refusal (fixture anthropic-refusal): blocked, with the provider\'s explanation', async () => {
		const h = await agentHarness({model: anthropicAt, script: [{replay: {wire: 'anthropic', events: wireFixture('anthropic/anthropic-refusal.chunks.txt')!}}]});
		const outcome = await h.turn('something the policy blocks');
		const explanation = 'This request triggered restrictions on violative cyber content and was blocked under Anthropic\'s Usage Policy.';
		expect(outcome.reason).toEqual({kind: 'blocked', code: 'refusal', message: `the model refused: ${explanation}`});
		// The finish chunk keeps the provider's own reason.
		expect(h.events.some(event => event.type === 'assistant/chunk' && JSON.stringify(event.data).includes('"raw":"refusal"'))).toBe(true);
		expect(await turnLine(h)).toEqual({text: `blocked: the model refused: ${explanation}`, failed: true});
	}, 30_000);

	it('OpenAI refusal deltas (fixture openai-node-refusal): the refusal is the answer, and the turn says it was one', async () => {
		const h = await agentHarness({script: [{replay: {wire: 'openai', events: wireFixture('openai/openai-node-refusal.chunks.txt')!}}]});
		expect((await h.turn('x')).reason).toEqual({kind: 'blocked', code: 'refusal', message: 'the model refused'});
		const answer = h.events.find(event => event.type === 'assistant/message')!.data as Record<string, any>;
		expect(answer.message.content).toEqual([{type: 'text', text: 'I\'m very sorry, but I can\'t assist with that request.'}]);
		expect(await turnLine(h)).toEqual({text: 'blocked: the model refused', failed: true});
	}, 30_000);

	it('the output limit (fixture deepseek-text-length, finish_reason "length"): max tokens, the cut answer kept', async () => {
		const h = await agentHarness({script: [{replay: {wire: 'openai', events: wireFixture('openai/deepseek-text-length.chunks.txt')!}}]});
		expect((await h.turn('write a long story')).reason).toEqual({kind: 'max-tokens', message: 'the answer was cut at the model\'s output limit'});
		expect(await turnLine(h)).toEqual({text: 'max tokens: the answer was cut at the model\'s output limit', failed: true});
	}, 30_000);

	it('Azure\'s content filter (the recorded azure-model-router stream, ended as Azure ends a filtered answer)', async () => {
		const events = wireFixture('openai/azure-model-router.1.chunks.txt')! as Array<Record<string, any>>;
		// Azure OpenAI's docs: a filtered completion ends with `finish_reason: "content_filter"` and the category marked filtered.
		const filtered = events.map(event => event.choices?.[0]?.finish_reason === 'stop' ? {...event, choices: [{...event.choices[0], finish_reason: 'content_filter', content_filter_results: {violence: {filtered: true, severity: 'medium'}}}]} : event);
		const h = await agentHarness({script: [{replay: {wire: 'openai', events: filtered}}]});
		expect((await h.turn('x')).reason).toEqual({kind: 'blocked', code: 'content-filter', message: 'the provider\'s content filter stopped the answer'});
		expect((await turnLine(h)).failed).toBe(true);
	}, 30_000);

	it('Gemini SAFETY and RECITATION stops, and a MALFORMED_FUNCTION_CALL (the recorded google-text stream ended with each)', async () => {
		const events = wireFixture('google/google-text.chunks.txt')! as Array<Record<string, any>>;
		// The Gemini API's FinishReason values; the malformed call's finishMessage as Gemini words it.
		const endedWith = (finish: Record<string, unknown>) => [...events.slice(0, -1), {...events.at(-1), candidates: [{...events.at(-1)!.candidates[0], ...finish}]}];
		const h = await agentHarness({model: geminiAt, script: [
			{replay: {wire: 'gemini', events: endedWith({finishReason: 'SAFETY', safetyRatings: [{category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true}]})}},
			{replay: {wire: 'gemini', events: endedWith({finishReason: 'RECITATION'})}},
			{replay: {wire: 'gemini', events: [{candidates: [{content: {parts: []}, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: print(default_api.read(file_path=notes.txt', index: 0}], usageMetadata: {promptTokenCount: 9056, totalTokenCount: 9056}}]}},
		]});
		expect((await h.turn('a')).reason).toEqual({kind: 'blocked', code: 'content-filter', message: 'the provider stopped the answer (SAFETY)'});
		expect((await h.turn('b')).reason).toEqual({kind: 'blocked', code: 'content-filter', message: 'the provider stopped the answer (RECITATION)'});
		expect((await h.turn('c')).reason).toEqual({kind: 'error', error: {code: 'malformed-call', message: 'the model\'s tool call was malformed (MALFORMED_FUNCTION_CALL): Malformed function call: print(default_api.read(file_path=notes.txt'}});
		const {live} = await h.finish();
		expect(live.filter(entry => entry.entry === 'turn').map(entry => entry.entry === 'turn' && entry.outcome.failed)).toEqual([true, true, true]);
	}, 30_000);
});

describe('answers with nothing to show', () => {
	it('an empty answer and a reasoning-only answer each end the turn saying so', async () => {
		const h = await agentHarness({script: [{}, {reasoning: ['Let me think ', 'about it.']}]});
		expect((await h.turn('a')).reason).toEqual({kind: 'error', error: {code: 'empty-answer', message: 'the model ended its turn without an answer (it sent nothing)'}});
		expect((await h.turn('b')).reason).toEqual({kind: 'error', error: {code: 'empty-answer', message: 'the model ended its turn with reasoning only, no answer'}});
		const {live} = await h.finish();
		expect(live.filter(entry => entry.entry === 'turn').map(entry => entry.entry === 'turn' && entry.outcome.text)).toEqual([
			'error: the model ended its turn without an answer (it sent nothing)',
			'error: the model ended its turn with reasoning only, no answer',
		]);
	}, 30_000);
});

describe('a tool call cut by the output limit', () => {
	const cutWrite = {toolCalls: [{id: 'w1', name: 'write', args: ['{"file_path":"big.txt","content":"', 'line 1\\nline 2\\nline 3\\n']}], finish: 'length' as const};

	it('is not run; the model is told its output was cut and to write less at once; the card says so', async () => {
		const h = await agentHarness({script: [cutWrite, {toolCalls: [{id: 'w2', name: 'write', args: '{"file_path":"big.txt","content":"line 1\\n"}'}]}, {text: 'Written in parts.'}]});
		expect((await h.turn('write a big file')).reason).toEqual({kind: 'completed'});
		const [, told] = toolMessages(h.server.requests[1]!)[0]!;
		expect(told).toMatch(/^Error: not run: your output reached the model's output-token limit while you were writing this call's arguments \(\d+ characters arrived, cut off\), so the call is incomplete\. Write less in one call: split a large file/);
		const result = h.events.find(event => event.type === 'tool/result')!.data as Record<string, any>;
		expect(result.error).toEqual({name: 'OutputLimitError', code: 'OUTPUT_LIMIT'});
		// The call the model sent back is an object, so every provider takes the conversation.
		expect(h.server.requests[1]!.body.messages.find(message => message.role === 'assistant')!.tool_calls![0]!.function.arguments).toBe('{}');
		// Only the second, whole write ran.
		expect(await readdir(h.workspace)).toContain('big.txt');
		const {live, replay} = await h.finish();
		expect(live.filter(entry => entry.entry === 'card').map(entry => entry.entry === 'card' && entry.card.status)).toEqual(['error', 'ok']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('cut twice in a row ends the turn: max tokens', async () => {
		const h = await agentHarness({script: [cutWrite, cutWrite, {text: 'never'}]});
		expect((await h.turn('write a big file')).reason).toEqual({kind: 'max-tokens', message: 'the model\'s tool call was cut at its output limit 2 times in a row'});
		expect(h.server.requests).toHaveLength(2);
		expect(await readdir(h.workspace)).not.toContain('big.txt');
		await h.finish();
	}, 30_000);
});
