/**
@module `cardterm mcp add` and `remove`: one server written into (or taken out of) a file's
`mcpServers` — the user's config, or the project's `.mcp.json` — keeping everything else the file
holds. The file must be strict JSON (a config is; an unreadable one is named, never overwritten).
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {ConfigError} from './config-error.js';
import {readBoundedText, UnreadableFileError} from './read-config-text.js';
import {writeConfigFile} from './write-config-file.js';

/** Set `mcpServers[name]` in the file at `path` (created when missing); returns whether it replaced one. */
export async function addMcpServer(path: string, name: string, server: Record<string, unknown>, mode: number): Promise<boolean> {
	const file = await readObject(path);
	const servers = isPlainRecord(file.mcpServers) ? file.mcpServers : {};
	const replaced = Object.hasOwn(servers, name);
	file.mcpServers = {...servers, [name]: server};
	await saveFile(path, file, mode);
	return replaced;
}

/** Delete `mcpServers[name]` from the file at `path`; returns whether it was there. */
export async function removeMcpServer(path: string, name: string, mode: number): Promise<boolean> {
	const file = await readObject(path);
	if (!isPlainRecord(file.mcpServers) || !Object.hasOwn(file.mcpServers, name)) {
		return false;
	}

	const {[name]: _removed, ...rest} = file.mcpServers;
	file.mcpServers = rest;
	await saveFile(path, file, mode);
	return true;
}

async function readObject(path: string): Promise<Record<string, unknown>> {
	let text: string | undefined;
	try {
		text = await readBoundedText(path);
	} catch (error) {
		throw new ConfigError(`${path}: ${error instanceof UnreadableFileError ? error.message : String(error)}`);
	}

	if (text === undefined) {
		return {};
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
	} catch (error) {
		throw new ConfigError(`${path} is not JSON (${(error as Error).message}); fix it first, it is not overwritten`);
	}

	if (!isPlainRecord(parsed)) {
		throw new ConfigError(`${path} must be a JSON object; fix it first, it is not overwritten`);
	}

	return {...parsed};
}

async function saveFile(path: string, file: Record<string, unknown>, mode: number): Promise<void> {
	try {
		await writeConfigFile(path, `${JSON.stringify(file, null, '\t')}\n`, mode);
	} catch (error) {
		throw new ConfigError(`cannot write ${path}: ${(error as Error).message}`);
	}
}
