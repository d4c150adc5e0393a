/**
The providers' documented error bodies, as they send them. Each is cited: a provider's docs, or a
public issue that quotes the body a real request got back.
*/
export const BODIES = {
	// HTTP 429 (ChatGPTNextWeb/NextChat#4101).
	insufficientQuota: {error: {message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', type: 'insufficient_quota', param: null, code: 'insufficient_quota'}},
	// HTTP 401 (chatanywhere/GPT_API_free#62).
	invalidKey: {error: {message: 'Incorrect API key provided: sk-VKMIs***wjh3. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key'}},
	// HTTP 400 (chathub-dev/chathub#126).
	openaiContext: {error: {message: 'This model\'s maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded'}},
	// HTTP 400 (evalstate/fast-agent#621).
	deepseekContext: {error: {message: 'This model\'s maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.', type: 'invalid_request_error', param: null, code: 'invalid_request_error'}},
	// HTTP 400 (anthropics/claude-code#59696).
	anthropicContext: {type: 'error', error: {type: 'invalid_request_error', message: 'prompt is too long: 203284 tokens > 200000 maximum'}, request_id: 'req_011Cb691naMZfUYHaJNPd2Xh'},
	// HTTP 400 (google-gemini/gemini-cli#6678).
	geminiContext: {error: {code: 400, message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', errors: [{message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', domain: 'global', reason: 'badRequest'}], status: 'INVALID_ARGUMENT'}},
	// Inside a 200 stream, llama.cpp (oobabooga/textgen#7257).
	llamaContext: {error: {code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 14_429, n_ctx: 8192}},
	// HTTP 429, RetryInfo as browserbase/mcp-server-browserbase#129 and googleapis/python-genai#2114 show it.
	geminiRateLimit: {error: {code: 429, message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/usage?tab=rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count, limit: 4000000\nPlease retry in 37.434392449s.', status: 'RESOURCE_EXHAUSTED', details: [{'@type': 'type.googleapis.com/google.rpc.Help', links: [{description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits'}]}, {'@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count', quotaId: 'GenerateContentPaidTierInputTokensPerModelPerMinute', quotaDimensions: {location: 'global', model: 'gemini-2.0-flash'}, quotaValue: '4000000'}]}, {'@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s'}]}},
	// Anthropic `event: error` inside a 200 stream (Helicone/helicone#4678; Anthropic's streaming docs).
	anthropicOverloaded: {type: 'error', error: {details: null, type: 'overloaded_error', message: 'Overloaded'}},
} as const;
