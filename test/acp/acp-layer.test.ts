import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect, it} from 'vitest';

const folder = fileURLToPath(new URL('../../src/acp/', import.meta.url));

it('src/acp imports only the layers above it (docs/architecture.md): no layout, transcript, cli or components', () => {
	const imports: string[] = [];
	for (const name of readdirSync(folder)) {
		const text = readFileSync(path.join(folder, name), 'utf8');
		for (const match of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
			imports.push(path.relative(path.join(folder, '..'), path.resolve(folder, match[1]!)));
		}
	}

	expect(imports.length).toBeGreaterThan(10);
	const allowed = new Set(['acp', 'json', 'regex', 'schema', 'tools', 'presentation', 'session', 'jobs', 'builtin']);
	expect(imports.filter(target => !allowed.has(target.split(path.sep)[0]!))).toEqual([]);
});
