/**
@module The instruction files of folders the agent first works in: when a call (the agent's or the
person's) touches a path below the working directory, the `AGENTS.md` (or `CLAUDE.md`) of each
folder down to it that was not read yet is read (`InstructionReader.nested`: the same caps and
import rules as the files of the system prompt) and told to the model as a message in its inbox,
which the loop writes as a `user/message` (source `instructions`) before its next request: the
log keeps it, the transcript shows it, a continued session's conversation has it. The system
prompt stays as it was sent (a provider's prompt cache keeps it). A continued session remembers
what its log told (`rememberNested`).
*/
import {relative} from 'node:path';
import {pathArgument} from '../config/approval-rules.js';
import {textContent} from '../tools/content.js';
import type {SessionEvent} from '../session/events/events.js';
import type {InstructionFile, InstructionReader} from './instruction-files.js';
import type {OpenedSession} from './open-session.js';

/**
Reads the files of folders the session's calls touch and puts them in the agent's inbox; returns the
stop. It runs as the registry's `tools/post-execute` hook, so a call's result is final only once its
folder's files are in the inbox: the loop takes the inbox after the step's calls, before its next request.
*/
export function watchNestedInstructions(session: Pick<OpenedSession, 'registry' | 'runtime'>, reader: InstructionReader, cwd: string): () => void {
	// One path at a time, in the order the calls ended: a folder's file is read once.
	let chain: Promise<void> = Promise.resolve();
	let stopped = false;
	const stop = session.registry.on('tools/post-execute', async (exec, _result, next) => {
		const path = pathArgument(exec.arguments);
		if (path !== undefined && !stopped) {
			chain = chain.then(async () => {
				const files = await reader.nested(path);
				if (files.length > 0 && !stopped) {
					session.runtime.agent.inject?.({content: textContent(nestedNote(files, cwd)), source: {kind: 'instructions', paths: files.map(file => file.path)}});
				}
			}).catch(() => undefined);
			await chain;
		}

		return next();
	});
	return () => {
		stopped = true;
		stop();
	};
}

/**
A continued session's conversation already holds the nested files its log told the model of: they
are read again (so `/instructions` lists them) but not told again.
*/
export async function rememberNested(reader: InstructionReader, history: Iterable<SessionEvent>): Promise<void> {
	for (const event of history) {
		const paths = event.type === 'user/message' && event.data.source?.['kind'] === 'instructions' ? event.data.source['paths'] : undefined;
		for (const path of Array.isArray(paths) ? paths : []) {
			if (typeof path === 'string') {
				// eslint-disable-next-line no-await-in-loop -- in the order they were told
				await reader.nested(path);
			}
		}
	}
}

/** The message that tells the model of files read now: where they apply, and their text as the system prompt gives files. */
export function nestedNote(files: readonly InstructionFile[], cwd: string): string {
	const folders = [...new Set(files.filter(file => file.scope === 'nested').map(file => `${relative(cwd, file.path).split(/[/\\]/u).slice(0, -1).join('/')}/`))];
	return [
		`More instruction files, read now that you work in ${folders.join(', ')}: they apply to the files under ${folders.length === 1 ? 'that folder' : 'those folders'} and win over the more general ones where they disagree.`,
		...files.map(file => `<instructions file="${file.path}">\n${file.text.trim()}\n</instructions>`),
	].join('\n\n');
}
