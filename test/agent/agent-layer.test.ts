/**
The agent layer's place (docs/architecture.md): it may import tools, session, jobs, code-mode and
builtin, never layout, transcript, cli or components; and only `model-client.ts` knows the model
library, so the loop does not care which one streams.
*/
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';

const folder = join(import.meta.dirname, '..', '..', 'src', 'agent');
const files = readdirSync(folder).filter(name => name.endsWith('.ts'));
const importsOf = (name: string): string[] => [...readFileSync(join(folder, name), 'utf8').matchAll(/^import\b[^;]*?from '([^']+)'/gms)].map(match => match[1]!);

describe('the agent layer', () => {
	it('imports no layer below it', () => {
		const wrong = files.flatMap(name => importsOf(name).filter(path => /^\.\.\/(?:layout|transcript|cli)\/|components\//.test(path)).map(path => `${name}: ${path}`));
		expect(files.length).toBeGreaterThan(5);
		expect(wrong).toEqual([]);
	});

	it('keeps the model library behind model-client.ts', () => {
		const users = files.filter(name => importsOf(name).some(path => path === 'ai' || path.startsWith('@ai-sdk/')));
		expect(users).toEqual(['model-client.ts']);
	});
});
