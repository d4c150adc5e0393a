/**
@module How much one assistant message may hold: the text, reasoning and call arguments of one
step of the native agent, or the text of one message of an ACP agent. A model or agent that
streams without end (or a hostile one) is cut there, with a notice: what the session holds in
memory, draws and writes is then bounded however fast or long it streams, and the message's log
line (at most six bytes a character, JSON-escaped) stays far under the reader's 64 MiB line bound.
*/

/**
4 Mi characters: eight times the largest output limit of the models cardterm knows (128 k tokens,
about 512 KiB of text), so no answer a model means to give is cut.
*/
export const MESSAGE_MAX_CHARS = 4 * 1024 * 1024;

/**
The bound this process applies: `MESSAGE_MAX_CHARS`, or a lower one that `CARDTERM_MESSAGE_MAX_CHARS`
names. The variable is a seam for the tests that flood the real binary under tmux
(`test/app/e2e-endless-stream.test.ts`): a flood drawn in a polled terminal on a shared machine takes
one to two minutes to reach 4 Mi characters and a few seconds to reach 256 Ki; what the full bound
costs is measured by `bench/stream-bounds.mjs`. It can only lower the bound (the log line bound rests
on it); a value that is not a whole number from 1 to `MESSAGE_MAX_CHARS` is ignored.
*/
export function messageMaxChars(env: Readonly<Record<string, string | undefined>> = process.env): number {
	const value = env.CARDTERM_MESSAGE_MAX_CHARS;
	const chars = value !== undefined && /^\d{1,8}$/.test(value.trim()) ? Number(value.trim()) : 0;
	return chars >= 1 && chars <= MESSAGE_MAX_CHARS ? chars : MESSAGE_MAX_CHARS;
}
