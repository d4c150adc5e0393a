/**
@module What cardterm knows of a model before asking it: its context window and its output limit,
for the request's `max_tokens` (and the window's use in "17 · The model's window"), and whether it
takes images. A small table
of the common families, newest patterns first; a model it does not know gets no limits, and the
request then leaves `max_tokens` to the provider's default (the Anthropic package has its own table
and a conservative default for names it does not know).

Why not a package: `tokenlens` (models.dev data, offline) was evaluated — 3.6 MB installed across
five packages, and its static catalog (1.3.1) predates Claude Sonnet 4.5, GPT-5-Codex and Gemini 3
and gives deepseek-reasoner a 128K output that the API refuses. Figures here are the providers'
documented limits; the next issue extends the table.
*/

export type ModelLimits = {
	/** Tokens of input and output together the model can attend to. */
	readonly contextWindow: number;
	/** Most tokens one answer may have (the request's `max_tokens`). */
	readonly maxOutputTokens: number;
};

type Entry = {readonly pattern: RegExp} & ModelLimits;

const K = 1024;

/** Checked in order: a more specific pattern comes before its family's. */
const ENTRIES: readonly Entry[] = [
	// Anthropic (docs.anthropic.com, "Models overview").
	{pattern: /claude-(opus|sonnet)-4-6/, contextWindow: 200_000, maxOutputTokens: 128_000},
	{pattern: /claude-(sonnet-4-5|opus-4-5|haiku-4-5)/, contextWindow: 200_000, maxOutputTokens: 64_000},
	{pattern: /claude-opus-4-(1|20)/, contextWindow: 200_000, maxOutputTokens: 32_000},
	{pattern: /claude-sonnet-4-20/, contextWindow: 200_000, maxOutputTokens: 64_000},
	{pattern: /claude-3-7-sonnet/, contextWindow: 200_000, maxOutputTokens: 64_000},
	{pattern: /claude-3-5-(sonnet|haiku)/, contextWindow: 200_000, maxOutputTokens: 8192},
	{pattern: /claude-3-(haiku|opus|sonnet)/, contextWindow: 200_000, maxOutputTokens: 4096},
	// OpenAI (platform.openai.com, model pages).
	{pattern: /^gpt-5(\.\d+)?-chat/, contextWindow: 128_000, maxOutputTokens: 16_384},
	{pattern: /^gpt-5/, contextWindow: 400_000, maxOutputTokens: 128_000},
	{pattern: /^gpt-4\.1/, contextWindow: 1_047_576, maxOutputTokens: 32_768},
	{pattern: /^gpt-4o/, contextWindow: 128_000, maxOutputTokens: 16_384},
	{pattern: /^(o1|o3|o4-mini)(-|$)/, contextWindow: 200_000, maxOutputTokens: 100_000},
	{pattern: /^codex-mini/, contextWindow: 200_000, maxOutputTokens: 100_000},
	// Google (ai.google.dev, "Gemini models").
	{pattern: /^gemini-(2\.5|3)/, contextWindow: 1_048_576, maxOutputTokens: 65_536},
	{pattern: /^gemini-2\.0/, contextWindow: 1_048_576, maxOutputTokens: 8192},
	// DeepSeek (api-docs.deepseek.com, "Models & Pricing"): chat 8K at most, reasoner 64K.
	{pattern: /^deepseek-chat$/, contextWindow: 128 * K, maxOutputTokens: 8192},
	{pattern: /^deepseek-reasoner$/, contextWindow: 128 * K, maxOutputTokens: 64 * K},
];

/** The limits of `model` (its id as the provider knows it, with or without an OpenRouter-style `vendor/` prefix), or `undefined`. */
export function modelLimits(model: string): ModelLimits | undefined {
	const id = model.trim().toLowerCase().replace(/^[a-z0-9-]+\//, '');
	const entry = ENTRIES.find(candidate => candidate.pattern.test(id));
	return entry === undefined ? undefined : {contextWindow: entry.contextWindow, maxOutputTokens: entry.maxOutputTokens};
}

/**
Which models take images in the person's message (the providers' model pages: every Claude since 3,
GPT-4o, GPT-4.1, GPT-5 and the o-series but o1-mini and o3-mini, every Gemini; DeepSeek's models (chat,
reasoner, V4) take text only and refuse an image part: "unknown variant `image_url`, expected `text`"). `undefined`: a model cardterm does not know
(a local server's, a new one) — its image is sent, and the provider says whether it takes one.
*/
const IMAGE_INPUT: ReadonlyArray<{readonly pattern: RegExp; readonly images: boolean}> = [
	{pattern: /^(o1-mini|o3-mini)/, images: false},
	{pattern: /^deepseek-/, images: false},
	{pattern: /^gpt-3\.5/, images: false},
	{pattern: /claude-/, images: true},
	{pattern: /^(gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4-mini|codex-mini)/, images: true},
	{pattern: /^gemini-/, images: true},
];

/** Whether `model` takes images (`undefined`: not known; see `IMAGE_INPUT`). */
export function modelTakesImages(model: string): boolean | undefined {
	const id = model.trim().toLowerCase().replace(/^[a-z0-9-]+\//, '');
	return IMAGE_INPUT.find(candidate => candidate.pattern.test(id))?.images;
}
