/**
@module What a native session makes of a line no command took: with a model connected, a message for
it; a `/word` no command has is unknown; plain text without a model says it was not sent and how to
connect a model, or — a command line without its `!` — the command it may have been.
*/
import {shortWord} from './commands/prompt-command.js';
import {isProgramOnPath} from './complete.js';
import {shortInline} from './queued-lines.js';
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

/** Words a sentence has and a command line rarely does ("make the tests pass" is a request, not `make`). */
const SENTENCE_WORDS = new Set(['a', 'an', 'the', 'to', 'is', 'are', 'it', 'this', 'that', 'please', 'why', 'what', 'how', 'my', 'me', 'you', 'your', 'i', 'we', 'and', 'of', 'for', 'with', 'can', 'could', 'should']);

/** Whether text reads as a sentence for a model rather than a command line: no shell syntax, and a word only sentences have (or a question mark). */
export function readsAsSentence(text: string): boolean {
	if (/[-/$|<>=~*;&'"`\\]/u.test(text)) {
		return false;
	}

	const words = text.trim().toLowerCase().split(/\s+/u);
	return text.trim().endsWith('?') || words.slice(1).some(word => SENTENCE_WORDS.has(word.replace(/[.,!?:]+$/u, '')));
}

/** What a session without a model says about connecting one (`AgentTurns.describe`), when it has an agent at all. */
export type ModelConnection = {readonly connected: boolean; readonly howToConnect?: () => string};

/**
The message for plain text while no model is connected. A command line the person forgot the `!`
of (its first word a program on PATH) gets the command it may have been; a request gets that it was
not sent, because no model is connected, and how to connect one — never a sentence offered as a
shell command.
*/
export function plainTextMessage(text: string, howToConnect: string | undefined, isProgram: (name: string) => boolean = isProgramOnPath): string {
	const first = text.split(/\s/u, 1)[0] ?? text;
	if (isProgram(first) && !readsAsSentence(text)) {
		return `unknown command: ${shortWord(first)} — did you mean !${shortWord(text)}?\ntext that is no command goes to a model, and none is connected (/model says how to connect one)`;
	}

	const how = howToConnect ?? 'this session has no model: !COMMAND runs a shell command, /help lists the commands';
	return `not sent: no model is connected to answer "${shortInline(text)}"\n${how}`;
}

/** A native session's line that no command took. */
export function nativeLine(line: string, toolNames: ReadonlySet<string>, model: ModelConnection, isProgram?: (name: string) => boolean): LineOutcome {
	const prompt = model.connected ? modelPrompt(line, toolNames) : undefined;
	if (prompt !== undefined) {
		return {work: {kind: 'prompt', text: prompt}};
	}

	const text = line.trim();
	if (text.startsWith('/')) {
		return {say: `unknown command: ${shortWord(/^\S*/u.exec(text)![0])} (type /help)`};
	}

	return {say: plainTextMessage(text, model.howToConnect?.(), isProgram)};
}
