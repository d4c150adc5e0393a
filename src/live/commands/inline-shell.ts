/**
@module Shell commands inside a command file, whose output becomes part of its prompt: Claude Code's
`` !`git status` `` and Gemini CLI's `!{git status}`, anywhere in the body. The body is cut into
text and commands here; the arguments fill both (`$ARGUMENTS`, `$1`…; inside a command they are
quoted for the shell, as Gemini CLI does, so an argument is never run as shell syntax), and each
command runs when the command is expanded, as the session's `bash` call (`user-command.ts`).
*/
import {splitWords} from './prompt-command.js';

/** A piece of a command file's body: text as written, or a shell command to run. */
export type BodyPiece = {readonly text: string} | {readonly shell: string};

/** The most characters of one command's output put into the prompt; past it, the output is cut with a note. */
export const INLINE_OUTPUT_LIMIT = 16_000;
/** How long one command may run, in ms (the bash tool's own default is two minutes). */
export const INLINE_TIMEOUT_MS = 30_000;

/** The body cut into text and `` !`…` `` / `!{…}` commands (braces nest in `!{…}`; an unclosed one stays text). */
export function bodyPieces(body: string): BodyPiece[] {
	const pieces: BodyPiece[] = [];
	let text = '';
	let index = 0;
	while (index < body.length) {
		const start = body.indexOf('!', index);
		if (start === -1) {
			break;
		}

		const end = shellEnd(body, start);
		if (end === undefined) {
			text += body.slice(index, start + 1);
			index = start + 1;
			continue;
		}

		text += body.slice(index, start);
		if (text !== '') {
			pieces.push({text});
			text = '';
		}

		pieces.push({shell: body.slice(start + 2, end - 1)});
		index = end;
	}

	text += body.slice(index);
	if (text !== '') {
		pieces.push({text});
	}

	return pieces;
}

/** Where the command that opens at `start` (`!` then a backtick or a brace) ends, past its closer; undefined when none does. */
function shellEnd(body: string, start: number): number | undefined {
	const opener = body[start + 1];
	if (opener === '`') {
		const close = body.indexOf('`', start + 2);
		return close === -1 || close === start + 2 ? undefined : close + 1;
	}

	if (opener !== '{') {
		return undefined;
	}

	let depth = 0;
	for (let index = start + 1; index < body.length; index++) {
		const char = body[index];
		if (char === '{') {
			depth++;
		} else if (char === '}' && --depth === 0) {
			return index === start + 2 ? undefined : index + 1;
		}
	}

	return undefined;
}

/** A word as one shell word: single quotes, a quote inside it closed and escaped. */
export function shellQuote(word: string): string {
	return `'${word.replaceAll('\'', String.raw`'\''`)}'`;
}

/** The pieces with the arguments filled in, and whether any placeholder took them. */
export function fillPieces(pieces: readonly BodyPiece[], args: string): {readonly pieces: BodyPiece[]; readonly used: boolean} {
	const words = splitWords(args);
	let used = false;
	const fill = (text: string, quote: (word: string) => string): string => text.replaceAll(/\$(ARGUMENTS|[1-9])/gu, (_, which: string) => {
		used = true;
		return which === 'ARGUMENTS' ? (quote === identity ? args : words.map(word => quote(word)).join(' ')) : quote(words[Number(which) - 1] ?? '');
	});
	const filled = pieces.map(piece => 'shell' in piece ? {shell: fill(piece.shell, shellQuote)} : {text: fill(piece.text, identity)});
	return {pieces: filled, used};
}

const identity = (word: string): string => word;

/** A command's output as the prompt holds it: cut at `INLINE_OUTPUT_LIMIT` characters with a note, trailing newlines dropped. */
export function inlineOutput(output: string): string {
	const trimmed = output.replace(/\n+$/u, '');
	return trimmed.length <= INLINE_OUTPUT_LIMIT ? trimmed : `${trimmed.slice(0, INLINE_OUTPUT_LIMIT)}\n[… ${trimmed.length - INLINE_OUTPUT_LIMIT} more characters cut]`;
}
