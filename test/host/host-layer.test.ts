/**
The session host's place (docs/architecture.md): below every layer that runs a session (agent,
ACP, tools, the log, the transcript sources) and above the screens — it never imports `src/live`,
`components/` or `src/cli`, so opening a session needs no screen and no command line.
*/
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, it} from 'vitest';

const source = path.join(import.meta.dirname, '..', '..', 'src');

it('src/host imports only the layers above it: no live, components or cli', () => {
	const folder = path.join(source, 'host');
	const imports: string[] = [];
	for (const name of readdirSync(folder)) {
		const text = readFileSync(path.join(folder, name), 'utf8');
		for (const match of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
			imports.push(path.relative(source, path.resolve(folder, match[1]!)));
		}
	}

	expect(imports.length).toBeGreaterThan(20);
	const allowed = new Set(['json', 'regex', 'schema', 'tools', 'presentation', 'session', 'jobs', 'code-mode', 'builtin', 'agent', 'acp', 'config', 'layout', 'transcript', 'host']);
	expect(imports.filter(target => !allowed.has(target.split(path.sep)[0]!))).toEqual([]);
});
