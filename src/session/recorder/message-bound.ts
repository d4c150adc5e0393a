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
