import {mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
Transpiles `entry` (a path under src/, e.g. 'src/session/recorder/log-writer.ts') and every source file it
imports relatively into `outDir`, so a child `node` process (Node 20 runs no TypeScript) can load it.
Returns the file URL of the entry's JavaScript.
*/
export function compileForChild(entry: string, outDir: string): string {
	const seen = new Set<string>();
	const queue = [resolve(repoRoot, entry)];
	while (queue.length > 0) {
		const file = queue.pop()!;
		if (seen.has(file)) {
			continue;
		}

		seen.add(file);
		const source = readFileSync(file, 'utf8');
		const output = ts.transpileModule(source, {compilerOptions: {module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022}, fileName: file}).outputText;
		const target = join(outDir, relative(repoRoot, file)).replace(/\.ts$/, '.js');
		mkdirSync(dirname(target), {recursive: true});
		writeFileSync(target, output);
		for (const match of output.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
			queue.push(resolve(dirname(file), `${match[1]}.ts`));
		}
	}

	writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
	// Bare imports (fzstd, …) resolve through the repository's node_modules.
	symlinkSync(join(repoRoot, 'node_modules'), join(outDir, 'node_modules'), 'dir');
	return pathToFileURL(join(outDir, entry.replace(/\.ts$/, '.js'))).href;
}
