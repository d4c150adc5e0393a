/**
@module `opencode:ID` wherever a LOG is read once (replay, export): opencode keeps the session in its
database, so `opencode export ID` writes it to a private file for the time of the command, and the
command reads that file as any session file. A path that exists is a path, whatever its name.
*/
import {stat} from 'node:fs/promises';
import {exportOpencodeSession, OPENCODE_PREFIX, opencodeProgram} from '../../host/opencode-sessions.js';
import type {CliIo} from './cli-io.js';

/** A LOG to read, and what to do once it is read. */
export type ReadableLog = {readonly source: string; release(): Promise<void>};

/** `source` itself, or the export of the opencode session it names (exit 65 with why, when it cannot be had). */
export async function opencodeLog(source: string, io: Pick<CliIo, 'cwd' | 'env'>): Promise<ReadableLog> {
	const asIs = {source, release: async () => undefined};
	if (!source.startsWith(OPENCODE_PREFIX) || await stat(source).then(() => true, () => false)) {
		return asIs;
	}

	const id = source.slice(OPENCODE_PREFIX.length);
	const program = await opencodeProgram(io.env);
	if (program === undefined) {
		throw Object.assign(new Error(`${source}: opencode sessions are read through its CLI, and opencode is not on PATH (or replay what \`opencode export ${id} > FILE\` writes)`), {exitCode: 65});
	}

	try {
		const exported = await exportOpencodeSession(program, id, io.cwd, io.env);
		return {source: exported.path, release: exported.remove};
	} catch (error) {
		throw Object.assign(new Error(`${source}: ${error instanceof Error ? error.message : String(error)}`), {exitCode: 65});
	}
}
