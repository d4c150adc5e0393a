/**
@module Taking change groups back on disk: each change of each group (newest first, last change
first) is reversed on the file as it is now — an update's hunks where they still apply
(`reverse-hunks.ts`), a created file removed only while it holds what was created, a deleted file
put back only where nothing stands — all in memory first. One that does not go back refuses the
whole step, naming the file and the lines: nothing is written then, and nothing a person wrote is
lost. Otherwise each file is checked once more just before it is written (atomically, its
permission bits kept) or removed.
*/
import {readFile, stat, unlink} from 'node:fs/promises';
import path from 'node:path';
import {writeFileAtomic} from '../builtin/fs/atomic-write.js';
import {computeHunks} from '../builtin/fs/hunks.js';
import {reverseHunks, type HunkConflict} from '../builtin/fs/reverse-hunks.js';
import {decodeUtf8Text} from '../builtin/fs/text-decode.js';
import type {FileChange} from '../builtin/fs/undo-card.js';
import {isErrno} from '../builtin/workspace/fs-error.js';
import type {ContainedPath, WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import type {ChangeGroup} from './change-history.js';

/** A file's text, or `undefined` where no file is. */
type FileText = string | undefined;

/** One file a step back changes: what it holds now and after, and what made the changes taken back. */
export type FileStep = {
	/** The path as the session named it (relative to the workspace where it is inside). */
	readonly path: string;
	readonly target: ContainedPath;
	readonly before: FileText;
	readonly after: FileText;
	/** What made the changes (`edit`, `write`, `command`, …), in the order first met. */
	readonly tools: readonly string[];
};

export type StepPlan = {readonly ok: true; readonly files: readonly FileStep[]} | {readonly ok: false; readonly refusal: string};

/** Lines of a conflict shown in a refusal. */
const CONFLICT_LINES_SHOWN = 8;

/** The files that taking `groups` back (newest first) changes, or why it is refused. */
export async function planStepBack(guard: WorkspaceGuard, groups: readonly ChangeGroup[]): Promise<StepPlan> {
	const files = new Map<string, {path: string; target: ContainedPath; before: FileText; now: FileText; tools: string[]; first: number}>();
	// Changes are met newest first; the files are listed in the order the changes first touched them.
	let met = 0;
	for (const group of groups) {
		for (let index = group.changes.length - 1; index >= 0; index--) {
			const {tool, path: named, change} = group.changes[index]!;
			if ('unknown' in change) {
				return {ok: false, refusal: `cannot take back the ${tool} of ${named}: ${change.unknown}. Nothing was changed.`};
			}

			let target: ContainedPath;
			try {
				// eslint-disable-next-line no-await-in-loop -- one change after another, on the text the one before left
				target = await guard.resolve(named);
			} catch (error) {
				return {ok: false, refusal: `cannot take back the ${tool} of ${named}: ${(error as Error).message}. Nothing was changed.`};
			}

			let file = files.get(target.absolute);
			if (file === undefined) {
				// eslint-disable-next-line no-await-in-loop -- as above
				const read = await readText(target);
				if (read.ok === false) {
					return {ok: false, refusal: `cannot take back the ${tool} of ${named}: ${read.why}. Nothing was changed.`};
				}

				file = {path: shownPath(guard, target), target, before: read.text, now: read.text, tools: [], first: 0};
				files.set(target.absolute, file);
			}

			const reversed = reverse(change, file.now);
			if (!reversed.ok) {
				return {ok: false, refusal: conflictText(file.path, tool, reversed.conflict)};
			}

			file.now = reversed.text;
			file.first = met++;
			if (!file.tools.includes(tool)) {
				file.tools.unshift(tool);
			}
		}
	}

	const changed = [...files.values()].filter(file => file.before !== file.now).sort((one, other) => other.first - one.first);
	return {ok: true, files: changed.map(({path: shown, target, before, now, tools}) => ({path: shown, target, before, after: now, tools}))};
}

/** Write the plan; refuses (writing nothing) when a file changed since it was planned. */
export async function applyStepBack(guard: WorkspaceGuard, files: readonly FileStep[]): Promise<string | undefined> {
	const modes = new Map<string, number | undefined>();
	for (const file of files) {
		// eslint-disable-next-line no-await-in-loop -- each file is checked before any is written
		const read = await readText(file.target);
		if (!read.ok || read.text !== file.before) {
			return `${file.path} changed while the step back was prepared. Nothing was changed; try again.`;
		}

		// eslint-disable-next-line no-await-in-loop -- as above
		modes.set(file.target.absolute, file.before === undefined ? undefined : (await stat(file.target.real)).mode);
	}

	for (const file of files) {
		const mode = modes.get(file.target.absolute);
		// eslint-disable-next-line no-await-in-loop -- one file at a time, in order
		await (file.after === undefined ? unlink(file.target.real) : writeFileAtomic(guard, file.target, file.after, mode === undefined ? {} : {mode}));
	}

	return undefined;
}

/** The change a planned file step made, as an undo card records it. */
export function stepChange(file: FileStep): FileChange {
	if (file.before === undefined) {
		return {operation: 'create', path: file.path, content: file.after ?? ''};
	}

	if (file.after === undefined) {
		return {operation: 'delete', path: file.path, content: file.before};
	}

	return {operation: 'update', path: file.path, diffs: computeHunks(file.path, file.before, file.after)};
}

function reverse(change: FileChange, now: FileText): {readonly ok: true; readonly text: FileText} | {readonly ok: false; readonly conflict: HunkConflict} {
	switch (change.operation) {
		case 'update': {
			if (now === undefined) {
				return {ok: false, conflict: {path: change.path, line: 1, expected: firstLines(change.diffs[0]?.newText ?? ''), found: ['(the file is gone)']}};
			}

			return reverseHunks(now, change.diffs);
		}

		case 'create': {
			// A created file goes only while it holds exactly what was created.
			return now === change.content || now === undefined ? {ok: true, text: undefined} : {ok: false, conflict: firstDifference(change.path, change.content, now)};
		}

		case 'delete': {
			return now === undefined || now === change.content ? {ok: true, text: change.content} : {ok: false, conflict: firstDifference(change.path, '(no file)', now)};
		}
	}
}

/** The first line where `now` differs from `expected`, with a few lines from there. */
function firstDifference(path: string, expected: string, now: string): HunkConflict {
	const want = expected.split('\n');
	const have = now.split('\n');
	let at = 0;
	while (at < want.length && at < have.length && want[at] === have[at]) {
		at++;
	}

	return {path, line: at + 1, expected: want.slice(at, at + CONFLICT_LINES_SHOWN), found: have.slice(at, at + CONFLICT_LINES_SHOWN)};
}

function firstLines(text: string): string[] {
	return text.split('\n').slice(0, CONFLICT_LINES_SHOWN);
}

function conflictText(file: string, tool: string, conflict: HunkConflict): string {
	const shown = (lines: readonly string[], mark: string): string[] => [...lines.slice(0, CONFLICT_LINES_SHOWN).map(line => `    ${mark} ${line}`), ...(lines.length > CONFLICT_LINES_SHOWN ? [`    … ${lines.length - CONFLICT_LINES_SHOWN} more lines`] : [])];
	return [
		`cannot take back the ${tool} of ${file}: the file changed after it (near line ${conflict.line}).`,
		'  the change left:',
		...shown(conflict.expected, '-'),
		'  the file holds now:',
		...shown(conflict.found, '+'),
		'Nothing was changed: the file keeps what is in it now.',
	].join('\n');
}

/** The path relative to the workspace when inside it, as the cards show paths. */
function shownPath(guard: WorkspaceGuard, target: ContainedPath): string {
	const relative = path.relative(guard.workspace, target.absolute);
	return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : target.absolute;
}

async function readText(target: ContainedPath): Promise<{readonly ok: true; readonly text: FileText} | {readonly ok: false; readonly why: string}> {
	let bytes: Buffer;
	try {
		bytes = await readFile(target.real);
	} catch (error) {
		if (isErrno(error, 'ENOENT')) {
			return {ok: true, text: undefined};
		}

		return {ok: false, why: `it cannot be read (${(error as Error).message})`};
	}

	const text = decodeUtf8Text(bytes);
	return text === undefined ? {ok: false, why: 'it is not UTF-8 text now'} : {ok: true, text};
}
