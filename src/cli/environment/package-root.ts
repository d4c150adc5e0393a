import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The package's root folder (the nearest folder with package.json above this module), from source or from dist/. */
export function packageRoot(): string {
	let folder = dirname(fileURLToPath(import.meta.url));
	while (!existsSync(join(folder, 'package.json'))) {
		const parent = dirname(folder);
		if (parent === folder) {
			throw new Error('cardterm: cannot find its package.json');
		}

		folder = parent;
	}

	return folder;
}
