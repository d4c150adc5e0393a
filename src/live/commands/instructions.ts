/**
@module `/instructions`: the instruction files the agent's system prompt holds — each with where it
comes from (the user's config folder, the project, a folder the agent first worked in, an import of another file) and what it costs in
tokens (estimated: four characters a token, no tokenizer) — and what was cut or left out.
*/
import {isAbsolute, relative} from 'node:path';
import {estimatedTokens, type InstructionFile, type Instructions} from '../../host/instruction-files.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {PromptCommand} from './prompt-command.js';

export const instructionsCommand: PromptCommand = {
	name: '/instructions',
	help: 'the instruction files the model reads (AGENTS.md, CLAUDE.md, imports) and their size',
	available: session => session.model !== undefined,
	run(text, context) {
		if (text !== '') {
			context.say('usage: /instructions', 'error');
			return;
		}

		const loaded = context.model!.instructions?.();
		context.say(loaded === undefined ? 'no instruction files: the agent has not started (connect a model with /model), or --system-prompt replaced the prompt' : instructionsReport(loaded, context.cwd), 'info');
	},
};

/** What `/instructions` says of `loaded`: the project's files relative to its root, the user's by their whole path. */
export function instructionsReport(loaded: Instructions, cwd: string): string {
	if (loaded.files.length === 0) {
		return [`no instruction files: none of AGENTS.md or CLAUDE.md from ${loaded.root} down to ${cwd}, nor in the user's config folder`, ...loaded.notes].join('\n');
	}

	const total = loaded.files.reduce((sum, file) => sum + estimatedTokens(file.text), 0);
	return [
		`instruction files, in the order the model reads them (~${total} tokens in all, estimated at 4 characters a token):`,
		...loaded.files.map(file => `  ${shown(file.path, loaded.root)}  ${from(file, loaded.root)}  ~${estimatedTokens(file.text)} tokens${file.cut ? ' (cut)' : ''}`),
		`  (project files relative to ${loaded.root})`,
		...loaded.notes.map(note => `  note: ${note}`),
	].join('\n');
}

function from(file: InstructionFile, root: string): string {
	switch (file.scope) {
		case 'user': {
			return "the user's";
		}

		case 'project': {
			return 'the project\'s';
		}

		case 'nested': {
			return 'read when the agent first worked in its folder';
		}

		case 'import': {
			return `imported by ${shown(file.importedBy ?? '', root)}`;
		}

		default: {
			return assertNever(file.scope, 'instruction file scope');
		}
	}
}

function shown(path: string, root: string): string {
	const below = relative(root, path);
	return below.startsWith('..') || isAbsolute(below) ? path : below;
}
