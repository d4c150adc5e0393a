/**
@module Writing a settings file cardterm owns a part of (the consents it remembers, the servers
`cardterm mcp add` adds): the whole text beside it, then renamed over it, so a crash leaves the old
file or the new one, never half of one; created with the mode given (0600 for what holds consents).
*/
import {chmod, open, rename, rm} from 'node:fs/promises';
import {dirname} from 'node:path';
import {makeDirectory} from '../session/store/make-directory.js';

export async function writeConfigFile(path: string, text: string, mode: number): Promise<void> {
	await makeDirectory(dirname(path));
	const temporary = `${path}.${process.pid}.tmp`;
	const handle = await open(temporary, 'w', mode);
	try {
		await handle.writeFile(text);
	} finally {
		await handle.close();
	}

	await chmod(temporary, mode);
	await rename(temporary, path).catch(async (error: unknown) => {
		await rm(temporary, {force: true});
		throw error;
	});
}
