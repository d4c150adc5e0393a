/**
The live session core's place (docs/architecture.md): above the command line, below the host and
the screen's contract — it imports `components/session-model.ts` (types) and nothing else of the
screens, and never `src/cli`, so both front ends (native, ACP) and the tests build it alike.
*/
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, it} from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const folder = path.join(root, 'src', 'live');

it('src/live imports the layers above it and the screen\'s contract only: no cli, no Ink components', () => {
	const imports: string[] = [];
	for (const name of readdirSync(folder, {recursive: true, encoding: 'utf8'}).filter(file => file.endsWith('.ts'))) {
		const file = path.join(folder, name);
		const text = readFileSync(file, 'utf8');
		for (const match of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
			imports.push(path.relative(root, path.resolve(path.dirname(file), match[1]!)));
		}
	}

	expect(imports.length).toBeGreaterThan(40);
	const wrong = imports.filter(target => !(target.startsWith(`src${path.sep}`) && !target.startsWith(`src${path.sep}cli${path.sep}`)) && target !== path.join('components', 'session-model.js'));
	expect(wrong).toEqual([]);
});
