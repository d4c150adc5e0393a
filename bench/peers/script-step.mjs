// The scripted session every peer runs: the person asks for N shell calls; the model answers each
// tool result with the next `echo line-i` call, one at a time, then with a short answer. The step is
// derived from the conversation the client sends (no server-side state), so a retry, a resumed
// session or two clients at once all get the step their own conversation is at.

/** The person's prompt for a session of `calls` shell calls. */
// The prompt names no line, so every `line-i` on screen after the session is a tool call's command or output.
export const benchPrompt = calls => `Run ${calls} shell calls, one at a time, then answer.`;

/**
The same session asked `batch` calls to a model step (the live bench's 10 000 calls: one request per
call would make the conversation, not the session, what is measured). Chat Completions only.
*/
export const benchBatchPrompt = (calls, batch) => `Run ${calls} shell calls, ${batch} at a time, then answer.`;

/** The word the final answer contains, which the harness waits for on screen. */
export const doneMarker = calls => `BENCHDONE${calls}`;

/**
The prompt of the ACP turn bench (bench/peers/acp-turn.mjs): one answer streamed as `chunks` small
pieces, so an ACP agent sends as many message updates.
*/
export const streamPrompt = chunks => `Stream an answer in ${chunks} small chunks.`;

const streamPattern = /Stream an answer in (\d+) small chunks/;

/** The chunk count the newest user text asks for when it is the stream prompt; undefined otherwise. */
export function findStreamPrompt(userTexts) {
	const match = streamPattern.exec(userTexts.at(-1) ?? '');
	return match === null ? undefined : Number(match[1]);
}

/**
The pieces of the streamed answer: `w<i> ` words, a paragraph break after every 20th, the done marker
in the last; their concatenation is the answer's text.
*/
export function streamPieces(chunks) {
	return Array.from({length: chunks}, (_, index) => {
		const number = index + 1;
		if (number === chunks) {
			return `w${number} ${doneMarker(chunks)}`;
		}

		return number % 20 === 0 ? `w${number}\n\n` : `w${number} `;
	});
}

const promptPattern = /Run (\d+) shell calls, (one|\d+) at a time/;

/** The call count (and calls a step) the newest bench prompt among `userTexts` asks for, and its index; undefined when none does. */
export function findPrompt(userTexts) {
	for (let index = userTexts.length - 1; index >= 0; index--) {
		const match = promptPattern.exec(userTexts[index]);
		if (match !== null) {
			return {calls: Number(match[1]), batch: match[2] === 'one' ? 1 : Math.max(1, Number(match[2])), index};
		}
	}

	return undefined;
}

/**
The next step for a conversation: `{kind: 'call', index, count}` (calls `index` … `index + count - 1`,
1-based, each the command `echo line-i`; `count` is 1 unless a batch was asked) while fewer than
`calls` tool results follow the prompt, then `{kind: 'answer', text}`.
*/
export function nextStep(calls, resultsSincePrompt, batch = 1) {
	if (resultsSincePrompt < calls) {
		return {kind: 'call', index: resultsSincePrompt + 1, count: Math.min(batch, calls - resultsSincePrompt)};
	}

	return {kind: 'answer', text: `All ${calls} calls are done. ${doneMarker(calls)}`};
}

export const shellCommand = index => `echo line-${index}`;

const shellNames = ['bash', 'Bash', 'shell', 'shell_command', 'exec_command', 'run_shell_command', 'local_shell'];

/** The shell tool among `tools` ({name, parameters}): a known name first, else any name that mentions a shell. */
export function pickShellTool(tools) {
	for (const name of shellNames) {
		const tool = tools.find(candidate => candidate.name === name);
		if (tool !== undefined) {
			return tool;
		}
	}

	return tools.find(candidate => /shell|bash|exec|command/i.test(candidate.name));
}

/** Arguments for `tool` that run `command`: `command`/`cmd` as the schema types it (an argv array or a string), other required fields filled with a plain value. */
export function shellArguments(tool, command, schemaShaped) {
	const schema = tool.parameters ?? {};
	const properties = schema.properties ?? {};
	const args = {};
	for (const name of Array.isArray(schema.required) ? schema.required : []) {
		args[name] = schemaShaped(properties[name] ?? {});
	}

	const key = ['command', 'cmd'].find(name => name in properties) ?? 'command';
	const type = String(properties[key]?.type ?? 'string').toLowerCase();
	args[key] = type === 'array' ? ['bash', '-lc', command] : command;
	if ('description' in properties) {
		args.description = `Print ${command.slice(5)}`;
	}

	return args;
}
