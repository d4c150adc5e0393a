/** The config layer's place (docs/architecture.md): below tools and session, beside the agent; never layout, transcript, agent, acp, cli or components. */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect, it} from 'vitest';

const folder = fileURLToPath(new URL('../../src/config/', import.meta.url));

it('src/config imports only the layers above it', () => {
	const imports: string[] = [];
	for (const name of readdirSync(folder)) {
		const text = readFileSync(path.join(folder, name), 'utf8');
		for (const match of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
			imports.push(path.relative(path.join(folder, '..'), path.resolve(folder, match[1]!)));
		}
	}

	expect(imports.length).toBeGreaterThan(5);
	const allowed = new Set(['config', 'json', 'schema', 'tools', 'session']);
	expect(imports.filter(target => !allowed.has(target.split(path.sep)[0]!))).toEqual([]);
});
