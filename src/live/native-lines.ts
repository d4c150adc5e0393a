/**
@module What a native session makes of a line no command took: with a model connected, a message for
it; a `/word` no command has is unknown; plain text without a model says what text does and the
command it may have been.
*/
import {shortWord} from './commands/prompt-command.js';
import type {LineOutcome} from './session-driver.js';

/**
The model's prompt for `line`, or undefined when the line is a command: `/…`, `!…`, or a tool
name followed by nothing or by JSON (`read {"file_path":"a"}`). "read the README" is a prompt.
*/
export function modelPrompt(line: string, toolNames: ReadonlySet<string>): string | undefined {
	const text = line.trim();
	if (text === '' || text.startsWith('/') || text.startsWith('!')) {
		return undefined;
	}

	const match = /^([A-Za-z_$][\w$.-]*)(?:\s+([\s\S]*))?$/.exec(text);
	if (match !== null && toolNames.has(match[1]!)) {
		const rest = (match[2] ?? '').trim();
		if (rest === '' || rest.startsWith('{')) {
			return undefined;
		}
	}

	return line;
}

/** The message for plain text while no model is connected: what the person may have meant, and what text does. */
export function plainTextMessage(text: string): string {
	const first = text.split(/\s/, 1)[0] ?? text;
	return `unknown command: ${shortWord(first)} — did you mean !${shortWord(text)}?\nplain text goes to the model; no model connected: see /model`;
}

/** A native session's line that no command took. */
export function nativeLine(line: string, toolNames: ReadonlySet<string>, modelConnected: boolean): LineOutcome {
	const prompt = modelConnected ? modelPrompt(line, toolNames) : undefined;
	if (prompt !== undefined) {
		return {work: {kind: 'prompt', text: prompt}};
	}

	const text = line.trim();
	if (text.startsWith('/')) {
		return {say: `unknown command: ${shortWord(/^\S*/u.exec(text)![0])} (type /help)`};
	}

	return {say: plainTextMessage(text)};
}
