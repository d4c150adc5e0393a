/**
@module The client's `fs/read_text_file` and `fs/write_text_file`, held to the workspace by the same
guard the reference tools use (`workspace-guard.ts`: symlinks resolved, descriptors re-checked). A
path outside is refused with JSON-RPC's invalid-params error; a write is the reference `write`
tool's effect (atomic, permission bits kept) and is recorded as that tool's card, so the person
sees the diff of what the agent wrote.
*/
import {resolve} from 'node:path';
import {RequestError} from '@agentclientprotocol/sdk';
import {DIFF_BASIS_MAX_BYTES, writeWorkspaceFile} from '../builtin/fs/mutate-file.js';
import {decodeUtf8Text} from '../builtin/fs/text-decode.js';
import {changeMeta} from '../builtin/fs/undo-card.js';
import {computeHunks} from '../builtin/fs/hunks.js';
import {renderWrite, writePresentationMeta, type WriteValue} from '../builtin/fs/write-card.js';
import type {JsonValue} from '../json/json-value.js';
import {FsError, isErrno} from '../builtin/workspace/fs-error.js';
import type {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import type {AcpEvents} from './acp-events.js';

/** Largest file the agent may read through the client. */
const READ_MAX_BYTES = DIFF_BASIS_MAX_BYTES;

/** An `FsError` in the protocol's words: outside / invalid ⇒ invalid params, missing ⇒ resource not found. */
function protocolError(error: unknown, path: string): unknown {
	if (!(error instanceof FsError)) {
		return error;
	}

	switch (error.code) {
		case 'FS_OUTSIDE_WORKSPACE':
		case 'FS_INVALID_PATH': {
			return RequestError.invalidParams({path}, error.message);
		}

		case 'FS_NOT_FOUND': {
			return RequestError.resourceNotFound(path);
		}

		default: {
			return RequestError.internalError({path, code: error.code}, error.message);
		}
	}
}

/** Lines `line` (1-based) to `line + limit - 1` of `text`, as ACP reads a window. */
function lineWindow(text: string, line: number | null | undefined, limit: number | null | undefined): string {
	if ((line === undefined || line === null) && (limit === undefined || limit === null)) {
		return text;
	}

	const lines = text.split('\n');
	const start = Math.max(1, line ?? 1) - 1;
	const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
	return lines.slice(start, end).join('\n');
}

/** What `/undo` needs of a write: a created file's text, or the hunks of an update (none without a prior text). */
function undoableChange(path: string, value: WriteValue): JsonValue | undefined {
	if (value.operation === 'create') {
		return changeMeta({operation: 'create', path, content: value.after});
	}

	return value.before === null ? undefined : changeMeta({operation: 'update', path, diffs: computeHunks(path, value.before, value.after)});
}

export class AcpFiles {
	readonly #guard: WorkspaceGuard;
	readonly #events: AcpEvents;

	constructor(guard: WorkspaceGuard, events: AcpEvents) {
		this.#guard = guard;
		this.#events = events;
	}

	async readTextFile(request: {readonly path: string; readonly line?: number | null; readonly limit?: number | null}): Promise<{content: string}> {
		try {
			const target = await this.#guard.resolve(request.path);
			let handle;
			try {
				handle = await this.#guard.openForRead(target);
			} catch (error) {
				if (isErrno(error, 'ENOENT')) {
					// A missing file inside the workspace reads as empty: Gemini CLI creates files only
					// after such a read succeeds (its SDK loses the code of a not-found error).
					return {content: ''};
				}

				throw error;
			}

			try {
				const info = await handle.stat();
				if (!info.isFile()) {
					throw new FsError(`cannot read "${target.absolute}": not a regular file`, 'FS_NOT_A_FILE');
				}

				if (info.size > READ_MAX_BYTES) {
					throw new FsError(`cannot read "${target.absolute}": larger than ${READ_MAX_BYTES} bytes`, 'FS_FILE_TOO_LARGE');
				}

				const text = decodeUtf8Text(await handle.readFile());
				if (text === undefined) {
					throw new FsError(`cannot read "${target.absolute}": not UTF-8 text`, 'FS_BINARY_FILE');
				}

				return {content: lineWindow(text, request.line, request.limit)};
			} finally {
				await handle.close();
			}
		} catch (error) {
			throw protocolError(error, request.path);
		}
	}

	async writeTextFile(request: {readonly path: string; readonly content: string}, signal: AbortSignal): Promise<Record<string, never>> {
		const absolute = (path: string): string => resolve(this.#guard.workspace, path);
		const callId = this.#events.callNaming(absolute(request.path), absolute);
		if (callId !== undefined) {
			// The write of a call already on screen (Gemini CLI, qwen-code edit through the client): its card is the change.
			try {
				const value = await writeWorkspaceFile(this.#guard, {filePath: request.path, content: request.content}, {diffBasisMaxBytes: DIFF_BASIS_MAX_BYTES, editMaxBytes: DIFF_BASIS_MAX_BYTES}, signal);
				this.#events.callWrote(callId, {path: absolute(request.path), oldText: value.before, newText: value.after}, undoableChange(request.path, value));
				return {};
			} catch (error) {
				throw protocolError(error, request.path);
			}
		}

		const args = {file_path: request.path, content: request.content};
		const card = this.#events.localCall('write', args);
		try {
			const value = await writeWorkspaceFile(this.#guard, {filePath: request.path, content: request.content}, {diffBasisMaxBytes: DIFF_BASIS_MAX_BYTES, editMaxBytes: DIFF_BASIS_MAX_BYTES}, signal);
			card.settle({content: renderWrite(value), isError: false, meta: writePresentationMeta(args, value)});
			return {};
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			card.settle({content: [{type: 'text', text: `Error: ${message}`}], isError: true, ...(error instanceof FsError ? {error: {name: 'FsError', code: error.code}} : {})});
			throw protocolError(error, request.path);
		}
	}
}
